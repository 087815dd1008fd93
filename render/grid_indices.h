// An index buffer of two triangles per square of an mx x my vertex lattice (vertex
// j·mx + i), for meshes whose vertex shader pulls its data from gl_VertexIndex: indexed
// drawing lets the GPU reuse each transformed vertex instead of running it six times.
#pragma once
#include "compute/gpu/resources.h"

namespace render {

class GridIndices {
 public:
  // Rebuilds only when the lattice changes (waits for the GPU first, as frames may read it).
  void ensure(gpu::Context& ctx, uint32_t mx, uint32_t my);
  void draw(VkCommandBuffer cmd) const;  // vkCmdDrawIndexed over the whole lattice

 private:
  gpu::Buffer buffer_;
  uint32_t mx_ = 0, my_ = 0, count_ = 0;
};

}  // namespace render
