#include "compute/wave/bench.h"

#include "compute/measure/host_trip.h"
#include "compute/measure/timer.h"
#include "compute/wave/wave.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace wave {

using gpu::BenchOptions;
using gpu::BenchRow;
using gpu::BenchRows;

namespace {

// Table 4.2 of the thesis (GeForce 6600 / Athlon XP 2800): simulation, simulation +
// display, CPU simulation (ms), gain.
struct ThesisWave {
  uint32_t size;
  double sim_ms, sim_display_ms, cpu_ms, gain;
};
const ThesisWave kThesis[] = {{64, 4.2, 4.9, 3.98, 0.95},
                              {128, 4.35, 8.7, 8.93, 2.05},
                              {256, 9.34, 23.7, 36.5, 3.91},
                              {512, 31.4, 113.9, 110.9, 3.53}};

// The same water stepped on the thesis's path ('SIMULATION D'ONDES 2D' through its operators,
// the residual read back every iteration) with its scheme: wall time a step, since its
// read-backs are its cost. (This row once ran the modern rows' scheme, Newmark by default:
// b = P·h + Q·h⁻ in two banded passes, not the thesis's b = M·h − h⁻; docs/PERF.md marks
// the numbers measured so.)
BenchRow thesis_row(gpu::Context& ctx, const BenchOptions& options, Config c, Scheme scheme,
                    const std::vector<float>& h, const BenchRow& modern, const nlohmann::json& thesis) {
  c.solver = Solver::Thesis;
  c.scheme = scheme;
  Simulation sim(ctx, c);
  sim.set_state(h, h);
  const int repeats = options.quick ? 3 : 15;
  std::vector<double> ms;
  uint32_t sum = 0, readbacks = 0;
  for (int i = 0; i < 4 + repeats; ++i) {
    sim.record_steps(VK_NULL_HANDLE, nullptr, 1);
    if (i < 4) continue;
    ms.push_back(sim.thesis_step_ms());
    sum += sim.stats(sim.steps()).iterations, readbacks += sim.thesis_readbacks();
  }
  std::sort(ms.begin(), ms.end());
  BenchRow row = modern;
  row.pass = "wave.step.thesis";
  row.repeats = repeats;
  row.median_ms = ms[ms.size() / 2];
  row.min_ms = ms.front();
  double iterations = double(sum) / repeats;
  row.bytes = iterations * sim.bytes_per_iteration() + 16.0 * c.n();
  row.flops = iterations * sim.flops_per_iteration() + 26.0 * c.n();
  row.reference = {{"timing", "wall clock a step: the thesis path waits for the GPU at every residual read-back"},
                   {"cg_iterations_mean", iterations},
                   {"residual_readbacks_mean", double(readbacks) / repeats},
                   {"start", "x0 = b (MGC SUR GPU, line 4)"},
                   {"modern_ms", modern.median_ms},
                   {"modern_scheme", modern.reference["scheme"]},
                   {"thesis_path_over_modern", row.median_ms / modern.median_ms},
                   {"scheme", scheme_name(c.scheme)}};
  // The note, copied with the modern row, is the thesis's time a step at this size: this row's too.
  if (!thesis.is_null()) row.reference["thesis"] = thesis;
  return row;
}

}  // namespace

