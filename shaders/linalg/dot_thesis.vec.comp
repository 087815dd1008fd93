#version 460
// gpuVecScal as the thesis does it (seed 000, §3.3.2), one pass of several:
//  pass 0 (partial dot): out quad component k = x[child k] · y[child k]
//  reduce passes:        out quad component k = sum of the components of in[child k]
//  final pass:           S[slot] = sum of the 4 components of the last quad (x·y if x is
//                        still the input vectors), no read-back.
// The 4 children of an output quad are its 2x2 texel block in the texture layout (the
// thesis draws a quad half the side each pass), and 4 consecutive quads in a buffer.
#extension GL_GOOGLE_include_directive : require
#include "quads.glsl"
#define SCALARS_BINDING 3
#include "scalars.glsl"
layout(local_size_x = 256) in;
VEC_IN(0, X);
VEC_IN(1, Y);
VEC_OUT(2, OUT);
#define PUSH_DotThesisPush
#include "linalg_push.h"

uint child(uint q, uint k) {
#if TEXTURE_LAYOUT
  uvec2 p = uvec2(q % out_side, q / out_side) * 2u + uvec2(k & 1u, k >> 1u);
  return p.y * in_side + p.x;
#else
  return 4u * q + k;
#endif
}

void main() {
  if (mode >= 2u) {
    if (gl_GlobalInvocationID.x != 0u) return;
    vec4 x = LOADQS(X, 0u, in_side);
    float s = mode == 2u ? dot(x, LOADQS(Y, 0u, in_side)) : dot(x, vec4(1.0));
    s = root != 0u ? sqrt(s) : s;
    S[slot] = s;
    if (hist != NO_SLOT) S[HISTORY_BASE + hist] = s;
    return;
  }
  FOR_EACH_QUAD(q, out_count) {
    vec4 r = vec4(0.0);
    for (uint k = 0u; k < 4u; ++k) {
      uint c = child(q, k);
      if (c >= in_count) continue;
      vec4 x = LOADQS(X, c, in_side);
      r[k] = mode == 0u ? dot(x, LOADQS(Y, c, in_side)) : dot(x, vec4(1.0));
    }
    STOREQS(OUT, q, out_side, r);
  }
}
