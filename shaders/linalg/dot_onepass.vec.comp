#version 460
// Modern dot product: one dispatch, subgroup adds, last-workgroup finish; the result
// stays on the GPU in S[slot] (optionally its square root: the norm).
#extension GL_GOOGLE_include_directive : require
#include "quads.glsl"
#define SCALARS_BINDING 2
#include "scalars.glsl"
#define REDUCE_BINDING 3
layout(local_size_x = 256) in;
VEC_IN(0, X);
VEC_IN(1, Y);
#include "reduce.glsl"
#define PUSH_DotOnePush
#include "linalg_push.h"

void main() {
  float sum = 0.0;
  if (same != 0u) {  // x·x (norms, CG's r·r): one load a quad, not two of the same address
    FOR_EACH_QUAD(q, quads) {
      vec4 x = LOADQ(X, q);
      sum += dot(x, x);
    }
  } else {
    FOR_EACH_QUAD(q, quads) sum += dot(LOADQ(X, q), LOADQ(Y, q));
  }
  reduce_to_scalar(sum, slot, mode, hist);
}
