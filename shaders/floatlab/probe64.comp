#version 460
#extension GL_GOOGLE_include_directive : require
// The probes of probe.comp in double precision, for devices with shaderFloat64.
// Values travel as bit patterns (two 32-bit words each).
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer A_block { uvec2 A[]; };
layout(std430, binding = 1) readonly buffer B_block { uvec2 B[]; };
layout(std430, binding = 2) readonly buffer C_block { uvec2 C[]; };
layout(std430, binding = 3) writeonly buffer Out_block { uvec2 OUT[]; };
#define PUSH_FloatProbePush
#include "floatlab_push.h"

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) {
    double a = packDouble2x32(A[i]), b = packDouble2x32(B[i]), c = packDouble2x32(C[i]);
    double r;
#define EXACTLY(expr) { precise double t = (expr); r = t; }
    switch (op) {  // the same numbering as the float probes (Op in probes.h)
      case 0u: EXACTLY(a + b) break;
      case 1u: EXACTLY(a - b) break;
      case 2u: EXACTLY(a * b) break;
      case 3u: EXACTLY((a - b) - c) break;
      case 5u: EXACTLY(a * b + c) break;
      case 6u: EXACTLY(fma(a, b, c)) break;
      case 9u: EXACTLY((-a) * (-b)) break;
      case 10u: EXACTLY(-(a * (-b))) break;
      case 11u: EXACTLY((-a) * b) break;
      case 12u: EXACTLY(a * (-b)) break;
      case 13u: EXACTLY((a + a) - a) break;
      default: r = a; break;
    }
    OUT[i] = unpackDouble2x32(r);
  }
}
