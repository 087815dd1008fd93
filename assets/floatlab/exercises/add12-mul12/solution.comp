#version 460
// exercise: floatlab/add12-mul12
// The solution, for teachers (and the tests): Knuth's TwoSum, exact whatever the order of |a|
// and |b| (the starting kernel's is Dekker's Fast2Sum, exact only for |a| >= |b|), and Dekker's
// Mul12 with Veltkamp's split of each factor into halves of 12 bits (2^12 + 1 = 4097).
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
  precise float bb = s - a;
  precise float e = (a - (s - bb)) + (b - bb);
  return vec2(s, e);
}

vec2 split(float a) {
  precise float c = 4097.0 * a;
  precise float big = c - a;
  precise float hi = c - big;
  precise float lo = a - hi;
  return vec2(hi, lo);
}

vec2 mul12(float a, float b) {
  precise float p = a * b;
  vec2 x = split(a), y = split(b);
  precise float e = (((x.x * y.x - p) + x.x * y.y) + x.y * y.x) + x.y * y.y;
  return vec2(p, e);
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  OUT[i] = op == 0u ? add12(A[i].x, B[i].x) : mul12(A[i].x, B[i].x);
}
