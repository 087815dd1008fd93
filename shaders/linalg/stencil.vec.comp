#version 460
// Matrix-free 5-point operator (linalg::Stencil5): out = diag·v + off·(left + right + up +
// down), zero outside a width x height grid stored row-major in quads (width a multiple of
// 4, so a quad never straddles two rows). The same product as the banded kernel on the
// operator's 5 diagonals, without reading them. Optionally fused with S[slot] = v·out (CG).
#extension GL_GOOGLE_include_directive : require
#include "quads.glsl"
#define SCALARS_BINDING 2
#include "scalars.glsl"
#define REDUCE_BINDING 3
layout(local_size_x = 256) in;
VEC_IN(0, V);
VEC_OUT(1, OUT);
#include "reduce.glsl"
#define PUSH_StencilPush
#include "linalg_push.h"

void main() {
  uint row = width / 4u;  // quads a row
  float sum = 0.0;
  FOR_EACH_QUAD(q, quads) {
    uint y = q / row, xq = q - y * row;
    vec4 c = LOADQ(V, q);
    vec4 left = vec4(xq > 0u ? LOADQ(V, q - 1u).w : 0.0, c.xyz);
    vec4 right = vec4(c.yzw, xq + 1u < row ? LOADQ(V, q + 1u).x : 0.0);
    vec4 up = y > 0u ? LOADQ(V, q - row) : vec4(0.0);
    vec4 down = y + 1u < height ? LOADQ(V, q + row) : vec4(0.0);
    vec4 r = diag * c + off * (((left + right) + up) + down);
    STOREQ(OUT, q, r);
    if (reduce_slot != NO_SLOT) sum += dot(c, r);
  }
  if (reduce_slot != NO_SLOT) reduce_to_scalar(sum, reduce_slot, 0u, NO_SLOT);
}
