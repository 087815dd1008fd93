#include "compute/linalg/bench.h"

#include "compute/linalg/frac_index.h"

#include "compute/linalg/blas.h"
#include "compute/linalg/workload.h"
#include "compute/measure/timer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <stdexcept>
#include <thread>
#include <tuple>

namespace linalg {

using gpu::BenchOptions;
using gpu::BenchRow;
using gpu::BenchRows;

namespace {

// The thesis's tables 4.3 to 4.6 (GeForce 6600 / Athlon XP 2800), by texture side.
struct ThesisRow {
  double gpu_ms, gbps, gflops, cpu_ms, gain;  // < 0: not printed in the thesis
};
const std::map<std::string, std::map<uint32_t, ThesisRow>>& thesis_tables() {
  static const std::map<std::string, std::map<uint32_t, ThesisRow>> t = {{"banded",
                                                                          {{64, {0.33, 16.7, 8.5, 1.26, 3.8}},
                                                                           {128, {0.82, 26.9, 13.7, 5.08, 6.2}},
                                                                           {256, {3.0, 29.3, 15.0, 20.1, 6.7}},
                                                                           {512, {14.5, 24.3, 12.4, 80.3, 5.54}},
                                                                           {1024, {71.0, 19.9, 10.1, 322.9, 4.55}}}},
                                                                         {"axpby",
                                                                          {{64, {0.25, 2.1, 0.52, 0.02, 0.08}},
                                                                           {128, {0.26, 8.0, 2.0, 0.15, 0.58}},
                                                                           {256, {0.7, 11.9, 3.0, 2.29, 3.27}},
                                                                           {512, {2.9, 11.5, 2.9, 9.2, 3.17}},
                                                                           {1024, {15.1, 8.8, 2.2, 36.8, 2.44}}}},
                                                                         {"norm",
                                                                          {{64, {0.58, -1, -1, 0.05, 0.05}},
                                                                           {128, {1.01, -1, -1, 0.13, 0.13}},
                                                                           {256, {2.68, -1, -1, 1.22, 0.46}},
                                                                           {512, {10.81, -1, -1, 4.82, 0.45}},
                                                                           {1024, {43.83, -1, -1, 19.22, 0.44}}}},
                                                                         {"cg",
                                                                          {{64, {4.9, -1, -1, 3.45, 0.7}},
                                                                           {128, {6.5, -1, -1, 15.1, 2.32}},
                                                                           {256, {19.6, -1, -1, 59.3, 3.03}},
                                                                           {512, {90.2, -1, -1, 236, 2.62}}}}};
  return t;
}

nlohmann::json thesis_json(Op op, uint32_t side) {
  auto& t = thesis_tables();
  auto it = t.find(op_names()[size_t(op)]);
  if (it == t.end() || !it->second.count(side)) return nullptr;
  auto& r = it->second.at(side);
  nlohmann::json j = {{"device", "GeForce 6600 / Athlon XP 2800 (Bleton 2005, tables 4.3-4.6)"},
                      {"gpu_ms", r.gpu_ms},
                      {"cpu_ms", r.cpu_ms},
                      {"gain", r.gain}};
  if (r.gbps >= 0) j["gbps"] = r.gbps, j["gflops"] = r.gflops;
  return j;
}

// Targets on the H100 from the issue: CG iteration time at most a quarter of CuPy's.
double cg_target_ms(uint32_t grid) {
  switch (grid) {
    case 1024:
      return 0.24;
    case 2048:
      return 0.40;
    case 4096:
      return 1.09;
    case 8192:
      return 4.0;
    default:
      return 0;
  }
}

// The pipelined CG pass at other strip heights than its own choice (Ops::cg_strip_rows), into
// the row's reference: the evidence for that choice. `sweep`: at this size (grids from 1024²).
void strip_sweep(gpu::Context& ctx, Workload& w, BenchRow& row, int repeats, double warmup_ms, bool sweep) {
  Cg& cg = *w.cg();
  row.reference["strip_rows"] = cg.strip_rows();
  if (!sweep) return;
  nlohmann::json points = nlohmann::json::array();
  for (uint32_t rows : {4u, 8u, 16u, 32u, 64u}) {
    cg.set_strip_rows(rows);
    auto t = gpu::time_gpu(
        ctx, [&](VkCommandBuffer cmd) { w.record(cmd); }, repeats, warmup_ms);
    points.push_back({{"strip_rows", rows},
                      {"median_ms", t.median_ms},
                      {"gbps", t.median_ms > 0 ? w.bytes() / t.median_ms / 1e6 : 0}});
  }
  cg.set_strip_rows(0);
  row.reference["strip_rows_sweep"] = points;
}

// Max, min: the dispatches an application takes, what each reads, and the count's formula.
void extreme_reference(const Workload& w, BenchRow& row) {
  auto passes = w.extreme_passes();
  row.reference["dispatches"] = passes.size();
  if (w.config().variant == Variant::Thesis) {
    nlohmann::json sizes = nlohmann::json::array();
    for (auto& p : passes) sizes.push_back(describe_pass(p, w.config().layout));
    row.reference["passes"] = sizes;
    row.reference["passes_by_formula"] = extreme_pass_count(w.n());  // max(1, ceil(log4 n))
    row.add_note("%zu passes", passes.size());
  } else {
    row.reference["workgroups"] = w.extreme_groups();
  }
}

// Times `repeats` applications (one submission each, after a warm-up) and the CPU reference.
// CG continues iterating through the warm-up and the runs: each timed run is one iteration.

}  // namespace

BenchRow measure(gpu::Context& ctx, Workload& w, int repeats, const BenchOptions& options, double warmup_ms,
                 const CpuScale* scale) {
  const double saxpy_gbps = options.saxpy_gbps;
  // Where the row's wall-clock time goes (the JSON's "seconds": the GPU's timing, the CPU's
  // references, OpenBLAS, the check).
  nlohmann::json seconds;
  auto lap = [&, t0 = std::chrono::steady_clock::now()](const char* what) mutable {
    auto now = std::chrono::steady_clock::now();
    seconds[what] = std::chrono::duration<double>(now - t0).count();
    t0 = now;
  };
  auto t = gpu::time_gpu(
      ctx, [&](VkCommandBuffer cmd) { w.record(cmd); }, repeats, warmup_ms);
  BenchRow row{.pass = w.name() + "." + layout_name(w.config().layout),
               .size = w.size(),
               .elements = w.n(),
               .repeats = repeats,
               .median_ms = t.median_ms,
               .min_ms = t.min_ms,
               .bytes = w.bytes(),
               .flops = w.flops(),
               .warm_up = t.warm_up};
  lap("gpu");
  const int cpu_repeats = w.n() >= (1u << 24) ? 1 : 3;
  const std::string key = "linalg/" + row.pass + "/" + w.size();  // the pass names .frac and .upload
  bool ran = false;
  double cpu =
      scale ? scale->reference.value("cpu_single_thread_ms", 0.0) * scale->factor : options.cpu_ms(key + "/cpu", [&] {
        ran = true;
        return gpu::median_wall_ms([&] { w.run_cpu(); }, cpu_repeats);
      });
  if (!ran) w.run_cpu(std::max(1u, std::thread::hardware_concurrency()));  // what the GPU's result is checked against
  lap("cpu_reference");
  // OpenBLAS is loaded here (compute/linalg/blas.cpp); where it is missing the row says so.
  BlasTiming blas;
  nlohmann::json openblas;
  if (scale) {
    openblas = scale->reference.value("openblas", nlohmann::json::object());
    if (!openblas.contains("unavailable")) {
      blas.ms_one_thread = openblas.value("one_thread_ms", 0.0) * scale->factor;
      blas.ms_all_threads = openblas.value("all_threads_ms", 0.0) * scale->factor;
      blas.threads = openblas.value("threads", 0);
      openblas = {{"library", openblas.value("library", "")},
                  {"calls", openblas.value("calls", "")},
                  {"one_thread_ms", blas.ms_one_thread},
                  {"threads", blas.threads},
                  {"all_threads_ms", blas.ms_all_threads}};
    }
  } else {
    try {
      blas = time_blas(w, cpu_repeats, options, key);
      openblas = {
          {"library", blas.library},
          {"calls", blas.calls},
          {"one_thread_ms", blas.ms_one_thread},
          {"threads", blas.threads},
          {"all_threads_ms", blas.ms_all_threads},
          {"max_relative_difference_vs_cpu_reference", blas.max_rel_diff},
          {"seconds", {{"operands", blas.build_s}, {"checked_application", blas.check_s}, {"timing", blas.time_s}}}};
    } catch (const std::runtime_error& e) {
      openblas = {{"unavailable", e.what()}};
    }
  }
  lap("openblas");
  row.reference = {{"cpu_single_thread_ms", cpu},
                   {"openblas", openblas},
                   {"gain_over_openblas_all_threads", row.median_ms > 0 ? blas.ms_all_threads / row.median_ms : 0},
                   {"gain_over_cpu", row.median_ms > 0 ? cpu / row.median_ms : 0},
                   {"device_saxpy_gbps", saxpy_gbps},
                   {"fraction_of_saxpy_bandwidth", saxpy_gbps > 0 ? row.gbps() / saxpy_gbps : 0}};
  row.reference[w.config().op == Op::Cg ? "true_relative_residual" : "max_relative_error_vs_cpu"] = w.check();
  lap("check");
  if (w.config().op == Op::Cg) {
    // The warm-up runs for a time, so the iterations behind the residual vary with the device and
    // its load: the row says how many, and where it is quick the double twin's residual after as many.
    row.reference["cg_iterations"] = w.cg_iterations();
    if (double(w.cg_iterations()) * w.n() <= double(1u << 24))
      row.reference["cpu_twin_true_relative_residual"] = w.cg_twin_residual();
  }
  row.reference["seconds"] = seconds;
  if (scale) {
    row.reference["cpu_figures_scaled"] = {{"from", scale->from}, {"factor", scale->factor}};
    row.add_note("CPU figures x%.3g from %s", scale->factor, scale->from.c_str());
  }
  if (w.config().upload_matrix) {  // §4.4.1: the bus a matrix that changes every step crosses every step
    auto up = gpu::time_gpu(
        ctx, [&](VkCommandBuffer cmd) { w.record_matrix_upload(cmd); }, repeats, warmup_ms);
    const double bytes = w.matrix_bytes();
    row.reference["matrix_upload"] = {{"bytes", bytes},
                                      {"median_ms", up.median_ms},
                                      {"bus_gbps", up.median_ms > 0 ? bytes / (up.median_ms * 1e6) : 0},
                                      {"share_of_the_application", up.median_ms / row.median_ms}};
    row.add_note("the matrix's upload %.3g ms of it (%.3g GB/s)", up.median_ms,
                 up.median_ms > 0 ? bytes / (up.median_ms * 1e6) : 0.0);
  }
  if (auto t = thesis_json(w.config().op, w.config().side); !t.is_null()) {
    row.reference["thesis"] = t;
    row.add_note("GPU %.4g ms, gain %.3g", t["gpu_ms"].get<double>(), t["gain"].get<double>());
  }
  if (openblas.contains("unavailable"))
    row.add_note("OpenBLAS not found");
  else
    row.add_note("OpenBLAS %.3g ms, %d threads %.3g ms", blas.ms_one_thread, blas.threads, blas.ms_all_threads);
  if (w.config().op == Op::Cg && cg_target_ms(2 * w.config().side) > 0) {
    row.reference["target_ms"] = cg_target_ms(2 * w.config().side);
    row.add_note("target %.3g ms", cg_target_ms(2 * w.config().side));
  }
  return row;
}

std::vector<BenchRow> bench(gpu::Context& ctx, const BenchOptions& options) {
  std::vector<uint32_t> sides =
      options.quick ? std::vector<uint32_t>{16, 32} : std::vector<uint32_t>{64, 128, 256, 512, 1024, 2048, 4096};
  const int repeats = options.quick ? 3 : 15;
  BenchRows rows(options);
  // At the largest sizes (the quick bench's largest, to be tested) the single-threaded CPU
  // reference and OpenBLAS are not timed: their figures are the row's a size below, times the
  // ratio of the values (streaming through memory, a CPU takes the same time per value at both
  // sizes). The GPU's result is still checked against the CPU reference, on every core.
  const uint64_t scaled_from_n = options.quick ? 32 * 32 * 4 : uint64_t(1) << 25;
  std::map<std::string, std::pair<uint64_t, BenchRow>> below;  // by pass: its last row measured in full
  // The first row's warm-up brings the GPU to its top clock; the later rows', shorter, only
  // bring it back there (the clock probe says when).
  double warmup_ms = options.quick ? 5 : 200;
  auto run = [&](WorkloadConfig c) {
    std::string pass = workload_name(c) + "." + layout_name(c.layout);
    if (!BenchOptions::chosen(options.only, pass)) return;  // --only axpby.modern.buffer,...
    try {
      auto t0 = std::chrono::steady_clock::now();
      Workload w(ctx, c);
      const double inputs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::optional<CpuScale> scale;
      const std::string key = pass + (c.upload_matrix ? ".upload" : "");
      if (auto it = below.find(key); it != below.end() && w.n() >= scaled_from_n)
        scale = CpuScale{it->second.second.size, double(w.n()) / double(it->second.first), it->second.second.reference};
      auto row = measure(ctx, w, repeats, options, warmup_ms, scale ? &*scale : nullptr);
      if (!options.quick) warmup_ms = 100;
      if (!scale) below[key] = {w.n(), row};
      row.reference["seconds"]["inputs"] = inputs;
      if (c.op == Op::Max || c.op == Op::Min) extreme_reference(w, row);
      if (c.op == Op::Cg && c.cg_form == CgForm::Pipelined)
        strip_sweep(ctx, w, row, repeats, options.quick ? 5 : 200, options.quick || c.side >= 512);
      rows.push_back(row);
    } catch (const std::exception& e) {  // too big for this device: say so, go on
      std::fprintf(stderr, "vklab: bench linalg %s side %u skipped: %s\n", op_names()[size_t(c.op)].c_str(), c.side,
                   e.what());
    }
  };
  // Tables 4.3 (12-diagonal band), 4.4 (linear combination), 4.5 (norm), 4.6 (CG iteration):
  // the thesis's way (texture, multi-pass) beside the modern way (buffer, one pass); the max
  // and min of §2.4.2 (figure 2.10) the same two ways.
  // CG also matrix-free: one dispatch keeping A·r and A·p, and the pipelined pass without them.
  for (Op op : {Op::Banded, Op::Axpby, Op::Norm, Op::Max, Op::Min, Op::Cg})
    for (uint32_t side : sides)
      for (auto [variant, layout, form] : {std::tuple{Variant::Thesis, Layout::Texture, CgForm::Banded},
                                           std::tuple{Variant::Modern, Layout::Buffer, CgForm::Banded},
                                           std::tuple{Variant::Modern, Layout::Buffer, CgForm::OneDispatch},
                                           std::tuple{Variant::Modern, Layout::Buffer, CgForm::Pipelined}}) {
        if (op != Op::Cg && form != CgForm::Banded) continue;
        // The thesis's way up to 2048 (its tables stop at 1024; by 2048 its passes' shortfall shows).
        if (variant == Variant::Thesis && side > 2048) continue;
        WorkloadConfig c;
        c.op = op;
        c.side = side;
        c.variant = variant;
        c.layout = layout;
        c.cg_form = form;
        run(c);
      }
  // §4.1.1 and §4.4.1: a system matrix that changes every step crosses the bus every step (the
  // thesis chose Verlet for its cloth to avoid it); the band uploaded before each application,
  // the thesis's way and today's, and the CG iteration the same; up to 2048 (the bus's rate is the
  // same from 1024 on: 50-51 GB/s on an H200's PCIe 5, docs/PERF.md).
  for (uint32_t side : sides)
    for (auto [op, variant, layout] : {std::tuple{Op::Banded, Variant::Thesis, Layout::Texture},
                                       std::tuple{Op::Banded, Variant::Modern, Layout::Buffer},
                                       std::tuple{Op::Cg, Variant::Modern, Layout::Buffer}}) {
      if (side > 2048 || (options.quick && side != sides.front())) continue;
      WorkloadConfig c;
      c.op = op;
      c.side = side;
      c.variant = variant;
      c.layout = layout;
      c.upload_matrix = true;
      run(c);
    }
  // §3.3.4's float index formulas (3.1-3.4) beside the integer ones: the thesis's band at
  // power-of-two sides (its sizes: exact) and at others (wrong quads), with the GPU's sweep.
  if (BenchOptions::chosen(options.only, "banded12.frac.thesis.texture")) {
    auto sweep = options.quick ? sweep_frac_index(ctx, 64, 12) : sweep_frac_index(ctx, 4096, 24);
    for (uint32_t side : options.quick ? std::vector<uint32_t>{16, 20} : std::vector<uint32_t>{256, 300, 1024, 1000})
      for (bool frac : {false, true}) {
        WorkloadConfig c;
        c.op = Op::Banded;
        c.side = side;
        c.variant = Variant::Thesis;
        c.layout = Layout::Texture;
        c.frac_index = frac;
        try {
          Workload w(ctx, c);
          auto row = measure(ctx, w, repeats, options, options.quick ? 5 : 200);
          row.pass = std::string("banded12") + (frac ? ".frac" : "") + ".thesis.texture";
          row.reference["index"] = frac ? "frac: formulas 3.1-3.4 in float" : "integer";
          if (frac) {
            auto count = count_wrong_cpu(side * side, quad_offsets(w.banded()));
            row.reference["wrong_quad_addresses_cpu_twin"] = count.wrong;
            row.reference["quad_addresses"] = count.checked;
            row.reference["gpu_sweep"] = sweep.json();
          }
          rows.push_back(row);
        } catch (const std::exception& e) {
          std::fprintf(stderr, "vklab: bench linalg frac side %u skipped: %s\n", side, e.what());
        }
      }
  }
  // The thesis's wished-for operator[] (ch. 5; Vec::set): one element set, its texel read back and
  // written (texture) or the float alone written (buffer), against the only way the thesis had,
  // the whole vector sent again; wall clock, each a submission waited for.
  for (Layout layout : {Layout::Texture, Layout::Buffer}) {
    const std::string pass = std::string("vec.set.") + layout_name(layout);
    if (!BenchOptions::chosen(options.only, pass)) continue;
    const uint32_t n = options.quick ? 4096 : 1u << 22, sets = options.quick ? 8 : 64;
    Vec v(ctx, n, layout);
    std::vector<float> values(n, 1.0f);
    v.upload(values);
    auto wall = [](auto&& f) {
      auto t0 = std::chrono::steady_clock::now();
      f();
      return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    };
    std::vector<double> one, whole;
    size_t bytes = 0;
    for (uint32_t k = 0; k < sets; ++k) {
      one.push_back(wall([&] { bytes = v.set((k * 2654435761u) % n, float(k)); }));
      if (k < 8) whole.push_back(wall([&] { v.upload(values); }));
    }
    BenchRow row{.pass = pass,
                 .size = std::to_string(n) + " values",
                 .elements = 1,
                 .repeats = int(sets),
                 .median_ms = gpu::median(one),
                 .min_ms = *std::min_element(one.begin(), one.end())};
    row.bytes = double(bytes);
    row.reference = {{"source", "Bleton 2005, ch. 5: an operator [ ] through glTexSubImage2D, the texel read first"},
                     {"bytes_moved", bytes},
                     {"whole_vector_again_ms", gpu::median(whole)},
                     {"whole_vector_bytes", v.bytes()}};
    row.add_note("%zu bytes moved; the whole vector sent again instead (%.3g MB): %.3f ms", bytes, v.bytes() / 1e6,
                 gpu::median(whole));
    rows.push_back(std::move(row));
  }
  for (uint32_t n : options.quick ? std::vector<uint32_t>{64} : std::vector<uint32_t>{256, 1024, 4096})
    for (Variant v : {Variant::Thesis, Variant::Modern}) {
      WorkloadConfig c;
      c.op = Op::Dense;
      c.dense_n = n;
      c.variant = v;
      c.layout = v == Variant::Thesis ? Layout::Texture : Layout::Buffer;
      run(c);
    }
  return rows.take();
}

}  // namespace linalg
