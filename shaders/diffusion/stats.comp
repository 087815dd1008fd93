#version 460
#extension GL_GOOGLE_include_directive : require
// Field statistics in two passes: pass 0, kStatsGroups workgroups each reduce a strided
// share of the cells to one partial; pass 1, one workgroup reduces the partials into
// parts[groups]. NaN and inf cells are counted, not summed.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Field { float field[]; };
struct Part { float sum; float lo; float hi; uint bad; };
layout(std430, binding = 1) buffer Parts { Part parts[]; };
#define PUSH_DiffusionStatsPush
#include "diffusion_push.h"

shared Part partial[256];

Part combine(Part a, Part b) { return Part(a.sum + b.sum, min(a.lo, b.lo), max(a.hi, b.hi), a.bad + b.bad); }

void main() {
  const float inf = uintBitsToFloat(0x7f800000u);
  Part acc = Part(0.0, inf, -inf, 0u);
  uint t = gl_LocalInvocationID.x;
  if (pass_index == 0u) {
    uint n = uint(size.x) * uint(size.y);
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) {
      float v = field[i];
      if (isnan(v) || isinf(v)) acc.bad++;
      else acc = combine(acc, Part(v, v, v, 0u));
    }
  } else {
    for (uint i = t; i < groups; i += gl_WorkGroupSize.x) acc = combine(acc, parts[i]);
  }
  partial[t] = acc;
  barrier();
  for (uint offset = gl_WorkGroupSize.x / 2u; offset > 0u; offset >>= 1u) {
    if (t < offset) partial[t] = combine(partial[t], partial[t + offset]);
    barrier();
  }
  if (t == 0u) parts[pass_index == 0u ? gl_WorkGroupID.x : groups] = partial[0];
}
