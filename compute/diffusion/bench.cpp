#include "compute/diffusion/bench.h"

#include "compute/diffusion/diffusion.h"
#include "compute/measure/saxpy.h"
#include "compute/measure/timer.h"

namespace diffusion {

using gpu::BenchOptions;
using gpu::BenchRow;
using gpu::BenchRows;

namespace {

// At the large sizes: the quad kernel at other shapes than kStepShape (the evidence for it), and
// saxpy over the field's own two buffers (the same bytes as a step, read two for one written,
// where the step reads one).
void shape_sweep(gpu::Context& ctx, Simulation& sim, BenchRow& row, int repeats) {
  const uint32_t batch = 20, n = sim.config.width * sim.config.height;
  const double bytes = bytes_per_step(sim.config);
  nlohmann::json points = nlohmann::json::array();
  for (StepShape shape : std::vector<StepShape>{{16, 16, 1},
                                                {32, 8, 1},
                                                {64, 4, 1},
                                                {256, 1, 1},
                                                {32, 8, 2},
                                                {64, 4, 2},
                                                {64, 8, 2},
                                                {16, 16, 4},
                                                {32, 4, 4},
                                                {32, 8, 4},
                                                {64, 4, 4},
                                                {128, 2, 4},
                                                {64, 2, 8},
                                                {128, 1, 8},
                                                {128, 1, 32}}) {
    sim.set_step_shape(shape);
    auto t = gpu::time_gpu(
        ctx, [&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, batch); }, repeats, 100);
    points.push_back({{"across", shape.across},
                      {"down", shape.down},
                      {"rows", shape.rows},
                      {"median_ms", t.median_ms / batch},
                      {"gbps", t.median_ms > 0 ? bytes * batch / (t.median_ms * 1e6) : 0}});
  }
  sim.set_step_shape(kStepShape);
  row.reference["step_shape"] = {{"across", kStepShape.across}, {"down", kStepShape.down}, {"rows", kStepShape.rows}};
  row.reference["step_shape_sweep"] = points;
  gpu::Saxpy saxpy(ctx);
  auto t = gpu::time_gpu(
      ctx,
      [&](VkCommandBuffer cmd) {
        gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                     VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
        saxpy.record(cmd, sim.field(), sim.other_field(), 0.5f, n);
      },
      repeats, 100);
  const double gbps = t.median_ms > 0 ? 12.0 * n / (t.median_ms * 1e6) : 0;
  row.reference["saxpy_same_buffers_gbps"] = gbps;
  row.reference["fraction_of_saxpy_same_buffers"] = gbps > 0 ? row.gbps() / gbps : 0;
  row.add_note("%.1f%% of saxpy over the field's two buffers", gbps > 0 ? 100 * row.gbps() / gbps : 0.0);
}

}  // namespace

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
                 .flops = diffusion::flops_per_step(c),
                 .warm_up = t.warm_up};
    row.reference = {{"device_saxpy_gbps", options.saxpy_gbps},
                     {"fraction_of_saxpy_bandwidth", options.saxpy_gbps > 0 ? row.gbps() / options.saxpy_gbps : 0},
                     {"cpu_single_thread_ms", cpu},
                     {"gain_over_cpu", row.median_ms > 0 ? cpu / row.median_ms : 0}};
    if (n >= 4096 && !options.quick) shape_sweep(ctx, sim, row, repeats);
    rows.push_back(row);
  }
  return rows.take();
}

}  // namespace diffusion
