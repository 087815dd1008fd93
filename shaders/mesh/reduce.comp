#version 460
// GmlReduceVector: min, max, sum and sum of squares of one component of a vec4 field, in
// two passes (pass 0: a partial per workgroup; pass 1: one workgroup adds them into
// parts[groups]).
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Field { vec4 F[]; };
struct Part { float lo, hi, sum, sq; };
layout(std430, binding = 1) buffer Parts { Part parts[]; };
layout(push_constant) uniform Push { uint count, component, pass_index, groups; };

shared Part partial[256];

Part combine(Part a, Part b) { return Part(min(a.lo, b.lo), max(a.hi, b.hi), a.sum + b.sum, a.sq + b.sq); }

void main() {
  const float inf = uintBitsToFloat(0x7f800000u);
  Part acc = Part(inf, -inf, 0.0, 0.0);
  uint t = gl_LocalInvocationID.x;
  if (pass_index == 0u) {
    for (uint i = gl_GlobalInvocationID.x; i < count; i += gl_NumWorkGroups.x * gl_WorkGroupSize.x) {
      float v = F[i][component];
      acc = combine(acc, Part(v, v, v, v * v));
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
