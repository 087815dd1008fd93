// `vklab bench --lab machining`: the seed's §13.2 configurations (SIMSURF's paths and tools on 1024² brins, zooms
// included) with every engine, the seed's times beside, and §15.4.1's single against double precision; `--only` picks
// configurations, `--engines` engines.
#pragma once
#include "compute/gpu/context.h"
#include "compute/measure/bench_row.h"

namespace machining {

std::vector<gpu::BenchRow> bench(gpu::Context& ctx, const gpu::BenchOptions& options);

}  // namespace machining
