#version 460
// exercise: linalg/cg-update
// The solution, for teachers (and the tests): the residual goes down by alpha·q (r = b - A·x,
// and x went up by alpha·d, so A·x went up by alpha·A·d = alpha·q), and a zero denominator
// gives alpha = 0, as the lab's coef() does (shaders/common/scalars.glsl): a solve that has
// converged to an exact zero residual has rho = dad = 0, and 0/0 would turn x into NaN.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer X_block { float X[]; };
layout(std430, binding = 1) buffer R_block { float R[]; };
layout(std430, binding = 2) readonly buffer D_block { float D[]; };
layout(std430, binding = 3) readonly buffer Q_block { float Q[]; };
layout(std430, binding = 4) readonly buffer S_block { float S[]; };  // S[0] = rho, S[1] = dad
layout(push_constant) uniform Push {
  uint n;  // elements
};

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  float alpha = S[1] == 0.0 ? 0.0 : S[0] / S[1];
  X[i] = X[i] + alpha * D[i];
  R[i] = R[i] - alpha * Q[i];
}
