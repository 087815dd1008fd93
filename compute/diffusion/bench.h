// `vklab bench --lab diffusion`: the explicit step on grids of 256² to 8192², against one single-threaded CPU step.
#pragma once
#include "compute/gpu/bench_row.h"
#include "compute/gpu/context.h"

namespace diffusion {

std::vector<gpu::BenchRow> bench(gpu::Context& ctx, const gpu::BenchOptions& options);

}  // namespace diffusion
