// Heat diffusion on a grid (seed 000, §4.4.2): T' = T + (Cd/4)·∇²T with the 5-point
// Laplacian, on a storage buffer (row-major floats) ping-ponged each step. Explicit scheme: stable for
// 0 < Cd <= 1 (the largest eigenvalue of the 5-point Laplacian is 8).
#pragma once
#include "compute/exercise/user_kernel.h"
#include "compute/gpu/pipeline.h"
#include "compute/gpu/profiler.h"

#include <cstdint>
#include <string>
#include <vector>

namespace diffusion {

enum class Boundary { Insulated, FixedZero };  // zero flux (heat conserved) / T = 0 outside

constexpr uint32_t kMaxSide = 16384;  // cell indices stay within an int

struct Config {
  uint32_t width = 256, height = 256;
  float cd = 0.8f;
  Boundary boundary = Boundary::Insulated;
};

// Per step: one read and one write of every cell (neighbours come from cache),
// and 7 flops a cell: 3 adds + 4·T + subtract + scale by k + add.
inline double bytes_per_step(const Config& c) { return 8.0 * c.width * c.height; }
inline double flops_per_step(const Config& c) { return 7.0 * c.width * c.height; }

// CPU reference, in the shader's operation order.
void step_cpu(const Config& c, const std::vector<float>& in, std::vector<float>& out);
void steps_cpu(const Config& c, std::vector<float>& field, uint32_t n);
void paint_cpu(const Config& c, std::vector<float>& field, float cx, float cy, float radius, float amount);

// Field statistics: total heat (conserved with insulated borders), extremes, and the
// count of NaN/inf cells that says the explicit scheme blew up (Cd > 1).
struct Stats {
  float sum = 0, min = 0, max = 0;
  uint32_t non_finite = 0;
};
Stats stats_cpu(const std::vector<float>& field);

// Starting fields: "spots" (a few hot discs), "gaussian", "random", "zero".
std::vector<float> initial_field(const Config& c, const std::string& preset, uint32_t seed = 1);
const std::vector<std::string>& presets();

// The quad kernel's shape: a workgroup of `across` x `down` invocations, each `rows` quads down
// a column. The bench's sweep (compute/diffusion/bench.cpp) is the evidence for kStepShape: on an
// H200, 64 x 4 x 2 steps 8192² in 0.1346 ms and 4096² in 0.0367 ms, 16 x 16 x 1 in 0.1382 and
// 0.0372 (docs/PERF.md).
struct StepShape {
  uint32_t across = 16, down = 16, rows = 1;
};
constexpr StepShape kStepShape{64, 4, 2};

class Simulation {
 public:
  Simulation(gpu::Context& ctx, const Config& config);

  Config config;  // cd and boundary may change between steps; size is fixed at creation

  void upload(const std::vector<float>& field);
  std::vector<float> download() const;

  // Records n steps (ping-pong); ends with a barrier that makes the field visible to
  // any later stage (drawing, copies, the next steps).
  void record_steps(VkCommandBuffer cmd, gpu::Profiler* prof, uint32_t n);
  // Adds heat amount·exp(-d²/r²) around (cx, cy) in cell units (negative cools, not below 0).
  void record_paint(VkCommandBuffer cmd, gpu::Profiler* prof, float cx, float cy, float radius, float amount);

  // The step by a kernel the user wrote (exercise diffusion/laplacian, which checked it against
  // this one), from the next step on; nullptr: the shipped kernel again. Not owned.
  void use_step(const exercise::UserKernel* k) { user_step_ = k; }

  // Two-pass reduction of the field into a small host-visible buffer; read it with
  // last_stats() once the command buffer has completed.
  void record_stats(VkCommandBuffer cmd, gpu::Profiler* prof);
  Stats last_stats() const;
  Stats stats();  // record, submit, wait: for tests and dumps

  const gpu::Buffer& field() const { return fields_[current_]; }            // width x height floats, row-major
  const gpu::Buffer& other_field() const { return fields_[1 - current_]; }  // the ping-pong's other buffer

  // The quad kernel's shape (widths a multiple of 4; StepShape above).
  void set_step_shape(StepShape shape);
  StepShape step_shape() const { return shape_; }

 private:
  gpu::Context& ctx_;
  gpu::Buffer fields_[2];
  uint32_t current_ = 0;
  gpu::Pipeline step_, paint_, stats_;
  StepShape shape_;
  const exercise::UserKernel* user_step_ = nullptr;  // use_step()
  gpu::Buffer partials_;                             // kStatsGroups partial results, then the total
};

}  // namespace diffusion
