#version 460
// exercise: floatlab/probes
// The probes of the adder and the multiplier (Da Graça 2006, §3.2, the Paranoia-style tests
// of chapter 3): one operation over arrays, each element a float's 32 bits, so that what the
// hardware does travels untouched. The operations (push constant op):
//   0: a + b (TEST 3)   1: a - b (TEST 5)   2: a·b (TEST 7, 8)
//   3: (a - b) - c, two adders, the first result rounded before the second (TEST 6)
//   5: a·b + c, the product rounded before the sum (TEST 4, a multiply-add not fused)
// The checker binds A, B, C and OUT as declared here, pushes n, op, one = 1.0 and zero = 0.0,
// and runs one invocation an element in workgroups of 64.
// `precise` (SPIR-V NoContraction) keeps the compiler from fusing a product into a sum and from
// reassociating: the operation the probe asks for is then the one the hardware runs.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A_block { uint A[]; };
layout(std430, binding = 1) readonly buffer B_block { uint B[]; };
layout(std430, binding = 2) readonly buffer C_block { uint C[]; };
layout(std430, binding = 3) writeonly buffer Out_block { uint OUT[]; };
layout(push_constant) uniform Push {
  uint n, op;
  float one, zero;  // 1 and 0 the compiler cannot see (unused here)
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
    r = a - (b + c);  // the same number as (a - b) - c, on paper
  } else {
    r = a;  // TODO op 5: a·b + c with the product rounded first
  }
  OUT[i] = floatBitsToUint(r);
}
