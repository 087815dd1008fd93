// `vklab bench --lab mesh`: the seed's kernel types on generated meshes of 1 to tens of
// millions of elements, in three numberings, against the same loops on the CPU.
#pragma once
#include "lab.h"

std::vector<BenchRow> mesh_bench(gpu::Context& ctx, const BenchOptions& options);
