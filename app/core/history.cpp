#include "app/core/history.h"

#include <cstring>

namespace {

VkDeviceSize part_bytes(const StatePart& p) {
  if (p.buffer) return p.buffer->size();
  return VkDeviceSize(p.image->texel_bytes()) * p.image->width() * p.image->height() * p.image->layer_count();
}

VkBufferImageCopy image_region(const gpu::Image& image, VkDeviceSize offset) {
  VkBufferImageCopy r{};
  r.bufferOffset = offset;
  r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, image.layer_count()};
  r.imageExtent = {image.width(), image.height(), 1};
  return r;
}

}  // namespace

History::History(gpu::Context& ctx, VkDeviceSize budget, size_t most) : ctx_(ctx), budget_(budget), most_(most) {}

void History::record(VkCommandBuffer cmd, const Lab& lab) {
  auto parts = lab.state_parts();
  if (parts.empty()) return;
  std::vector<VkDeviceSize> sizes;
  for (auto& p : parts) sizes.push_back(part_bytes(p));
  if (sizes != part_bytes_) {  // a new lab or grid: a new ring
    entries_.clear();
    ring_ = gpu::Buffer();
    part_bytes_ = sizes;
    slot_bytes_ = 0;
    for (auto s : sizes) slot_bytes_ += (s + 255) / 256 * 256;
    slots_ = std::min<size_t>(most_, size_t(budget_ / std::max<VkDeviceSize>(slot_bytes_, 1)));
    gpu::Allocator::Owner owner(ctx_.allocator(), "step back");  // the Timings tab's memory line
    if (slots_ >= 2) ring_ = gpu::Buffer(ctx_, slot_bytes_ * slots_, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  }
  if (slots_ < 2) return;
  if (!entries_.empty()) entries_.resize(cursor_ + 1);  // stepping on from a past state: a new branch
  size_t slot = entries_.empty() ? 0 : (entries_.back().slot + 1) % slots_;
  if (entries_.size() == slots_) entries_.pop_front();
  entries_.push_back({slot, lab.steps_done()});
  cursor_ = entries_.size() - 1;

  // The steps' writes (and any earlier reader's copy) before the copy; the copy's reads
  // before the next frame's writes.
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
               VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
  VkDeviceSize offset = slot * slot_bytes_;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].buffer) {
      VkBufferCopy c{0, offset, sizes[i]};
      vkCmdCopyBuffer(cmd, parts[i].buffer->handle(), ring_.handle(), 1, &c);
    } else {
      // In TRANSFER_SRC_OPTIMAL for the copy, then back to the layout the lab keeps it in.
      const gpu::Image& img = *parts[i].image;
      auto r = image_region(img, offset);
      gpu::image_barrier(cmd, img.handle(), VK_IMAGE_ASPECT_COLOR_BIT, img.layout(),
                         VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                         VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
      vkCmdCopyImageToBuffer(cmd, img.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, ring_.handle(), 1, &r);
      gpu::image_barrier(cmd, img.handle(), VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         img.layout(), VK_PIPELINE_STAGE_2_COPY_BIT, 0, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                         VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    }
    offset += (sizes[i] + 255) / 256 * 256;
  }
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
               VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
}

void History::restore(Lab& lab, size_t i) {
  if (i >= entries_.size()) return;
  Entry e = entries_[i];
  gpu::Buffer staging(ctx_, slot_bytes_, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
  ctx_.submit_now([&](VkCommandBuffer cmd) {
    VkBufferCopy c{e.slot * slot_bytes_, 0, slot_bytes_};
    vkCmdCopyBuffer(cmd, ring_.handle(), staging.handle(), 1, &c);
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                 VK_ACCESS_2_HOST_READ_BIT);
  });
  std::vector<std::vector<uint8_t>> parts;
  const auto* bytes = static_cast<const uint8_t*>(staging.mapped());
  VkDeviceSize offset = 0;
  for (auto s : part_bytes_) {
    parts.emplace_back(bytes + offset, bytes + offset + s);
    offset += (s + 255) / 256 * 256;
  }
  lab.restore_state(parts, e.step);
  cursor_ = i;
}
