// One-pass sum of one float (or two) per invocation across the whole dispatch: subgroup adds,
// then shared memory, then the last workgroup to finish (an atomic counter tells it)
// adds the per-workgroup partials and writes S[slot] (and the history entry).
// Needs: local_size_x = 256, SCALARS bound, and the buffers below.
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_basic : require

layout(std430, binding = REDUCE_BINDING) coherent buffer Reduce_block {
  uint finished;     // workgroups done; the last one resets it to 0
  uint pad[3];
  float partial[];   // one per workgroup
} red;

shared float red_subgroup[64];
shared bool red_is_last;

// Sum over the workgroup; valid in invocation 0.
float workgroup_sum(float v) {
  v = subgroupAdd(v);
  if (subgroupElect()) red_subgroup[gl_SubgroupID] = v;
  barrier();
  float total = 0.0;
  if (gl_LocalInvocationIndex == 0u)
    for (uint i = 0u; i < gl_NumSubgroups; ++i) total += red_subgroup[i];
  barrier();
  return total;
}

// mode 0: S[slot] = sum; mode 1: S[slot] = sqrt(sum). hist != NO_SLOT: also S[HISTORY_BASE + hist].
// Returns true in the one invocation that wrote S[slot] (it may go on using it).
bool reduce_to_scalar(float v, uint slot, uint mode, uint hist) {
  float group = workgroup_sum(v);
  if (gl_LocalInvocationIndex == 0u) {
    red.partial[gl_WorkGroupID.x] = group;
    memoryBarrierBuffer();
    red_is_last = atomicAdd(red.finished, 1u) == gl_NumWorkGroups.x - 1u;
  }
  barrier();
  if (!red_is_last) return false;
  memoryBarrierBuffer();
  float s = 0.0;
  for (uint i = gl_LocalInvocationIndex; i < gl_NumWorkGroups.x; i += gl_WorkGroupSize.x) s += red.partial[i];
  float total = workgroup_sum(s);
  if (gl_LocalInvocationIndex == 0u) {
    float value = mode == 1u ? sqrt(total) : total;
    S[slot] = value;
    if (hist != NO_SLOT) S[HISTORY_BASE + hist] = value;
    red.finished = 0u;
    return true;
  }
  return false;
}

// Two sums at once (one counter, two partials a workgroup): S[slot_a] = sum of v.x and
// S[slot_b] = sum of v.y; hist != NO_SLOT: S[HISTORY_BASE + hist] = sum of v.x.
bool reduce2_to_scalars(vec2 v, uint slot_a, uint slot_b, uint hist) {
  vec2 group = vec2(workgroup_sum(v.x), workgroup_sum(v.y));
  if (gl_LocalInvocationIndex == 0u) {
    red.partial[2u * gl_WorkGroupID.x] = group.x;
    red.partial[2u * gl_WorkGroupID.x + 1u] = group.y;
    memoryBarrierBuffer();
    red_is_last = atomicAdd(red.finished, 1u) == gl_NumWorkGroups.x - 1u;
  }
  barrier();
  if (!red_is_last) return false;
  memoryBarrierBuffer();
  vec2 s = vec2(0.0);
  for (uint i = gl_LocalInvocationIndex; i < gl_NumWorkGroups.x; i += gl_WorkGroupSize.x)
    s += vec2(red.partial[2u * i], red.partial[2u * i + 1u]);
  vec2 total = vec2(workgroup_sum(s.x), workgroup_sum(s.y));
  if (gl_LocalInvocationIndex == 0u) {
    S[slot_a] = total.x;
    S[slot_b] = total.y;
    if (hist != NO_SLOT) S[HISTORY_BASE + hist] = total.x;
    red.finished = 0u;
    return true;
  }
  return false;
}
