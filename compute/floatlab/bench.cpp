// `vklab bench --lab floatlab`: the float-float operators' throughput in registers (seed 002
// ch. 4.3.1, `--only 4.3.1`) and annex B (`--only B`): each operator over arrays of growing
// size, on the GPU with the transfers as the report timed it, and on this CPU (its table B.2),
// normalised as the report does to the time of 4096 additions on the same processor; Priest's
// Add12 and Add22 (the report's, as printed) beside Knuth's TwoSum and our improved Add22 (ours),
// and Div22 and Sqrt22 (the report's future work) in the same table. The report's figures sit
// beside its own operators only. `--only transfers`: host<->device copies (H2D, D2H, D2D) beside
// the seeds' transfer figures (compute/floatlab/transfers.h).
#include "compute/floatlab/bench.h"

#include "compute/floatlab/denormals.h"

#include "compute/floatlab/floatfloat.h"
#include "compute/floatlab/transfers.h"
#include "compute/measure/timer.h"

#include <chrono>
#include <map>

namespace floatlab {

using gpu::BenchOptions;
using gpu::BenchRow;
using gpu::BenchRows;

namespace {

// Annex B, tables B.1 (GPU: 7800 GTX, 430 MHz) and B.2 (CPU: Pentium IV HT, 3.2 GHz): time over
// the time of 4096 additions, for Add, Mul, Mad, Add12 (Priest's), Mul12, Add22 (seven Priest
// Add12), Mul22.
const std::map<uint32_t, std::array<double, 7>> kB1 = {{4096, {1, 0.96, 0.98, 1.4, 1.51, 4.56, 1.52}},
                                                       {16384, {1.1, 1.1, 1.12, 1.64, 1.66, 4.8, 1.79}},
                                                       {65536, {1.55, 1.54, 1.57, 1.98, 2.09, 5.99, 2.87}},
                                                       {262144, {3.41, 3.37, 3.39, 3.81, 3.95, 10.34, 7.17}},
                                                       {1048576, {10.75, 10.67, 10.7, 11.06, 11.2, 28.53, 24.33}}};
const std::map<uint32_t, std::array<double, 7>> kB2 = {
    {4096, {1, 0.96, 1.14, 19.36, 2.92, 118.08, 4.28}},
    {16384, {3.99, 3.87, 4.66, 77.53, 12.13, 477.01, 18.08}},
    {65536, {15.66, 16.99, 19.66, 309.7, 50.62, 1843.58, 71.16}},
    {262144, {68.66, 69.12, 80.69, 1242.99, 194.69, 7737.58, 285.53}},
    {1048576, {285.62, 279.17, 324.62, 4986.21, 780.67, 29664.69, 1143.66}}};
// Our operator -> the report's column (-1: not in its tables).
int report_column(FfOp op) {
  switch (op) {
    case FfOp::Add:
      return 0;
    case FfOp::Mul:
      return 1;
    case FfOp::Mad:
      return 2;
    case FfOp::Add12Priest:
      return 3;
    case FfOp::Mul12:
      return 4;
    case FfOp::Add22Priest:
      return 5;
    case FfOp::Mul22:
      return 6;
    default:
      return -1;
  }
}

void throughput(gpu::Context& ctx, const BenchOptions& options, BenchRows& rows) {
  std::vector<uint32_t> sizes =
      options.quick ? std::vector<uint32_t>{4096} : std::vector<uint32_t>{1u << 16, 1u << 20, 1u << 22};
  const uint32_t reps = options.quick ? 16 : 1024;
  floatlab::FloatFloat ff(ctx);
  for (uint32_t n : sizes)
    for (auto& t : ff.throughput(n, reps, options.quick ? 5 : 200)) {
      BenchRow row{.pass = "ff." + t.op,
                   .size = std::to_string(n) + " x " + std::to_string(reps),
                   .elements = n,
                   .repeats = 5,
                   .median_ms = t.median_ms,
                   .min_ms = t.median_ms,
                   .bytes = 16.0 * n};
      // one load, one store an element: not the limit
      row.flops = double(n) * reps;  // operations (one float-float op counts as one)
      row.reference = {{"relative_to_float_add", t.relative_to_add},
                       {"unit", "time of one float addition (Da Graça 2006, ch. 4.3.1)"}};
      row.add_note("x%.3g a float add", t.relative_to_add);
      rows.push_back(row);
    }
}

void annex_b(gpu::Context& ctx, const BenchOptions& options, BenchRows& rows) {
  const std::vector<uint32_t> sizes =
      options.quick ? std::vector<uint32_t>{4096, 16384}
                    : std::vector<uint32_t>{4096, 16384, 65536, 262144, 1048576, 4194304, 16777216};
  const FfOp ops[] = {FfOp::Add,      FfOp::Mul,         FfOp::Mad,   FfOp::Add12Priest, FfOp::Add12, FfOp::Mul12,
                      FfOp::Mul12Fma, FfOp::Add22Priest, FfOp::Add22, FfOp::Mul22,       FfOp::Div22, FfOp::Sqrt22};
  const int repeats = options.quick ? 3 : 7;
  FloatFloat ff(ctx);
  double gpu_unit = 0, cpu_unit = 0;  // 4096 additions
  for (uint32_t n : sizes) {
    auto a = random_ff(n, 1, true), b = random_ff(n, 2, true);
    for (FfOp op : ops) {
      auto t = ff.time_round_trip(op, a, b, repeats, options.quick ? 0 : 20);
      std::vector<Ff> out(n);
      double cpu_ms = options.cpu_ms(std::string("floatlab/annexB/") + ff_name(op) + "/" + std::to_string(n), [&] {
        return gpu::median_wall_ms(
            [&] {
              for (uint32_t i = 0; i < n; ++i) out[i] = ff_cpu(op, a[i], b[i]);
            },
            repeats);
      });
      if (n == sizes[0] && op == FfOp::Add) gpu_unit = t.median_ms, cpu_unit = cpu_ms;
      const int col = report_column(op);
      for (bool cpu : {false, true}) {
        BenchRow row{.pass = std::string("ff.annexB.") + (cpu ? "cpu." : "gpu.") + ff_name(op),
                     .size = "B " + std::to_string(n),
                     .elements = n,
                     .repeats = repeats};
        row.median_ms = row.min_ms = cpu ? cpu_ms : t.median_ms;
        row.bytes = cpu ? 24.0 * n : 24.0 * n;  // two float-float operands in, one out
        const double relative = row.median_ms / (cpu ? cpu_unit : gpu_unit);
        row.reference = {{"section", "B"},
                         {"operator", ff_variant(op)},
                         {"relative_to_4096_adds", relative},
                         {"timed", cpu ? "this CPU, one thread, the same operators in C++ (ff_cpu)"
                                       : "upload both operands, run, download: wall clock (as the report, Brook)"}};
        row.add_note("x%.3g 4096 adds", relative);
        if (!cpu) row.reference["kernel_only_ms"] = t.kernel_ms;
        const auto& table = cpu ? kB2 : kB1;
        if (col >= 0 && table.count(n)) {
          row.reference["report_2006"] = {
              {"value", table.at(n)[size_t(col)]},
              {"table", cpu ? "B.2, Pentium IV HT 3.2 GHz" : "B.1, GeForce 7800 GTX 430 MHz, with transfers"}};
          row.add_note("2006: x%.4g", table.at(n)[size_t(col)]);
        }
        rows.push_back(row);
      }
    }
  }
}

// SIMSURF §14.3.2: the loop on normal and subnormal values, on this CPU (DAZ and FTZ off, on)
// and on the GPU, a row each (denormals.h).
void denormal_rows(gpu::Context& ctx, const BenchOptions& options, BenchRows& rows) {
  auto p = denormal_penalty(ctx, options.quick ? 1u << 12 : 1u << 16);
  for (auto& r : p.rows) {
    bool gpu = r.where == "GPU";
    std::string pass = std::string("denormal.") + (gpu ? "gpu" : "cpu") + (r.subnormal ? ".subnormal" : ".normal") +
                       (r.where.find("DAZ") != std::string::npos ? ".daz-ftz" : "");
    BenchRow row{.pass = pass,
                 .size = std::to_string(p.count) + " x " + std::to_string(p.iterations),
                 .elements = p.count,
                 .repeats = gpu ? 9 : 5,
                 .median_ms = r.ms,
                 .min_ms = r.ms,
                 .flops = 2.0 * p.count * p.iterations,
                 .reference = {{"section", "Abecassis 2012 (SIMSURF) 14.3.2"},
                               {"where", gpu ? p.gpu : p.cpu + (r.where == "CPU" ? "" : ", DAZ and FTZ on")},
                               {"loop", "y = c*y + d"},
                               {"over_normal", r.over_normal},
                               {"results_subnormal", r.results_subnormal},
                               {"results_zero", r.results_zero},
                               {"ns_per_operation", r.ns_per_operation}}};
    row.add_note("x%.2f the normal loop; results %s", r.over_normal,
                 r.results_zero        ? "flushed to 0"
                 : r.results_subnormal ? "subnormal"
                                       : "normal");
    rows.push_back(row);
  }
}

}  // namespace

std::vector<BenchRow> bench(gpu::Context& ctx, const BenchOptions& options) {
  for (auto& name : options.only)
    if (name != "4.3.1" && name != "B" && name != "transfers" && name != "14.3")
      throw std::invalid_argument("bench: unknown floatlab section '" + name +
                                  "' (4.3.1: throughput in registers; B: annex B, sizes with transfers and the CPU; "
                                  "transfers: host<->device copies beside the seeds' figures; 14.3: SIMSURF's denormal "
                                  "penalty, CPU and GPU)");
  BenchRows rows(options);
  if (BenchOptions::chosen(options.only, "4.3.1")) throughput(ctx, options, rows);
  if (BenchOptions::chosen(options.only, "B")) annex_b(ctx, options, rows);
  if (BenchOptions::chosen(options.only, "transfers")) transfer_rows(ctx, options, rows);
  if (BenchOptions::chosen(options.only, "14.3")) denormal_rows(ctx, options, rows);
  return rows.take();
}

}  // namespace floatlab
