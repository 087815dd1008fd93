#version 460
// exercise: linalg/dot
// The dot product x·y in one dispatch (Bleton 2005, §3.3.2, gpuVecScal, which the thesis ran
// as 4:1 reduction passes): each workgroup adds its products by a tree in shared memory and
// writes its partial sum; the last workgroup to finish adds the partial sums into RESULT.
// The checker binds the arrays as declared here (PARTIAL: one float a workgroup; DONE and
// RESULT: 0 at the start), pushes n, and runs one invocation an element.
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

void main() {
  uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationID.x;
  sums[l] = i < n ? X[i] * Y[i] : 0.0;
  barrier();
  // The tree: each round adds the upper span of the sums still to add onto the lower span.
  for (uint span = gl_WorkGroupSize.x / 2u; span > 0u; span >>= 1u) {
    if (l < span) sums[l] += sums[l + span];
  }
  if (l == 0u) PARTIAL[gl_WorkGroupID.x] = sums[0];
  // TODO: the last workgroup to finish adds the gl_NumWorkGroups.x partial sums into RESULT.
}
