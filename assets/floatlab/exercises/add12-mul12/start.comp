#version 460
// exercise: floatlab/add12-mul12
// Add12 and Mul12, exact (Da Graça 2006, ch. 4): the error-free transformations under the
// float-float operators. Add12(a, b) = (s, e) with s = fl(a + b) and s + e = a + b exactly;
// Mul12(a, b) = (p, e) with p = fl(a·b) and p + e = a·b exactly, without a fused multiply-add.
// The checker binds A, B and OUT as declared here (vec2: a float-float; only .x is read),
// pushes n and the operator, and runs one invocation an element.
// `precise` (SPIR-V NoContraction) keeps the compiler from fusing or reassociating: without it,
// (s - a) - b may be simplified to 0.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A_block { vec2 A[]; };
layout(std430, binding = 1) readonly buffer B_block { vec2 B[]; };
layout(std430, binding = 2) writeonly buffer Out_block { vec2 OUT[]; };
layout(push_constant) uniform Push {
  uint n;
  uint op;  // 0: Add12, 1: Mul12
};

vec2 add12(float a, float b) {
  precise float s = a + b;
  precise float e = b - (s - a);  // exact for some a and b, not for all
  return vec2(s, e);
}

vec2 mul12(float a, float b) {
  precise float p = a * b;
  return vec2(p, 0.0);  // TODO: the product's error, exactly
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  OUT[i] = op == 0u ? add12(A[i].x, B[i].x) : mul12(A[i].x, B[i].x);
}
