#version 460
#extension GL_EXT_spirv_intrinsics : require
// The float controls (SPV_KHR_float_controls, Vulkan 1.2 core) asked for in SPIR-V, one build a
// mode (shaders/CMakeLists.txt: MODE is none, rte, rtz, dpreserve, dflush or szinfnan), then
// what the hardware does (compute/floatlab/controls.cpp). Nine results an element:
// a + b, a * b (precise: the adder and the multiplier as rounded); a * 0.0, a + 0.0, a - a
// (literal constants a driver may fold unless signed zeros, infinities and NaNs are kept);
// a * 0.5 (a denormal from a normal), b + zero (a denormal operand); a * b - c without `precise`
// (a driver may contract it into an fma), and with it.
#if MODE_RTE
spirv_execution_mode(4462, 32);
spirv_instruction(capabilities = [4467], id = 0) void declare_mode();
#elif MODE_RTZ
spirv_execution_mode(4463, 32);
spirv_instruction(capabilities = [4468], id = 0) void declare_mode();
#elif MODE_DPRESERVE
spirv_execution_mode(4459, 32);
spirv_instruction(capabilities = [4464], id = 0) void declare_mode();
#elif MODE_DFLUSH
spirv_execution_mode(4460, 32);
spirv_instruction(capabilities = [4465], id = 0) void declare_mode();
#elif MODE_SZINFNAN
spirv_execution_mode(4461, 32);
spirv_instruction(capabilities = [4466], id = 0) void declare_mode();
#else
void declare_mode() {}
#endif
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A_block { uint A[]; };
layout(std430, binding = 1) readonly buffer B_block { uint B[]; };
layout(std430, binding = 2) readonly buffer C_block { uint C[]; };
layout(std430, binding = 3) writeonly buffer Out_block { uint OUT[]; };
#define PUSH_FloatProbePush
#include "floatlab_push.h"

void main() {
  declare_mode();
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  float a = uintBitsToFloat(A[i]), b = uintBitsToFloat(B[i]), c = uintBitsToFloat(C[i]);
  precise float s = a + b;
  precise float p = a * b;
  float z = a * 0.0;
  float y = a + 0.0;
  float d = a - a;
  precise float h = a * 0.5;
  precise float m = b + zero;
  float f = a * b - c;
  precise float q = a * b;
  precise float g = q - c;
  float r[9] = float[9](s, p, z, y, d, h, m, f, g);
  for (uint k = 0u; k < 9u; ++k) OUT[9u * i + k] = floatBitsToUint(r[k]);
}
