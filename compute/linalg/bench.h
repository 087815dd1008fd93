// `vklab bench --lab linalg` and the panel's Run: each operator the thesis's way (texture, multi-pass) and the modern
// way (buffer, one pass) at growing sizes, with the seed's tables 4.3–4.6 beside, the device's saxpy bandwidth and a
// single-threaded CPU run.
#pragma once
#include "compute/gpu/context.h"
#include "compute/linalg/workload.h"
#include "compute/measure/bench_row.h"

namespace linalg {

// One workload timed `repeats` times after `warmup_ms` of warm-up: median GPU time, the
// single-threaded CPU time of the same operator (kept per machine: options.cpu_ms), the saxpy
// fraction and the seed's figure.
gpu::BenchRow measure(gpu::Context& ctx, Workload& w, int repeats, const gpu::BenchOptions& options, double warmup_ms);
std::vector<gpu::BenchRow> bench(gpu::Context& ctx, const gpu::BenchOptions& options);

}  // namespace linalg
