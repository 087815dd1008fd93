#version 460
#extension GL_GOOGLE_include_directive : require
// Cloth statistics in two passes (pass 0: a partial per workgroup; pass 1: one workgroup
// adds them into parts[groups] and copies the 4 corners for picking):
// structural stretch (|AB| − l)/l over right and down edges (max |.|, sum of |.| and of squares),
// kinetic energy ½·Σ m·|x − x*|²/Δt² with m = 1/N (a 1 kg cloth), the lowest and highest y, the
// smallest distance to the sphere minus its radius, and the count of non-finite particles.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer X_block { vec4 X[]; };
layout(std430, binding = 1) readonly buffer Prev_block { vec4 XP[]; };
struct Part { float max_stretch, sum_sq, kinetic, min_y, min_gap; uint bad; float sum_abs, max_y; };
layout(std430, binding = 2) buffer Parts { vec4 corners[4]; Part parts[]; };
#define PUSH_ClothStatsPush
#include "cloth_push.h"

shared Part partial[256];

Part combine(Part a, Part b) {
  return Part(max(a.max_stretch, b.max_stretch), a.sum_sq + b.sum_sq, a.kinetic + b.kinetic, min(a.min_y, b.min_y),
              min(a.min_gap, b.min_gap), a.bad + b.bad, a.sum_abs + b.sum_abs, max(a.max_y, b.max_y));
}

void main() {
  const float inf = uintBitsToFloat(0x7f800000u);
  Part acc = Part(0.0, 0.0, 0.0, inf, inf, 0u, 0.0, -inf);
  uint t = gl_LocalInvocationID.x;
  uint n = width * height;
  if (pass_index == 0u) {
    for (uint i = gl_GlobalInvocationID.x; i < n; i += gl_NumWorkGroups.x * gl_WorkGroupSize.x) {
      vec3 p = X[i].xyz, v = p - XP[i].xyz;
      bool finite = !any(isnan(p)) && !any(isinf(p));
      if (!finite) {
        acc.bad++;
        continue;
      }
      uint x = i % width, y = i / width;
      float s_right = x + 1u < width ? (length(X[i + 1u].xyz - p) - rest) / rest : 0.0;
      float s_down = y + 1u < height ? (length(X[i + width].xyz - p) - rest) / rest : 0.0;
      float gap = sphere.w > 0.0 ? length(p - sphere.xyz) - sphere.w : inf;
      acc = combine(acc, Part(max(abs(s_right), abs(s_down)), s_right * s_right + s_down * s_down,
                              0.5 * dot(v, v) * inv_dt2 / float(n), p.y, gap, 0u, abs(s_right) + abs(s_down), p.y));
    }
  } else {
    for (uint i = t; i < groups; i += gl_WorkGroupSize.x) acc = combine(acc, parts[i]);
    if (t < 4u) corners[t] = X[(t & 1u) * (width - 1u) + (t >> 1u) * (height - 1u) * width];
  }
  partial[t] = acc;
  barrier();
  for (uint offset = gl_WorkGroupSize.x / 2u; offset > 0u; offset >>= 1u) {
    if (t < offset) partial[t] = combine(partial[t], partial[t + offset]);
    barrier();
  }
  if (t == 0u) parts[pass_index == 0u ? gl_WorkGroupID.x : groups] = partial[0];
}
