#version 460
// A step of a split mesh's smoothing (compute/mesh/split.h): each owned vertex's value becomes
// (its value + its neighbours') times 1 / (1 + degree), the neighbours read in local numbers
// (owned first, then the halo the host filled from the other parts). `precise`: summed in the
// graph's order, no fused multiply-add, as the CPU twin does.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Start { uint start[]; };
layout(std430, binding = 1) readonly buffer Next { uint next[]; };
layout(std430, binding = 2) readonly buffer Weight { float weight[]; };
layout(std430, binding = 3) readonly buffer In { float u[]; };
layout(std430, binding = 4) writeonly buffer Out { float v[]; };
#define PUSH_HaloPush
#include "halo_push.h"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= count) return;
  precise float s = u[i];
  for (uint k = start[i]; k < start[i + 1]; ++k) s += u[next[k]];
  precise float r = s * weight[i];
  v[i] = r;
}
