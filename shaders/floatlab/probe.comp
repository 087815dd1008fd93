#version 460
#extension GL_GOOGLE_include_directive : require
#include "toward_zero.glsl"
// One floating-point operation over arrays of bit patterns (so NaNs and denormals travel
// untouched), for the probes of seed 002 ch. 3. `precise` forbids the compiler to fuse
// or reassociate (SPIR-V NoContraction), so each operation is the one the probe asks the
// hardware for; op 4 alone leaves the compiler free to fuse.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer A_block { uint A[]; };
layout(std430, binding = 1) readonly buffer B_block { uint B[]; };
layout(std430, binding = 2) readonly buffer C_block { uint C[]; };
layout(std430, binding = 3) writeonly buffer Out_block { uint OUT[]; };
#define PUSH_FloatProbePush
#include "floatlab_push.h"

void main() {
  declare_rounding();
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) {
    float a = uintBitsToFloat(A[i]), b = uintBitsToFloat(B[i]), c = uintBitsToFloat(C[i]);
    float r;
#define EXACTLY(expr) { precise float t = (expr); r = t; }
    switch (op) {
      case 0u: EXACTLY(a + b) break;
      case 1u: EXACTLY(a - b) break;
      case 2u: EXACTLY(a * b) break;
      case 3u: EXACTLY((a - b) - c) break;     // two cascaded adders (TEST 6)
      case 4u: r = a * b + c; break;           // the compiler may fuse this one
      case 5u: EXACTLY(a * b + c) break;       // NoContraction: the product is rounded first
      case 6u: EXACTLY(fma(a, b, c)) break;    // explicit fused multiply-add
      case 7u: EXACTLY(a * one) break;         // arithmetic no-ops whose operand the compiler
      case 8u: EXACTLY(a + zero) break;        //   cannot see (push constants)
      case 9u: EXACTLY((-a) * (-b)) break;     // sign symmetry (TEST 9)
      case 10u: EXACTLY(-(a * (-b))) break;
      case 11u: EXACTLY((-a) * b) break;
      case 12u: EXACTLY(a * (-b)) break;
      case 13u: EXACTLY((a + a) - a) break;    // extended exponent range? (TEST 2)
      case 15u: EXACTLY(a / b) break;          // beyond the seed: division and the built-ins
      case 16u: r = sqrt(a); break;
      case 17u: r = inversesqrt(a); break;
      case 18u: r = exp(a); break;
      case 19u: r = log(a); break;
      case 20u: r = exp2(a); break;
      case 21u: r = log2(a); break;
      case 22u: r = sin(a); break;
      case 23u: r = cos(a); break;
      case 24u: EXACTLY(1.0 / a) break;        // table 3.1's 1/x
      case 25u: r = pow(a, b); break;
      default: r = a; break;                   // a move through a register (TEST 1)
    }
    OUT[i] = floatBitsToUint(r);
  }
}
