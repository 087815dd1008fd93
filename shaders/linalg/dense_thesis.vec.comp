#version 460
// gpuMatOp on a dense matrix as the thesis does it (seed 000, §3.3.3): pass p combines
// columns 4p..4p+3 with the 4 values of quad p of v and adds the previous pass's result;
// N/4 passes in all, the last adds vp. Columns are one buffer, column c at quads c·Q.
#extension GL_GOOGLE_include_directive : require
#include "quads.glsl"
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer M_block { vec4 M[]; };
VEC_IN(1, V);
VEC_IN(2, ACC);
VEC_IN(3, VP);
VEC_OUT(4, OUT);
#define PUSH_DenseThesisPush
#include "linalg_push.h"

void main() {
  vec4 w = LOADQ(V, pass_index);
  FOR_EACH_QUAD(q, quads) {
    vec4 r = pass_index > 0u ? LOADQ(ACC, q) : vec4(0.0);
    for (uint k = 0u; k < 4u; ++k) r += M[(4u * pass_index + k) * quads + q] * w[k];
    if (add_vp != 0u) r += LOADQ(VP, q);
    STOREQ(OUT, q, r);
  }
}
