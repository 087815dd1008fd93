#version 460
// exercise: linalg/banded
// The solution, for teachers (and the tests): the column wraps in signed arithmetic (GLSL's %
// is undefined for a negative operand, so the wrap is an add or a subtract of n). The
// starting kernel's uint(i + offset) is i + offset + 2^32 where i + offset < 0, and 2^32 mod n
// is 0 only when n is a power of two: the first rows of a band with negative offsets read the
// wrong columns for any other n.
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
    int j = int(i) + OFFSETS[d];  // in (-n, 2n): a band's offsets are smaller than n
    if (j < 0) j += int(n);
    if (j >= int(n)) j -= int(n);
    sum += DIAGS[d * n + i] * V[j];
  }
  OUT[i] = sum;
}
