#version 460
// Abecassis 2012, SIMSURF §14.3.2 on the GPU: y = c·y + d repeated from y near d, on normal or
// on subnormal values (d picks which), the loop compute/floatlab/denormals.cpp times on the CPU.
layout(local_size_x = 256) in;
layout(std430, binding = 0) writeonly buffer Out_block { float OUT[]; };
#define PUSH_DenormalLoopPush
#include "floatlab_push.h"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  precise float y = d * (1.0 + float(i & 7u) * 0.125);  // eight starting values, as on the CPU
  for (uint k = 0u; k < iterations; ++k) y = c * y + d;
  OUT[i] = y;
}