// A size's two rows (step, step + display) share the settled simulation and its CG statistics.
std::vector<BenchRow> bench(gpu::Context& ctx, const BenchOptions& options, const Config& base, Scheme thesis_scheme,
                            const Display& draw) {
  std::vector<uint32_t> sizes =
      options.quick ? std::vector<uint32_t>{64, 128} : std::vector<uint32_t>{64, 128, 256, 512, 1024, 2048, 4096};
  std::vector<std::string> names;
  for (uint32_t n : sizes) names.push_back(std::to_string(n));
  options.check_only("wave", names);  // --only 1024: the grid's side
  const int repeats = options.quick ? 3 : 15;
  BenchRows rows(options);
  for (uint32_t n : sizes) {
    if (!BenchOptions::chosen(options.only, std::to_string(n))) continue;
    wave::Config c = base;
    c.solver = Solver::Modern;
    c.width = c.height = n;
    c.storage = wave::Storage::Stencil;
    c.max_iterations = 500;
    c.tolerance = 1e-6f;
    wave::Simulation sim(ctx, c);
    std::vector<float> h(c.n(), 0.0f);
    for (float f : {0.3f, 0.6f, 0.8f})
      wave::disturb_cpu(c, h, wave::Shape::Drop, f * n, (1 - f) * n, std::max(2.0f, n / 64.0f), 1.0f);
    sim.set_state(h, h);
    // Settle the CG budget on a few real steps, then time with it fixed.
    for (int i = 0; i < 4; ++i) {
      ctx.submit_now([&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, 1); });
      sim.observe();
    }
    uint64_t first = sim.steps() + 1;
    auto t = gpu::time_gpu(
        ctx, [&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, 1); }, repeats, options.quick ? 5 : 300);
    uint32_t most = 0, sum = 0, count = 0, short_steps = 0;
    for (uint64_t k = std::max(first, sim.steps() + 1 - std::min<uint64_t>(sim.steps(), wave::Simulation::kRing));
         k <= sim.steps(); ++k) {
      auto s = sim.stats(k);
      most = std::max(most, s.iterations), sum += s.iterations, ++count;
      if (!s.converged) ++short_steps;
    }
    sim.observe();
    double iterations = count ? double(sum) / count : 0;
    auto display = gpu::time_gpu(
        ctx,
        [&](VkCommandBuffer cmd) {
          sim.record_steps(cmd, nullptr, 1);
          draw(cmd, sim.config(), sim.height_buffer());
        },
        repeats, options.quick ? 5 : 100);
    double cpu = 0;
    if (n <= (options.quick ? 128u : 1024u))
      cpu = options.cpu_ms("wave/step/" + std::to_string(n) + "/" + scheme_name(c.scheme), [&] {
        std::vector<float> ch = sim.height(), cp = sim.previous();
        auto t0 = std::chrono::steady_clock::now();
        wave::step_cpu(c, ch, cp);
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      });
    const ThesisWave* figure = nullptr;  // table 4.2's row for this size, where it has one
    for (auto& th : kThesis)
      if (th.size == n) figure = &th;
    nlohmann::json thesis = nullptr;
    if (figure)
      thesis = {{"device", "GeForce 6600 / Athlon XP 2800 (Bleton 2005, table 4.2)"},
                {"gpu_ms", figure->sim_ms},
                {"gpu_display_ms", figure->sim_display_ms},
                {"cpu_ms", figure->cpu_ms},
                {"gain", figure->gain}};
    auto base = [&](const std::string& pass, const gpu::GpuTiming& tm) {
      BenchRow row{.pass = pass,
                   .size = std::to_string(n) + "x" + std::to_string(n),
                   .elements = c.n(),
                   .repeats = repeats,
                   .median_ms = tm.median_ms,
                   .min_ms = tm.min_ms,
                   .bytes = iterations * sim.bytes_per_iteration() + 16.0 * c.n(),
                   .flops = iterations * sim.flops_per_iteration() + 26.0 * c.n(),
                   .reference = {{"cg_iterations_mean", iterations},
                                 {"cg_iterations_max", most},
                                 {"steps_short_of_tolerance", short_steps},
                                 {"tolerance", c.tolerance},
                                 {"courant", std::sqrt(c.r())},
                                 {"scheme", wave::scheme_name(c.scheme)},
                                 {"device_saxpy_gbps", options.saxpy_gbps}}};
      if (!thesis.is_null()) row.reference["thesis"] = thesis;
      return row;
    };
    auto sim_row = base("wave.step", t);
    if (figure) sim_row.add_note("GPU %.4g ms, gain %.3g", figure->sim_ms, figure->gain);
    if (cpu > 0) {
      sim_row.reference["cpu_single_thread_ms"] = cpu;
      sim_row.reference["gain_over_cpu"] = cpu / t.median_ms;
    }
    rows.push_back(sim_row);
    auto disp_row = base("wave.step+display", display);
    disp_row.reference["display"] = "top view, refraction and light, 1024x768 offscreen";
    if (figure) {
      disp_row.reference["thesis"]["gpu_ms"] = figure->sim_display_ms;
      disp_row.add_note("GPU %.4g ms, gain %.3g", figure->sim_display_ms, figure->gain);
    }
    if (n == 1024) {
      disp_row.reference["target_ms"] = 2.0;
      disp_row.add_note("target %.3g ms", 2.0);
    }
    rows.push_back(disp_row);
    // Table 4.2's display the thesis's way, on the wall clock: a frame is the step submitted and
    // waited for, the heights read back to the CPU and uploaded again, the picture drawn from the
    // copy; beside it the same frame drawn from the simulation's buffer, and the step alone (quick:
    // at the smallest size).
    if (!options.quick || n == sizes.front()) {
      auto d = gpu::time_display_paths(
          ctx, [&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, 1); }, {&sim.height_buffer()},
          [&](VkCommandBuffer cmd, const std::vector<const gpu::Buffer*>& b) { draw(cmd, sim.config(), *b[0]); },
          repeats);
      sim.observe();
      BenchRow row = d.row("wave.step+display.readback", n, c.n(),
                           "wall clock of a frame: the step submitted and waited for, the heights read back to the "
                           "CPU and uploaded again, the picture drawn from the copy",
                           "top view, refraction and light, 1024x768 offscreen", "the GPU's buffer");
      if (figure) {
        row.reference["thesis"] = {{"device", "GeForce 6600 (Bleton 2005, table 4.2)"},
                                   {"simulation_ms", figure->sim_ms},
                                   {"simulation_display_ms", figure->sim_display_ms},
                                   {"display_over_step", figure->sim_display_ms / figure->sim_ms}};
        row.add_note("thesis x%.3g", figure->sim_display_ms / figure->sim_ms);
      }
      rows.push_back(row);
    }
    if (n <= (options.quick ? 64u : 512u))
      rows.push_back(thesis_row(ctx, options, c, thesis_scheme, h, sim_row, thesis));
  }
  return rows.take();
}

}  // namespace wave
