// `vklab bench --lab floatlab`: the throughput of each float-float operator (seed 002's
// Add22, Mul22, Div22, ...) in its unit, the time of one float addition (ch. 4.3.1); annex B;
// the host<->device transfers beside the seeds' figures (`--only transfers`); and Abecassis 2012 (SIMSURF)
// §14.3.2's denormal penalty on the CPU and the GPU (`--only 14.3`).
#pragma once
#include "compute/gpu/context.h"
#include "compute/measure/bench_row.h"

namespace floatlab {

std::vector<gpu::BenchRow> bench(gpu::Context& ctx, const gpu::BenchOptions& options);

}  // namespace floatlab
