#include "compute/diffusion/bench.h"

#include "compute/diffusion/diffusion.h"
#include "compute/measure/timer.h"

#include <chrono>

namespace diffusion {

using gpu::BenchOptions;
using gpu::BenchRow;
using gpu::BenchRows;

std::vector<BenchRow> bench(gpu::Context& ctx, const BenchOptions& options) {
  std::vector<uint32_t> sizes =
      options.quick ? std::vector<uint32_t>{64, 128} : std::vector<uint32_t>{256, 512, 1024, 2048, 4096, 8192};
  const uint32_t batch = 20;
  const int repeats = options.quick ? 3 : 9;
  BenchRows rows(options);
  for (uint32_t n : sizes) {
    if (uint64_t(n) * n * sizeof(float) > ctx.props.limits.maxStorageBufferRange) break;
    diffusion::Config c;
    c.width = c.height = n;
    diffusion::Simulation sim(ctx, c);
    auto field = diffusion::initial_field(c, "random");
    sim.upload(field);
    auto t = gpu::time_gpu(
        ctx, [&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, batch); }, repeats, options.quick ? 5 : 200);
    // CPU reference: one single-threaded step of the same grid.
    std::vector<double> cpu_ms;
    std::vector<float> out;
    for (int r = 0; r < (n >= 4096 ? 1 : 3); ++r) {
      auto t0 = std::chrono::steady_clock::now();
      diffusion::step_cpu(c, field, out);
      cpu_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    BenchRow row{.pass = "diffusion.step",
                 .size = std::to_string(n) + "x" + std::to_string(n),
                 .elements = uint64_t(n) * n,
                 .repeats = repeats,
                 .median_ms = t.median_ms / batch,
                 .min_ms = t.min_ms / batch,
                 .bytes = diffusion::bytes_per_step(c),
                 .flops = diffusion::flops_per_step(c)};
    double cpu = gpu::median(cpu_ms);
    row.reference = {{"device_saxpy_gbps", options.saxpy_gbps},
                     {"fraction_of_saxpy_bandwidth", options.saxpy_gbps > 0 ? row.gbps() / options.saxpy_gbps : 0},
                     {"cpu_single_thread_ms", cpu},
                     {"gain_over_cpu", row.median_ms > 0 ? cpu / row.median_ms : 0}};
    rows.push_back(row);
  }
  return rows.take();
}

}  // namespace diffusion
