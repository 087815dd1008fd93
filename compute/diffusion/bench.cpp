#include "compute/diffusion/bench.h"

#include "compute/diffusion/diffusion.h"
#include "compute/measure/timer.h"

namespace diffusion {

using gpu::BenchOptions;
using gpu::BenchRow;
using gpu::BenchRows;

std::vector<BenchRow> bench(gpu::Context& ctx, const BenchOptions& options) {
  std::vector<uint32_t> sizes =
      options.quick ? std::vector<uint32_t>{64, 128} : std::vector<uint32_t>{256, 512, 1024, 2048, 4096, 8192};
  std::vector<std::string> names;
  for (uint32_t n : sizes) names.push_back(std::to_string(n));
  options.check_only("diffusion", names);  // --only 8192: the grid's side
  const uint32_t batch = 20;
  const int repeats = options.quick ? 3 : 9;
  BenchRows rows(options);
  for (uint32_t n : sizes) {
    if (!BenchOptions::chosen(options.only, std::to_string(n))) continue;
    if (uint64_t(n) * n * sizeof(float) > ctx.props.limits.maxStorageBufferRange) break;
    diffusion::Config c;
    c.width = c.height = n;
    diffusion::Simulation sim(ctx, c);
    auto field = diffusion::initial_field(c, "random");
    sim.upload(field);
    auto t = gpu::time_gpu(
        ctx, [&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, batch); }, repeats, options.quick ? 5 : 200);
    // CPU reference: one single-threaded step of the same grid.
    double cpu = options.cpu_ms("diffusion/step/" + std::to_string(n), [&] {
      std::vector<float> out;
      return gpu::median_wall_ms([&] { diffusion::step_cpu(c, field, out); }, 3);
    });
    BenchRow row{.pass = "diffusion.step",
                 .size = std::to_string(n) + "x" + std::to_string(n),
                 .elements = uint64_t(n) * n,
                 .repeats = repeats,
                 .median_ms = t.median_ms / batch,
                 .min_ms = t.min_ms / batch,
                 .bytes = diffusion::bytes_per_step(c),
                 .flops = diffusion::flops_per_step(c)};
    row.reference = {{"device_saxpy_gbps", options.saxpy_gbps},
                     {"fraction_of_saxpy_bandwidth", options.saxpy_gbps > 0 ? row.gbps() / options.saxpy_gbps : 0},
                     {"cpu_single_thread_ms", cpu},
                     {"gain_over_cpu", row.median_ms > 0 ? cpu / row.median_ms : 0}};
    rows.push_back(row);
  }
  return rows.take();
}

}  // namespace diffusion
