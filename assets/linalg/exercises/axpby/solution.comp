#version 460
// exercise: linalg/axpby
// The solution, for teachers (and the tests): the last workgroup's invocations past n do nothing.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer X_block { float X[]; };
layout(std430, binding = 1) readonly buffer Y_block { float Y[]; };
layout(std430, binding = 2) writeonly buffer Out_block { float OUT[]; };
layout(push_constant) uniform Push {
  uint n;  // elements
  float a, b;
};

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  OUT[i] = a * X[i] + b * Y[i];
}
