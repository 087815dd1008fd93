#include "render/grid_indices.h"

namespace render {

std::vector<uint32_t> lattice_indices(LatticePrimitive primitive, uint32_t mx, uint32_t my) {
  std::vector<uint32_t> idx;
  if (primitive == LatticePrimitive::Points || mx < 2 || my < 2) return idx;
  const size_t squares = size_t(mx - 1) * (my - 1);
  idx.reserve(primitive == LatticePrimitive::Triangles ? 6 * squares : 6 * squares + 2 * (mx + my));
  for (uint32_t j = 0; j < my; ++j)
    for (uint32_t i = 0; i < mx; ++i) {
      uint32_t a = j * mx + i, b = a + 1, c = a + mx, d = c + 1;
      const bool right = i + 1 < mx, up = j + 1 < my;
      if (primitive == LatticePrimitive::Triangles) {
        if (right && up) idx.insert(idx.end(), {a, b, c, b, d, c});
        continue;
      }
      if (right) idx.insert(idx.end(), {a, b});                                                    // along the row
      if (up) idx.insert(idx.end(), {a, c});                                                       // along the column
      if (primitive == LatticePrimitive::Wireframe && right && up) idx.insert(idx.end(), {b, c});  // the diagonal
    }
  return idx;
}

void GridIndices::ensure(gpu::Context& ctx, uint32_t mx, uint32_t my, LatticePrimitive primitive) {
  if (mx == mx_ && my == my_ && primitive == primitive_ && (buffer_ || primitive == LatticePrimitive::Points)) return;
  auto idx = lattice_indices(primitive, mx, my);
  if (buffer_) ctx.wait_queue_idle();
  buffer_ = {};
  if (!idx.empty()) {
    buffer_ = gpu::Buffer(ctx, idx.size() * sizeof(uint32_t),
                          VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    buffer_.upload(idx);
  }
  mx_ = mx, my_ = my, primitive_ = primitive;
  count_ = primitive == LatticePrimitive::Points ? mx * my : uint32_t(idx.size());
}

void GridIndices::draw(VkCommandBuffer cmd) const {
  if (primitive_ == LatticePrimitive::Points) return vkCmdDraw(cmd, count_, 1, 0, 0);
  if (!buffer_) return;
  vkCmdBindIndexBuffer(cmd, buffer_.handle(), 0, VK_INDEX_TYPE_UINT32);
  vkCmdDrawIndexed(cmd, count_, 1, 0, 0, 0);
}

}  // namespace render
