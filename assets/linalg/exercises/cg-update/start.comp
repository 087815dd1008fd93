#version 460
// exercise: linalg/cg-update
// One conjugate gradient iteration's update (Bleton 2005, §3.4.2, lines 9-13 of the thesis's
// CG, fused into one kernel): alpha = rho / dad, x = x + alpha·d, r = r - alpha·q, where
// rho = r·r and dad = d·q were computed on the GPU by earlier passes and stay there, in S.
// The checker binds the arrays as declared here, pushes n, and runs one invocation an element
// in workgroups of 64.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer X_block { float X[]; };  // the solution so far
layout(std430, binding = 1) buffer R_block { float R[]; };  // its residual b - A·x
layout(std430, binding = 2) readonly buffer D_block { float D[]; };  // the search direction
layout(std430, binding = 3) readonly buffer Q_block { float Q[]; };  // A·d
layout(std430, binding = 4) readonly buffer S_block { float S[]; };  // S[0] = rho, S[1] = dad
layout(push_constant) uniform Push {
  uint n;  // elements
};

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  float alpha = S[0] / S[1];
  X[i] = X[i] + alpha * D[i];
  R[i] = R[i] + alpha * Q[i];
}
