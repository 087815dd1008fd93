#version 460
// Today's max (or min) of a vector: one dispatch. Each invocation walks its quads, then
// subgroupMax, shared memory and the last workgroup to finish combine the partials (the
// dot product's machinery, common/reduce.glsl, with max in place of +): S[slot] on the GPU.
// The min is -max(-x) (negation is exact), so one max serves both.
// Every invocation starts from the identity, -inf; with zero_pad from 0, the thesis's zero
// padding in its one-pass guise, which spoils the max of negative values.
#extension GL_GOOGLE_include_directive : require
#include "quads.glsl"
#define SCALARS_BINDING 1
#include "scalars.glsl"
#define REDUCE_BINDING 2
layout(local_size_x = 256) in;
VEC_IN(0, X);
#include "reduce.glsl"
#define PUSH_ExtremeOnePush
#include "linalg_push.h"

#define EXTREME_MINUS_INF uintBitsToFloat(0xff800000u)

// Over the workgroup; valid in invocation 0 (red_subgroup: reduce.glsl's shared array).
float workgroup_max(float v) {
  v = subgroupMax(v);
  if (subgroupElect()) red_subgroup[gl_SubgroupID] = v;
  barrier();
  float r = EXTREME_MINUS_INF;
  if (gl_LocalInvocationIndex == 0u)
    for (uint i = 0u; i < gl_NumSubgroups; ++i) r = max(r, red_subgroup[i]);
  barrier();
  return r;
}

void main() {
  const float sgn = is_min != 0u ? -1.0 : 1.0;
  float acc = zero_pad != 0u ? 0.0 : EXTREME_MINUS_INF;
  const uint full = n / 4u;  // quads without padding
  FOR_EACH_QUAD(q, quads) {
    vec4 v = sgn * LOADQ(X, q);
    if (q >= full)
      for (uint k = 0u; k < 4u; ++k)
        if (4u * q + k >= n) v[k] = EXTREME_MINUS_INF;
    acc = max(acc, max(max(v.x, v.y), max(v.z, v.w)));
  }
  float group = workgroup_max(acc);
  if (gl_LocalInvocationIndex == 0u) {
    red.partial[gl_WorkGroupID.x] = group;
    memoryBarrierBuffer();
    red_is_last = atomicAdd(red.finished, 1u) == gl_NumWorkGroups.x - 1u;
  }
  barrier();
  if (!red_is_last) return;
  memoryBarrierBuffer();
  float r = EXTREME_MINUS_INF;
  for (uint i = gl_LocalInvocationIndex; i < gl_NumWorkGroups.x; i += gl_WorkGroupSize.x) r = max(r, red.partial[i]);
  float total = workgroup_max(r);
  if (gl_LocalInvocationIndex == 0u) {
    S[slot] = sgn * total;
    red.finished = 0u;
  }
}
