// `vklab bench --lab mesh`: the seed's kernel types on generated meshes of 1 to tens of
// millions of elements, in three numberings (the volumes in a fourth: by degree classes), against
// the same loops on the CPU; and GMlib's own sample kernels on its comparison's mesh (`--only gmlib`).
// `--only surfaces`, `volumes` or `gmlib` runs one part; `--engines gpu` leaves the CPU out.
#pragma once
#include "compute/gpu/context.h"
#include "compute/measure/bench_row.h"

namespace mesh {

std::vector<gpu::BenchRow> bench(gpu::Context& ctx, const gpu::BenchOptions& options);

}  // namespace mesh
