#version 460
// The max (or min) of a vector as Bleton 2005 shows it after Krüger and Westermann 2003
// (§2.4.2, figure 2.10), one pass of several: every output value is the max of the 4 values
// of one input texel, and an output texel takes the 2x2 texel block under it (a quad half the
// side, 4 times smaller), so each pass reads 4 values for every one it writes:
//  reduce passes: out quad component k = max of the 4 components of in[child k]
//  last pass:     S[slot] = max of the 4 components of the one quad left (the thesis read that
//                 pixel back for the CPU; here it stays on the GPU).
// Padding (elements from n on in the first pass, children past in_count) counts as the
// identity (-inf for max, +inf for min) or, with zero_pad, as the thesis's zeros.
// The 4 children are the 2x2 texel block in the texture layout, 4 consecutive quads in a buffer.
#extension GL_GOOGLE_include_directive : require
#include "quads.glsl"
#define SCALARS_BINDING 2
#include "scalars.glsl"
layout(local_size_x = 256) in;
VEC_IN(0, X);
VEC_OUT(1, OUT);
#define PUSH_ExtremeThesisPush
#include "linalg_push.h"

float pad_value() {
  if (zero_pad != 0u) return 0.0;
  return is_min != 0u ? uintBitsToFloat(0x7f800000u) : uintBitsToFloat(0xff800000u);  // +inf : -inf
}

float pick(float a, float b) { return is_min != 0u ? min(a, b) : max(a, b); }

// The max (min) of input quad c's 4 values; in the first pass elements from n on are padding.
float quad_extreme(uint c) {
  if (c >= in_count) return pad_value();
  vec4 v = LOADQS(X, c, in_side);
  if (first != 0u)
    for (uint k = 0u; k < 4u; ++k)
      if (4u * c + k >= n) v[k] = pad_value();
  return pick(pick(v.x, v.y), pick(v.z, v.w));
}

uint child(uint q, uint k) {
#if TEXTURE_LAYOUT
  uvec2 p = uvec2(q % out_side, q / out_side) * 2u + uvec2(k & 1u, k >> 1u);
  return p.y * in_side + p.x;
#else
  return 4u * q + k;
#endif
}

void main() {
  if (last != 0u) {
    if (gl_GlobalInvocationID.x == 0u) S[slot] = quad_extreme(0u);
    return;
  }
  FOR_EACH_QUAD(q, out_count) {
    vec4 r;
    for (uint k = 0u; k < 4u; ++k) r[k] = quad_extreme(child(q, k));
    STOREQS(OUT, q, out_side, r);
  }
}
