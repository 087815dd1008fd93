// `vklab bench --lab linalg` and the panel's Run: each operator the thesis's way (texture, multi-pass) and the modern
// way (buffer, one pass) at growing sizes, with the seed's tables 4.3–4.6 beside, the device's saxpy bandwidth and a
// single-threaded CPU run.
#pragma once
#include "compute/gpu/context.h"
#include "compute/linalg/workload.h"
#include "compute/measure/bench_row.h"

namespace linalg {

// The CPU's figures of a row scaled from the row of the same pass a size below: `from` that row's
// size, `factor` the ratio of their values, `reference` that row's reference (its CPU and
// OpenBLAS times).
struct CpuScale {
  std::string from;
  double factor = 1;
  nlohmann::json reference;
};

// One workload timed `repeats` times after `warmup_ms` of warm-up: median GPU time, the
// single-threaded CPU time of the same operator (kept per machine: options.cpu_ms) and
// OpenBLAS's, or with `scale` those of a smaller row scaled, the saxpy fraction and the seed's
// figure. The GPU's result is checked against the CPU reference either way.
gpu::BenchRow measure(gpu::Context& ctx, Workload& w, int repeats, const gpu::BenchOptions& options, double warmup_ms,
                      const CpuScale* scale = nullptr);
std::vector<gpu::BenchRow> bench(gpu::Context& ctx, const gpu::BenchOptions& options);

}  // namespace linalg
