// A register machine for floating-point questions (compute/floatlab/machine.h): program p
// holds 16 registers (float bit patterns) and up to 24 instructions, one a uint:
// op | dst << 6 | a << 10 | b << 14 | c << 18. Every operation but MAD is `precise` (SPIR-V
// NoContraction), so the hardware's own adder, multiplier, divider and square root answer;
// MAD leaves the compiler free to fuse a * b + c. The same machine runs in the compute, vertex
// and fragment stages (vm.comp, vm.vert, vm.frag), so a question asked of each stage is the
// same code. Ops: 1 + 2 - 3 * 4 / 5 sqrt 6 fma 7 MAD 8 negate 9 pow. Out: the 16 registers
// after the program.
layout(std430, binding = 0) readonly buffer Programs { uint P[]; };
layout(std430, binding = 1) writeonly buffer Results { uint R[]; };
#define PUSH_FloatVmPush
#include "floatlab_push.h"

const uint kProgramWords = 40u;

void run_program(uint p) {
  float r[16];
  uint base = p * kProgramWords;
  for (uint i = 0u; i < 16u; ++i) r[i] = uintBitsToFloat(P[base + i]);
  for (uint k = 0u; k < 24u; ++k) {
    uint w = P[base + 16u + k], op = w & 63u;
    if (op == 0u) break;
    float x = r[(w >> 10) & 15u], y = r[(w >> 14) & 15u], z = r[(w >> 18) & 15u];
    float v;
    switch (op) {
      case 1u: { precise float t = x + y; v = t; } break;
      case 2u: { precise float t = x - y; v = t; } break;
      case 3u: { precise float t = x * y; v = t; } break;
      case 4u: { precise float t = x / y; v = t; } break;
      case 5u: { precise float t = sqrt(x); v = t; } break;
      case 6u: { precise float t = fma(x, y, z); v = t; } break;
      case 7u: v = x * y + z; break;  // the compiler may fuse this one
      case 8u: v = -x; break;
      case 9u: { precise float t = pow(x, y); v = t; } break;  // the built-in (Paranoia's POW)
      default: v = x; break;
    }
    r[(w >> 6) & 15u] = v;
  }
  for (uint i = 0u; i < 16u; ++i) R[p * 16u + i] = floatBitsToUint(r[i]);
}
