// What the mesh picture (render/mesh/mesh_view) draws of one element kind: its triangles
// (quadrilaterals split, the diagonal hidden), or for a volume kind its facets, each once,
// with the element across.
#pragma once
#include "compute/mesh/gpu_mesh.h"
#include "render/mesh/mesh_view.h"

#include <vector>

namespace mesh {

// An element kind's records; `across`: a volume kind's neighbours (GpuMesh::neighbours).
std::vector<render::MeshTriangle> draw_records(const Elements& e, const std::vector<uint32_t>* across);

struct Picture {  // one element kind's records on the GPU
  Kind kind;
  gpu::Buffer records;
  uint32_t triangles = 0;
};
// The volume kinds' facets where the mesh has volumes, else its triangles and quadrilaterals:
// what their records are made from, taken from the mesh first (a volume kind's neighbours found
// there if not yet), then the records, made on the CPU without the mesh (so on a thread of their
// own while the kernels compile and add to it), then the records put on the GPU.
struct RecordsInput {
  const Elements* elements;             // in the mesh, which keeps them in place
  const std::vector<uint32_t>* across;  // a volume kind's neighbours, else nullptr
};
using PictureRecords = std::vector<std::pair<Kind, std::vector<render::MeshTriangle>>>;
std::vector<RecordsInput> records_inputs(GpuMesh& g);
PictureRecords picture_records(const std::vector<RecordsInput>& in);
std::vector<Picture> make_pictures(gpu::Context& ctx, PictureRecords records);

}  // namespace mesh
