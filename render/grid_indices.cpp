#include "render/grid_indices.h"

#include <vector>

namespace render {

void GridIndices::ensure(gpu::Context& ctx, uint32_t mx, uint32_t my) {
  if (mx == mx_ && my == my_ && buffer_) return;
  std::vector<uint32_t> idx;
  idx.reserve(size_t(mx - 1) * (my - 1) * 6);
  for (uint32_t j = 0; j + 1 < my; ++j)
    for (uint32_t i = 0; i + 1 < mx; ++i) {
      uint32_t a = j * mx + i, b = a + 1, c = a + mx, d = c + 1;
      idx.insert(idx.end(), {a, b, c, b, d, c});
    }
  if (buffer_) ctx.wait_queue_idle();
  buffer_ = gpu::Buffer(ctx, idx.size() * sizeof(uint32_t),
                        VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  buffer_.upload(idx);
  mx_ = mx, my_ = my, count_ = uint32_t(idx.size());
}

void GridIndices::draw(VkCommandBuffer cmd) const {
  vkCmdBindIndexBuffer(cmd, buffer_.handle(), 0, VK_INDEX_TYPE_UINT32);
  vkCmdDrawIndexed(cmd, count_, 1, 0, 0, 0);
}

}  // namespace render
