#version 460
// exercise: linalg/axpby
// axpby: OUT = a·X + b·Y, element by element (Bleton 2005, §3.3.1, gpuVecAdd).
// The checker binds X, Y and OUT as declared here, pushes n, a and b, and runs one invocation
// an element in workgroups of 64: as many workgroups as cover n.
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
  OUT[i] = a * X[i] + b * Y[i];  // right for some n, wrong for others: which, and why?
}
