// What the mesh picture (render/mesh/mesh_view) draws of one element kind: its triangles
// (quadrilaterals split, the diagonal hidden), or for a volume kind its facets, each once,
// with the element across.
#pragma once
#include "compute/mesh/gpu_mesh.h"
#include "render/mesh/mesh_view.h"

#include <vector>

namespace mesh {

std::vector<render::MeshTriangle> draw_records(GpuMesh& g, Kind k);

struct Picture {  // one element kind's records on the GPU
  Kind kind;
  gpu::Buffer records;
  uint32_t triangles = 0;
};
// The volume kinds' facets where the mesh has volumes, else its triangles and quadrilaterals.
std::vector<Picture> make_pictures(gpu::Context& ctx, GpuMesh& g);

}  // namespace mesh
