// `vklab bench --lab diffusion`: the explicit step on grids of 256² to 8192², against one single-threaded CPU step;
// `--only 8192` (sides, comma-separated) times those grids alone.
#pragma once
#include "compute/gpu/context.h"
#include "compute/measure/bench_row.h"

namespace diffusion {

std::vector<gpu::BenchRow> bench(gpu::Context& ctx, const gpu::BenchOptions& options);

}  // namespace diffusion
