// Built with -DTOWARD_ZERO=1 (shaders/CMakeLists.txt: name.rtz.comp.spv): the kernel asks for
// SPIR-V's RoundingModeRTZ on 32-bit floats (execution mode 4463, capability 4468: float
// controls, core in Vulkan 1.2), the rounding of the 2006 GPUs that Da Graça measured
// (compute/floatlab/chopped.h). Only for devices with shaderRoundingModeRTZFloat32. Included
// before any declaration; main() calls declare_rounding().
#if TOWARD_ZERO
#extension GL_EXT_spirv_intrinsics : require
spirv_execution_mode(4463, 32);
spirv_instruction(capabilities = [4468], id = 0) void declare_rounding();
#else
void declare_rounding() {}
#endif
