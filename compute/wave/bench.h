// `vklab bench --lab wave`: the implicit step (CG each step) at the thesis's sizes and beyond, with the seed's
// table 4.2 beside and one single-threaded CPU step; `--only 1024` (sides, comma-separated) times those grids alone.
#pragma once
#include "compute/gpu/context.h"
#include "compute/measure/bench_row.h"
#include "compute/wave/wave.h"

#include <functional>

namespace wave {

// Records the picture of `heights` (the "simulation + display" column of table 4.2): the
// simulation's own, or their copy through the host (compute/measure/host_trip.h); the app draws
// it with render/wave/water_view.
using Display = std::function<void(VkCommandBuffer, const Config&, const gpu::Buffer& heights)>;
// The steps of `base` (scheme, Courant number, damping) on square grids, on the modern path;
// up to 512² also on the thesis's path ('SIMULATION D'ONDES 2D', row wave.step.thesis) with
// `thesis_scheme` (the thesis's own, seed, unless the user named another).
std::vector<gpu::BenchRow> bench(gpu::Context& ctx, const gpu::BenchOptions& options, const Config& base,
                                 Scheme thesis_scheme, const Display& draw);

}  // namespace wave
