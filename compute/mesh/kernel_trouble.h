// What went wrong in a run of the mesh kernels, from the status they left (GpuMesh::take_status):
// a kernel whose loop ran out of the loop budget, or one that stored NaN or infinite coordinates.
#pragma once
#include "compute/mesh/gpu_mesh.h"

#include <memory>
#include <string>
#include <vector>

namespace mesh {

// "kernel 1 (line 1, loop: Ver)": the section's first line and what it loops over.
std::string kernel_label(const std::vector<std::unique_ptr<GpuMesh::Kernel>>& kernels, uint32_t tag);
// One line naming the kernel and the user's line, or "" when all went well; `when` says which
// runs the status covers ("in run 3").
std::string kernel_trouble(const gpu::LoopStatus& s, const std::vector<std::unique_ptr<GpuMesh::Kernel>>& kernels,
                           const std::string& when);

}  // namespace mesh
