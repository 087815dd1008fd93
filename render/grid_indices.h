// An index buffer over an mx x my vertex lattice (vertex j·mx + i), for meshes whose vertex
// shader pulls its data from gl_VertexIndex: indexed drawing lets the GPU reuse each transformed
// vertex instead of running it six times. Triangles: two a square; the other primitives are the
// same lattice drawn as a viewer's wireframe (every triangle's edges, the diagonals included),
// lines (the rows and columns only) or points (a vertex each, no index).
#pragma once
#include "compute/gpu/resources.h"

#include <vector>

namespace render {

enum class LatticePrimitive { Triangles, Wireframe, Lines, Points };

// The indices of `primitive` over the lattice (Points: none), as the buffer holds them.
std::vector<uint32_t> lattice_indices(LatticePrimitive primitive, uint32_t mx, uint32_t my);

class GridIndices {
 public:
  // Rebuilds only when the lattice or the primitive changes (waits for the GPU first, as frames
  // may read it).
  void ensure(gpu::Context& ctx, uint32_t mx, uint32_t my, LatticePrimitive primitive = LatticePrimitive::Triangles);
  void draw(VkCommandBuffer cmd) const;  // vkCmdDrawIndexed over the whole lattice (Points: vkCmdDraw)

 private:
  gpu::Buffer buffer_;
  uint32_t mx_ = 0, my_ = 0, count_ = 0;
  LatticePrimitive primitive_ = LatticePrimitive::Triangles;
};

}  // namespace render
