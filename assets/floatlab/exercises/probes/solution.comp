#version 460
// exercise: floatlab/probes
// The solution, for teachers (and the tests): (a - b) - c in that order, each step rounded.
// a - (b + c) rounds b + c instead: on TEST 6's operands (a = c = 1.5, b = 2^-i) both orders
// happen to give the same bits, but where a - b nearly cancels c they differ in most bits. And
// a·b + c with `precise` on the product, so that it is rounded before the sum.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A_block { uint A[]; };
layout(std430, binding = 1) readonly buffer B_block { uint B[]; };
layout(std430, binding = 2) readonly buffer C_block { uint C[]; };
layout(std430, binding = 3) writeonly buffer Out_block { uint OUT[]; };
layout(push_constant) uniform Push {
  uint n, op;
  float one, zero;
};

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  float a = uintBitsToFloat(A[i]), b = uintBitsToFloat(B[i]), c = uintBitsToFloat(C[i]);
  precise float r;
  if (op == 0u) {
    r = a + b;
  } else if (op == 1u) {
    r = a - b;
  } else if (op == 2u) {
    r = a * b;
  } else if (op == 3u) {
    precise float first = a - b;  // the first adder's result, rounded
    r = first - c;
  } else {
    precise float product = a * b;  // rounded: not fused into the sum
    r = product + c;
  }
  OUT[i] = floatBitsToUint(r);
}
