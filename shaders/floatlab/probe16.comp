#version 460
#extension GL_GOOGLE_include_directive : require
// The probes of probe.comp in half precision (float16_t arithmetic), for devices with
// shaderFloat16. Each value travels as the low 16 bits of a uint; unpackHalf2x16 and
// packHalf2x16 convert exactly here (every value is a half already).
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer A_block { uint A[]; };
layout(std430, binding = 1) readonly buffer B_block { uint B[]; };
layout(std430, binding = 2) readonly buffer C_block { uint C[]; };
layout(std430, binding = 3) writeonly buffer Out_block { uint OUT[]; };
#define PUSH_FloatProbePush
#include "floatlab_push.h"

float16_t half_of(uint bits) { return float16_t(unpackHalf2x16(bits).x); }

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) {
    float16_t a = half_of(A[i]), b = half_of(B[i]), c = half_of(C[i]);
    float16_t r;
#define EXACTLY(expr) { precise float16_t t = (expr); r = t; }
    switch (op) {  // the same numbering as the float probes (Op in probes.h)
      case 0u: EXACTLY(a + b) break;
      case 1u: EXACTLY(a - b) break;
      case 2u: EXACTLY(a * b) break;
      case 3u: EXACTLY((a - b) - c) break;
      case 9u: EXACTLY((-a) * (-b)) break;
      case 10u: EXACTLY(-(a * (-b))) break;
      case 11u: EXACTLY((-a) * b) break;
      case 12u: EXACTLY(a * (-b)) break;
      case 13u: EXACTLY((a + a) - a) break;
      default: r = a; break;
    }
    OUT[i] = packHalf2x16(vec2(float(r), 0.0));
  }
}
