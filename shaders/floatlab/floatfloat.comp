#version 460
// Float-float operators over arrays: out[i] = op(a[i], b[i]) (seed 002, ch. 4).
#extension GL_GOOGLE_include_directive : require
#include "toward_zero.glsl"
#include "floatfloat.glsl"
#include "add22_priest.glsl"
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer A_block { vec2 A[]; };
layout(std430, binding = 1) readonly buffer B_block { vec2 B[]; };
layout(std430, binding = 2) writeonly buffer Out_block { vec2 OUT[]; };
#define PUSH_FloatOpPush
#include "floatlab_push.h"

vec2 apply(vec2 a, vec2 b) {
  switch (op) {
    case 0u: return add12(a.x, b.x);
    case 1u: return mul12(a.x, b.x);
    case 2u: return mul12_fma(a.x, b.x);
    case 3u: return add22(a, b);  // ours, improved (floatfloat.glsl)
    case 4u: return mul22(a, b);
    case 5u: return div22(a, b);
    case 6u: return sqrt22(a);
    case 7u: return add12_priest(a.x, b.x);
    case 8u: { precise float s = a.x + b.x; return vec2(s, 0.0); }  // the seed's baselines (annex B)
    case 9u: { precise float p = a.x * b.x; return vec2(p, 0.0); }
    case 11u: return add22_priest(a, b);  // the report's, as printed
    default: return vec2(a.x * b.x + b.y, 0.0);  // MAD
  }
}

void main() {
  declare_rounding();
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) OUT[i] = apply(A[i], B[i]);
}
