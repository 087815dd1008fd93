// `vklab bench --lab cloth`: one step of the thesis's relaxation (branching kernel and sub-streams) and the lab's own
// solver, with and without the picture, with the seed's table 4.1 beside; then the lab's Gauss–Seidel on the kernels
// path and as tiles (tiles.h), the kernels' time beside the tiles'; and the thesis's display path, read back
// through the CPU (compute/measure/host_trip.h), on the wall clock. `--only` names passes (cloth.step.branching, ...).
#pragma once
#include "compute/cloth/cloth.h"
#include "compute/gpu/context.h"
#include "compute/measure/bench_row.h"

#include <functional>
#include <string>

namespace cloth {

// Records the picture of the cloth (the "simulation + display" column of table 4.1) from
// `positions` and `normals`: the simulation's own, or the copies through the host (compute/measure/host_trip.h); the
// app draws it with render/cloth/cloth_view.
using Display =
    std::function<void(VkCommandBuffer, const Config&, const gpu::Buffer& positions, const gpu::Buffer& normals)>;
// `base`: the lab's settings (the last row runs them as they are); `pose`: drape or hang.
std::vector<gpu::BenchRow> bench(gpu::Context& ctx, const gpu::BenchOptions& options, const Config& base,
                                 const std::string& pose, const Display& draw);

}  // namespace cloth
