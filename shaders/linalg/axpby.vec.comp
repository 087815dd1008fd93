#version 460
// gpuVecAdd (seed 000, §3.3.1): out = a·x + b·y, or the element-wise product x∘y.
// a and b may be scaled by GPU scalars (CG's alpha = rho/dAd), see scalars.glsl.
#extension GL_GOOGLE_include_directive : require
#include "quads.glsl"
#define SCALARS_BINDING 3
#include "scalars.glsl"
layout(local_size_x = 256) in;
VEC_IN(0, X);
VEC_IN(1, Y);
VEC_OUT(2, OUT);
#define PUSH_AxpbyPush
#include "linalg_push.h"

void main() {
  float ca = coef(a, a_num, a_den), cb = coef(b, b_num, b_den);
  FOR_EACH_QUAD(q, quads) {
    vec4 x = LOADQ(X, q), y = LOADQ(Y, q);
    STOREQ(OUT, q, product != 0u ? x * y : ca * x + cb * y);
  }
}
