// What the driver promises about floating point (VK_KHR_shader_float_controls, core in Vulkan
// 1.2) read from the device, then tested: a kernel built with each SPIR-V execution mode the
// device offers (shaders/floatlab/controls.modes.comp), and whether `precise` (NoContraction)
// is kept, on a plain a * b - c and on a float-float operator built with and without it.
#pragma once
#include "compute/floatlab/probes.h"

#include <string>
#include <vector>

namespace floatlab {

struct Promise {
  std::string mode;      // "RoundingModeRTZ 32", ...
  std::string promise;   // what it asks for, in words
  bool offered = false;  // the device's property says the mode can be asked for
  bool kept = false;     // the kernel built with it did what it asks (when offered)
  std::string found;     // what the kernel did, and what the build without the mode did
};

struct ContractionTest {
  uint64_t count = 0;
  uint64_t fused_without_precise = 0;  // a * b - c != 0 with c = a * b rounded: contracted into an fma
  uint64_t fused_with_precise = 0;     // the same with `precise`: must be 0
  // Mul22 (seed 002, ch. 4) built with and without `precise`: results differing, worst bits each.
  uint64_t mul22_count = 0, mul22_differing = 0;
  double mul22_bits_precise = 0, mul22_bits_loose = 0;
  bool kept() const { return fused_with_precise == 0; }
};

std::vector<Promise> test_float_controls(gpu::Context& ctx, uint32_t count = 4096, uint32_t seed = 1);
ContractionTest test_contraction(gpu::Context& ctx, uint32_t count = 1u << 16, uint32_t seed = 1);

}  // namespace floatlab
