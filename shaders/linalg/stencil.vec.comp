#version 460
// Matrix-free 5-point operator (linalg::Stencil5): out = diag·v + off·(left + right + up +
// down), zero outside a width x height grid stored row-major in quads (width a multiple of
// 4, so a quad never straddles two rows). The same product as the banded kernel on the
// operator's 5 diagonals, without reading them. Optionally fused with S[slot] = v·out (CG).
//
// With `direction` set, v is first made CG's next search direction v = r + beta·d
// (beta = S[beta_num] / S[beta_den]) from r and the previous direction d, read at each
// quad and its neighbours, and v is written out: CG's d update rides on its next product
// (cg.cpp) instead of a pass of its own.
#extension GL_GOOGLE_include_directive : require
#include "quads.glsl"
#define SCALARS_BINDING 2
#include "scalars.glsl"
#define REDUCE_BINDING 3
layout(local_size_x = 256) in;
VEC_IN(0, V);  // v, or with direction the previous direction d
VEC_OUT(1, OUT);
VEC_IN(4, R);     // with direction: the residual r
VEC_OUT(5, DIR);  // with direction: v = r + beta·d
#include "reduce.glsl"
#define PUSH_StencilPush
#include "linalg_push.h"

float beta = 0.0;

vec4 operand(uint q) { return direction != 0u ? LOADQ(R, q) + beta * LOADQ(V, q) : LOADQ(V, q); }

void main() {
  if (direction != 0u) beta = coef(1.0, beta_num, beta_den);
  uint row = width / 4u;  // quads a row
  float sum = 0.0;
  FOR_EACH_QUAD(q, quads) {
    uint y = q / row, xq = q - y * row;
    vec4 c = operand(q);
    vec4 left = vec4(xq > 0u ? operand(q - 1u).w : 0.0, c.xyz);
    vec4 right = vec4(c.yzw, xq + 1u < row ? operand(q + 1u).x : 0.0);
    vec4 up = y > 0u ? operand(q - row) : vec4(0.0);
    vec4 down = y + 1u < height ? operand(q + row) : vec4(0.0);
    vec4 r = diag * c + off * (((left + right) + up) + down);
    STOREQ(OUT, q, r);
    if (direction != 0u) STOREQ(DIR, q, c);
    if (reduce_slot != NO_SLOT) sum += dot(c, r);
  }
  if (reduce_slot != NO_SLOT) reduce_to_scalar(sum, reduce_slot, 0u, NO_SLOT);
}
