#version 460
// Double precision stock: 64-bit keys -> the 32-bit keys the picture reads (heights
// rounded to float; the order-preserving maps make this a key of the rounded value).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "keys.glsl"
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Heights { uint64_t H[]; };
layout(std430, binding = 1) writeonly buffer Keys { uint K[]; };
#define PUSH_NarrowPush
#include "machining_push.h"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  uint64_t k = H[i];
  uint64_t b = (k & 0x8000000000000000ul) != 0ul ? k & 0x7ffffffffffffffful : ~k;
  K[i] = height_key(float(uint64BitsToDouble(b)));
}
