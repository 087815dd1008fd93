#version 460
// exercise: linalg/dot
// The solution, for teachers (and the tests): a barrier between the tree's rounds; the count of
// finished workgroups taken after the partial sum is visible, so the workgroup that counts last
// sees every partial sum, and adds them by a tree of its own.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer X_block { float X[]; };
layout(std430, binding = 1) readonly buffer Y_block { float Y[]; };
layout(std430, binding = 2) coherent buffer Partial_block { float PARTIAL[]; };
layout(std430, binding = 3) coherent buffer Done_block { uint DONE; };  // workgroups that have written their sum
layout(std430, binding = 4) buffer Result_block { float RESULT; };
layout(push_constant) uniform Push {
  uint n;  // elements
};

shared float sums[gl_WorkGroupSize.x];
shared bool last;

// Adds sums[0 .. size) into sums[0], the whole workgroup taking part.
void tree(uint l) {
  for (uint span = gl_WorkGroupSize.x / 2u; span > 0u; span >>= 1u) {
    if (l < span) sums[l] += sums[l + span];
    barrier();
  }
}

void main() {
  uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationID.x;
  sums[l] = i < n ? X[i] * Y[i] : 0.0;
  barrier();
  tree(l);
  if (l == 0u) {
    PARTIAL[gl_WorkGroupID.x] = sums[0];
    memoryBarrierBuffer();  // the partial sum before the count that says it is there
    last = atomicAdd(DONE, 1u) == gl_NumWorkGroups.x - 1u;
  }
  barrier();
  if (!last) return;  // the same for the whole workgroup
  memoryBarrierBuffer();
  float s = 0.0;
  for (uint g = l; g < gl_NumWorkGroups.x; g += gl_WorkGroupSize.x) s += PARTIAL[g];
  sums[l] = s;
  barrier();
  tree(l);
  if (l == 0u) RESULT = sums[0];
}
