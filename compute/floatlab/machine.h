// A small register machine that asks the GPU floating-point questions (shaders/floatlab/vm.glsl):
// programs of up to 24 operations on 16 float registers, run an invocation a program in the
// compute, vertex or fragment stage, or on the CPU (IEEE-754 binary32, round to nearest even)
// for the reference. Paranoia (paranoia.h) and the stage comparison are written against it.
#pragma once
#include "compute/gpu/pipeline.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace floatlab {

enum class Stage { Compute, Vertex, Fragment, Cpu };
const char* stage_name(Stage s);  // "compute", "vertex", "fragment", "cpu"

// Pow: GLSL's pow on the device (Vulkan's precision: as exp2(y * log2(x)); undefined for x < 0,
// and for x = 0 with y <= 0); on the CPU, (float)pow((double)x, (double)y), as Paranoia's C
// translation computes POW in single precision.
enum class VmOp : uint32_t { Halt, Add, Sub, Mul, Div, Sqrt, Fma, Mad, Neg, Pow };

// A program being written: constants take registers, each operation a new register.
class Program {
 public:
  static constexpr uint32_t kRegisters = 16, kOps = 24;
  uint8_t in(float v);  // a register holding v
  uint8_t op(VmOp o, uint8_t a, uint8_t b = 0, uint8_t c = 0);
  uint8_t add(uint8_t a, uint8_t b) { return op(VmOp::Add, a, b); }
  uint8_t sub(uint8_t a, uint8_t b) { return op(VmOp::Sub, a, b); }
  uint8_t mul(uint8_t a, uint8_t b) { return op(VmOp::Mul, a, b); }
  uint8_t div(uint8_t a, uint8_t b) { return op(VmOp::Div, a, b); }
  uint8_t sqrt(uint8_t a) { return op(VmOp::Sqrt, a); }
  uint8_t mad(uint8_t a, uint8_t b, uint8_t c) { return op(VmOp::Mad, a, b, c); }  // a * b + c, fusable
  uint8_t neg(uint8_t a) { return op(VmOp::Neg, a); }
  uint8_t pow(uint8_t a, uint8_t b) { return op(VmOp::Pow, a, b); }
  const std::array<uint32_t, kRegisters>& registers() const { return reg_; }
  const std::vector<uint32_t>& code() const { return code_; }

 private:
  uint8_t fresh();
  std::array<uint32_t, kRegisters> reg_{};
  std::vector<uint32_t> code_;
  uint8_t used_ = 0;
};

using Registers = std::array<float, Program::kRegisters>;

// One program's operations on the CPU, in binary32 (the reference; MAD rounds its product).
// `pow`, where given, answers the Pow operations (a test replays a device's pow through it).
using PowFn = std::function<float(float, float)>;
Registers run_cpu(const Program& p, const PowFn& pow = {});

class FloatMachine {
 public:
  explicit FloatMachine(gpu::Context& ctx);
  // Whether this device can run the machine in stage s (vertex and fragment need storage writes).
  bool has(Stage s) const;
  std::vector<Registers> run(Stage s, const std::vector<Program>& programs);
  Registers run(Stage s, const Program& p) { return run(s, std::vector<Program>{p})[0]; }

 private:
  void record_stage(VkCommandBuffer cmd, Stage s, uint32_t n);  // n programs in stage s
  gpu::Context& ctx_;
  gpu::Pipeline compute_, vertex_, fragment_;
  // kept between runs (Paranoia asks hundreds of small questions): mapped programs and results,
  // the fragment stage's depth image
  gpu::Buffer in_, out_;
  gpu::Image depth_;
  uint32_t depth_w_ = 0, depth_h_ = 0;
};

}  // namespace floatlab
