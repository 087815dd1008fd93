// vklab bench: each lab's passes at growing sizes, median GPU time, GB/s, GFLOP/s,
// against the device's own streaming bandwidth and a CPU reference; JSON out.
#include "app/core/figures.h"
#include "app/core/settings.h"
#include "app/core/sweep.h"
#include "app/modes/bench_progress.h"
#include "app/modes/modes.h"
#include "compute/io/output.h"
#include "compute/io/platform.h"
#include "compute/measure/cpu_baselines.h"
#include "compute/measure/memory_experiment.h"
#include "compute/measure/roofline.h"
#include "compute/measure/saxpy.h"
#include "compute/measure/timer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <numeric>

namespace {

// The roof that limits the pass and how close it runs to it, e.g. "mem 97%", "fp32 41%".
std::string roof_figure(const BenchRow& r, const gpu::Peaks& peaks) {
  auto at = gpu::place(peaks, r.bytes, r.flops, r.median_ms);
  if (at.bound.empty()) return "—";
  char text[32];
  std::snprintf(text, sizeof text, "%s %.0f%%", at.bound == "memory" ? "mem" : at.bound.c_str(), at.percent);
  return text;
}

void print_row(const BenchRow& r, double saxpy_gbps, const gpu::Peaks& peaks) {
  double frac = saxpy_gbps > 0 ? 100.0 * r.gbps() / saxpy_gbps : 0;
  auto& ref = r.reference;
  std::printf("%-26s %-30s %10.4f %s %s %s %s %s %s  %s\n", r.pass.c_str(), r.size.c_str(), r.median_ms,
              right(figure(r.gbps(), "%.1f"), 9).c_str(), right(figure(r.gflops(), "%.1f"), 9).c_str(),
              right(figure(frac, "%.1f%%"), 7).c_str(), right(roof_figure(r, peaks), 9).c_str(),
              right(figure(ref.value("cpu_single_thread_ms", 0.0), "%.3f"), 10).c_str(),
              right(figure(ref.value("gain_over_cpu", 0.0), "%.1fx"), 8).c_str(), r.note.c_str());
}

std::string utc_now() {
  auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return date;
}

void write_json(const std::string& file, const nlohmann::json& j) {  // file: UTF-8, as given
  auto path = platform::utf8_path(file);
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  io::write_file(path, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  std::printf("\nwrote %s\n", file.c_str());
}

// vklab bench --lab L --sweep NAME=FROM:TO:COUNT: a line a point as it is measured.
int run_sweep_bench(const Options& o, gpu::Context& ctx, const Lab& lab) {
  auto spec = parse_sweep(o.sweep);
  spec.steps = o.sweep_steps;
  std::printf("sweep of %s over %s, %d points, %llu steps each\n", o.lab.c_str(), spec.param.c_str(), spec.count,
              (unsigned long long)spec.steps);
  std::printf("%14s %12s %9s %9s  %s\n", spec.param.c_str(), "ms a step", "GB/s", "GFLOP/s", "");
  auto points = run_sweep(ctx, lab, spec, [](const SweepPoint& p) {
    std::printf("%14.6g %12.4f %s %s  %s\n", p.value, p.ms_per_step, right(figure(p.gbps, "%.1f"), 9).c_str(),
                right(figure(p.gflops, "%.1f"), 9).c_str(), p.problem.empty() ? "" : ("stopped: " + p.problem).c_str());
  });
  if (!o.out.empty())
    write_json(o.out, {{"device", device_json(ctx)}, {"date", utc_now()}, {"sweep", sweep_json(lab, spec, points)}});
  report_validation(o, ctx);
  return 0;
}

}  // namespace

// Each row is printed as soon as it is measured, a progress bar under them on a terminal; the
// rows' times are kept for the next run's estimate.
nlohmann::json bench_lab(gpu::Context& ctx, Lab& lab, const BenchOptions& options, const gpu::Peaks& peaks,
                         gpu::BenchHistory& history) {
  const std::string key = gpu::bench_key(lab.name(), options.quick, options.only, options.engines);
  auto last = history.last(key);
  if (!last.empty())
    std::printf("the last run of this bench here: %zu rows in %.0f s\n", last.size(),
                std::accumulate(last.begin(), last.end(), 0.0));
  std::printf("%-26s %-30s %10s %9s %9s %7s %9s %10s %8s  %s\n", "pass", "size", "median ms", "GB/s", "GFLOP/s",
              "% saxpy", "roof", "CPU ms", "gain", "the source's figure, other references");
  nlohmann::json rows = nlohmann::json::array();
  gpu::BenchProgress p;
  {
    BenchProgressLine line(lab.name(), last);
    BenchOptions printing = options;
    printing.on_row = [&](const BenchRow& r) {
      line.row(r.seconds, [&] { print_row(r, options.saxpy_gbps, peaks); });
      if (options.on_row) options.on_row(r);
    };
    for (auto& r : lab.bench(ctx, printing)) rows.push_back(gpu::bench_row_json(r, peaks));
    history.record(key, line.done());
    p = line.progress();
  }  // the bar cleared
  std::printf("%s: %zu rows in %.1f s\n", lab.name().c_str(), p.done, p.elapsed_s);
  return rows;
}

int run_bench(const Options& o) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // rows appear as they are measured, even through a pipe
  std::vector<std::string> names = o.lab.empty() ? lab_names() : std::vector<std::string>{o.lab};
  std::vector<std::unique_ptr<Lab>> checked;  // bad parameters fail before any GPU work
  for (auto& n : names) checked.push_back(lab_from_options(o, n));
  if (!o.sweep.empty()) {
    auto spec = parse_sweep(o.sweep);
    check_sweep(*checked.front(), spec);
  }
  // The session holds the context and the first lab; a bench makes its own sized instances of
  // each lab, so none is built here.
  Session session(context_options(o), std::move(checked.front()), Session::Parts{false, false, false});
  gpu::Context& ctx = session.ctx();
  // The other labs, declared after the session: whatever GPU state they keep goes first.
  std::vector<std::unique_ptr<Lab>> rest(std::make_move_iterator(checked.begin() + 1),
                                         std::make_move_iterator(checked.end()));
  std::vector<Lab*> labs = {&session.lab()};
  for (auto& lab : rest) labs.push_back(lab.get());
  std::printf("device: %s (%s, Vulkan %s); memory: %s\n", ctx.info.name.c_str(), ctx.info.driver.c_str(),
              ctx.info.api.c_str(), gpu::describe(ctx.allocator().options()).c_str());
  if (!o.sweep.empty()) return run_sweep_bench(o, ctx, session.lab());
  if (o.memory_experiment) {
    auto sets = gpu::memory_experiment(
        ctx, o.quick ? std::vector<uint64_t>{4u << 20} : std::vector<uint64_t>{64u << 20, 256u << 20, 512u << 20},
        o.quick ? 2 : 8, o.quick ? 0.05 : 3.0, o.quick ? 0.1 : 1.0);
    if (!o.out.empty())
      write_json(o.out,
                 {{"device", session.device_json()}, {"date", utc_now()}, {"memory_experiment", gpu::to_json(sets)}});
    report_validation(o, ctx);
    return 0;
  }

