#version 460
// exercise: linalg/banded
// The banded matrix-vector product OUT = M·V (Bleton 2005, §3.3.4, gpuMatOp on a band): M is
// stored by its diagonals, diagonal d holding M[i][(i + OFFSETS[d]) mod n] at DIAGS[d·n + i];
// an offset may be negative, and a row near either end wraps around (the thesis's index
// formula 3.2). The checker binds the arrays as declared here, pushes n and the number of
// diagonals, and runs one invocation a row in workgroups of 64.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Diags_block { float DIAGS[]; };
layout(std430, binding = 1) readonly buffer Offsets_block { int OFFSETS[]; };
layout(std430, binding = 2) readonly buffer V_block { float V[]; };
layout(std430, binding = 3) writeonly buffer Out_block { float OUT[]; };
layout(push_constant) uniform Push {
  uint n;      // rows (and the vector's elements)
  uint count;  // diagonals
};

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  float sum = 0.0;
  for (uint d = 0u; d < count; ++d) {
    uint j = (i + uint(OFFSETS[d])) % n;  // the column: right in most rows, not in all
    sum += DIAGS[d * n + i] * V[j];
  }
  OUT[i] = sum;
}