  VkDeviceSize probe = o.quick ? (16u << 20) : (512u << 20);
  auto bw = gpu::measure_bandwidth(ctx, probe);
  std::printf("reference: saxpy over 2 x %.0f MiB: %.4f ms, %.1f GB/s\n", bw.bytes_per_array / (1 << 20), bw.median_ms,
              bw.gbps);
  // The roofs: measured once per device and driver and cached beside the settings (quick: measured
  // small every time, not cached).
  auto peaks = o.quick ? gpu::measure_peaks(ctx, true) : gpu::device_peaks(ctx, peaks_path(), o.remeasure_peaks);
  peaks.saxpy_gbps = bw.gbps;  // the memory roof is this run's saxpy, as "% saxpy" is
  std::printf("roofs: fp32 %.1f GFLOP/s, fp64 %.1f GFLOP/s (measured %s%s), saxpy above, copy %.1f GB/s\n",
              peaks.fp32_gflops, peaks.fp64_gflops, peaks.measured.c_str(),
              o.quick ? ", quick: small sizes, rough" : ("; cached in " + peaks_path().string()).c_str(),
              peaks.copy_gbps);
  if (o.renderdoc_captures && !gpu::RenderDoc::get().attached())  // said before the table, not inside it
    std::fprintf(stderr, "vklab: renderdoc: %s\n", gpu::RenderDoc::how_to_attach());
  else
    ctx.renderdoc.pending = o.renderdoc_captures;  // one application of each of the first N rows
  std::printf("\n");

  nlohmann::json j = {
      {"device", session.device_json()},
      {"date", utc_now()},
      {"quick", o.quick},
      {"timestamps", ctx.info.timestamps},
      {"memory", gpu::describe(ctx.allocator().options())},
      {"saxpy", {{"bytes_per_array", bw.bytes_per_array}, {"median_ms", bw.median_ms}, {"gbps", bw.gbps}}},
      {"peaks", gpu::to_json(peaks)},
      {"labs", nlohmann::json::object()}};
  // The CPU references: kept per machine (a quick bench times them every time, as it measures its roofs).
  gpu::CpuBaselines cpu = o.quick ? gpu::CpuBaselines() : gpu::CpuBaselines(cpu_baselines_path(), o.remeasure_cpu);
  gpu::BenchHistory history(bench_times_path(), ctx.info.name + ", " + ctx.info.driver);
  BenchOptions options{o.quick, bw.gbps, o.only, o.engines};
  options.cpu_baselines = &cpu;
  for (Lab* lab : labs) {
    std::printf("== %s ==\n", lab->title().c_str());
    auto start = std::chrono::steady_clock::now();
    j["labs"][lab->name()] = bench_lab(ctx, *lab, options, peaks, history);
    j["seconds"][lab->name()] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    cpu.save();
  }
  j["cpu_baselines"] = cpu.describe();
  if (cpu.read() > 0)
    std::printf(
        "CPU references: %d read back from %s (this machine's, timed by an earlier bench; "
        "--remeasure-cpu times them again), %d timed now\n",
        cpu.read(), platform::utf8(cpu_baselines_path()).c_str(), cpu.timed());
  if (!o.out.empty()) write_json(o.out, j);
  report_validation(o, ctx);
  return 0;
}
