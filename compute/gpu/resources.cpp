#include "compute/gpu/resources.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

namespace gpu {

namespace {

VkImageAspectFlags aspect_of(VkFormat f) {
  return f == VK_FORMAT_D32_SFLOAT || f == VK_FORMAT_D16_UNORM ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
}

std::string mib(uint64_t bytes) { return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB"; }

uint64_t device_local_bytes(const Context& ctx) {
  uint64_t best = 0;
  for (uint32_t i = 0; i < ctx.memory.memoryHeapCount; ++i)
    if (ctx.memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      best = std::max<uint64_t>(best, ctx.memory.memoryHeaps[i].size);
  return best;
}

}  // namespace

void require_memory(const Context& ctx, uint64_t bytes, const std::string& what) {
  uint64_t have = device_local_bytes(ctx);
  if (have && bytes > have)
    throw TooLarge(what + ": needs " + mib(bytes) + " of GPU memory, " + ctx.info.name + " has " + mib(have));
}

void require_buffer(const Context& ctx, uint64_t bytes, const std::string& what, bool storage) {
  uint64_t range = ctx.props.limits.maxStorageBufferRange;
  if (storage && bytes > range)
    throw TooLarge(what + ": one buffer of " + mib(bytes) + " is past " + ctx.info.name + "'s maxStorageBufferRange (" +
                   mib(range) + "); choose a smaller size");
  require_memory(ctx, bytes, what);
}

size_t format_bytes(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_R32_UINT:
    case VK_FORMAT_R32_SINT:
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_D32_SFLOAT:
      return 4;
    case VK_FORMAT_R32G32_SFLOAT:
    case VK_FORMAT_R16G16B16A16_SFLOAT:
      return 8;
    case VK_FORMAT_R32G32B32A32_SFLOAT:
      return 16;
    case VK_FORMAT_R16_SFLOAT:
    case VK_FORMAT_D16_UNORM:
      return 2;
    default:
      throw std::invalid_argument("format_bytes: unsupported format");
  }
}

// ---- Buffer ----

Buffer::Buffer(Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage, bool host_visible, bool host_read)
    : ctx_(&ctx), size_(size) {
  require_buffer(ctx, size, "a buffer", (usage & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) != 0);
  VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bi.size = size;
  bi.usage = usage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VK_CHECK(vkCreateBuffer(ctx.device, &bi, nullptr, &buffer_));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(ctx.device, buffer_, &req);
  auto flags = host_visible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                            : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  if (host_visible && host_read &&
      ctx.allocator().offers(req.memoryTypeBits, flags | VK_MEMORY_PROPERTY_HOST_CACHED_BIT))
    flags |= VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  try {
    memory_ = ctx.allocator().allocate(req, flags, buffer_, VK_NULL_HANDLE);
    VK_CHECK(vkBindBufferMemory(ctx.device, buffer_, memory_.memory, memory_.offset));
  } catch (...) {
    reset();
    throw;
  }
  mapped_ = memory_.mapped;
}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    reset();
    ctx_ = o.ctx_;
    buffer_ = std::exchange(o.buffer_, VK_NULL_HANDLE);
    memory_ = std::exchange(o.memory_, Allocation{});
    size_ = std::exchange(o.size_, 0);
    mapped_ = std::exchange(o.mapped_, nullptr);
  }
  return *this;
}

void Buffer::reset() {
  if (!ctx_) return;
  if (buffer_) vkDestroyBuffer(ctx_->device, buffer_, nullptr);
  ctx_->allocator().free(memory_);
  buffer_ = VK_NULL_HANDLE;
  memory_ = {};
  mapped_ = nullptr;
  size_ = 0;
}

namespace {

// The context's staging buffers (Context::staging, Context::readback): 64 MiB each,
// host-visible, the downloads' cached where the device offers it, made on first use.
constexpr VkDeviceSize kStagingBytes = VkDeviceSize(64) << 20;
Buffer& staging_of(Context& ctx, bool read) {
  auto& kept = read ? ctx.readback : ctx.staging;
  if (!kept)
    kept = std::make_shared<Buffer>(ctx, kStagingBytes,
                                    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, true, read);
  return *static_cast<Buffer*>(kept.get());
}

// memcpy on several cores for a large copy (one core copies some 5 GB/s to pinned memory).
void copy_bytes(void* to, const void* from, size_t bytes) {
  const size_t parts = std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()), bytes >> 23);
  if (parts <= 1) {
    std::memcpy(to, from, bytes);
    return;
  }
  std::vector<std::thread> pool;
  auto part = [&](size_t k) {
    size_t a = bytes * k / parts, b = bytes * (k + 1) / parts;
    std::memcpy(static_cast<char*>(to) + a, static_cast<const char*>(from) + a, b - a);
  };
  for (size_t k = 1; k < parts; ++k) pool.emplace_back(part, k);
  part(0);
  for (auto& t : pool) t.join();
}

}  // namespace

void Buffer::upload(const void* data, VkDeviceSize bytes, VkDeviceSize offset) {
  if (offset + bytes > size_) throw std::out_of_range("Buffer::upload past the end");
  if (mapped_) {
    std::memcpy(static_cast<char*>(mapped_) + offset, data, bytes);
    return;
  }
  Buffer& staging = staging_of(*ctx_, false);
  for (VkDeviceSize done = 0; done < bytes; done += kStagingBytes) {  // a staging buffer's worth at a time
    VkDeviceSize n = std::min(kStagingBytes, bytes - done);
    copy_bytes(staging.mapped(), static_cast<const char*>(data) + done, n);
    ctx_->submit_now([&](VkCommandBuffer cmd) {
      // Whatever touched the buffer before must be done before the copy overwrites it.
      barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
              VK_ACCESS_2_TRANSFER_WRITE_BIT);
      VkBufferCopy region{0, offset + done, n};
      vkCmdCopyBuffer(cmd, staging.handle(), buffer_, 1, &region);
      barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
              VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    });
  }
}

void Buffer::zero() {
  if (mapped_) {
    std::memset(mapped_, 0, size_);
    return;
  }
  ctx_->submit_now([&](VkCommandBuffer cmd) {
    barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_CLEAR_BIT,
            VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdFillBuffer(cmd, buffer_, 0, VK_WHOLE_SIZE, 0);
    barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
            VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  });
}

void Buffer::download(void* data, VkDeviceSize bytes, VkDeviceSize offset) const {
  if (offset + bytes > size_) throw std::out_of_range("Buffer::download past the end");
  if (mapped_) {
    std::memcpy(data, static_cast<const char*>(mapped_) + offset, bytes);
    return;
  }
  Buffer& staging = staging_of(*ctx_, true);
  for (VkDeviceSize done = 0; done < bytes; done += kStagingBytes) {
    VkDeviceSize n = std::min(kStagingBytes, bytes - done);
    ctx_->submit_now([&](VkCommandBuffer cmd) {
      barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
              VK_ACCESS_2_TRANSFER_READ_BIT);
      VkBufferCopy region{offset + done, 0, n};
      vkCmdCopyBuffer(cmd, buffer_, staging.handle(), 1, &region);
      barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
              VK_ACCESS_2_HOST_READ_BIT);
    });
    copy_bytes(static_cast<char*>(data) + done, staging.mapped(), n);
  }
}

// ---- Image ----

void transition(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from, VkImageLayout to,
                uint32_t layers) {
  image_barrier(cmd, image, aspect, from, to, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
                layers);
}

void image_barrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from, VkImageLayout to,
                   VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                   VkAccessFlags2 dst_access, uint32_t layers) {
  VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
  b.srcStageMask = src_stage;
  b.srcAccessMask = src_access;
  b.dstStageMask = dst_stage;
  b.dstAccessMask = dst_access;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {aspect, 0, 1, 0, layers};
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.imageMemoryBarrierCount = 1;
  dep.pImageMemoryBarriers = &b;
  vkCmdPipelineBarrier2(cmd, &dep);
}

Image::Image(Context& ctx, uint32_t width, uint32_t height, VkFormat format, VkImageUsageFlags usage,
             VkImageLayout layout, uint32_t layers)
    : ctx_(&ctx), format_(format), layout_(layout), width_(width), height_(height), layers_(layers) {
  uint32_t max_side = ctx.props.limits.maxImageDimension2D;
  if (width > max_side || height > max_side)
    throw TooLarge("an image of " + std::to_string(width) + " x " + std::to_string(height) + " is past " +
                   ctx.info.name + "'s maxImageDimension2D (" + std::to_string(max_side) + ")");
  require_memory(ctx, uint64_t(width) * height * format_bytes(format) * layer_count(), "an image");
  VkImageCreateInfo ii{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ii.imageType = VK_IMAGE_TYPE_2D;
  ii.format = format;
  ii.extent = {width, height, 1};
  ii.mipLevels = 1;
  ii.arrayLayers = layer_count();
  ii.samples = VK_SAMPLE_COUNT_1_BIT;
  ii.tiling = VK_IMAGE_TILING_OPTIMAL;
  ii.usage = usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  ii.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VK_CHECK(vkCreateImage(ctx.device, &ii, nullptr, &image_));
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(ctx.device, image_, &req);
  try {
    memory_ = ctx.allocator().allocate(req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, VK_NULL_HANDLE, image_);
    VK_CHECK(vkBindImageMemory(ctx.device, image_, memory_.memory, memory_.offset));
  } catch (...) {
    reset();
    throw;
  }
  VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vi.image = image_;
  vi.viewType = layers ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
  vi.format = format;
  vi.subresourceRange = {aspect_of(format), 0, 1, 0, layer_count()};
  VK_CHECK(vkCreateImageView(ctx.device, &vi, nullptr, &view_));
  // Start defined: colour images cleared to zero, then left in their working layout.
  ctx.submit_now([&](VkCommandBuffer cmd) {
    transition(cmd, image_, aspect_of(format), VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               layer_count());
    VkImageSubresourceRange range{aspect_of(format), 0, 1, 0, layer_count()};
    if (aspect_of(format) == VK_IMAGE_ASPECT_COLOR_BIT) {
      VkClearColorValue zero{};
      vkCmdClearColorImage(cmd, image_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1, &range);
    } else {
      VkClearDepthStencilValue one{1.0f, 0};
      vkCmdClearDepthStencilImage(cmd, image_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &one, 1, &range);
    }
    transition(cmd, image_, aspect_of(format), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, layout_, layer_count());
  });
}

Image& Image::operator=(Image&& o) noexcept {
  if (this != &o) {
    reset();
    ctx_ = o.ctx_;
    image_ = std::exchange(o.image_, VK_NULL_HANDLE);
    memory_ = std::exchange(o.memory_, Allocation{});
    view_ = std::exchange(o.view_, VK_NULL_HANDLE);
    format_ = o.format_;
    layout_ = o.layout_;
    width_ = o.width_;
    height_ = o.height_;
    layers_ = o.layers_;
  }
  return *this;
}

void Image::reset() {
  if (!ctx_) return;
  if (view_) vkDestroyImageView(ctx_->device, view_, nullptr);
  if (image_) vkDestroyImage(ctx_->device, image_, nullptr);
  ctx_->allocator().free(memory_);
  view_ = VK_NULL_HANDLE;
  image_ = VK_NULL_HANDLE;
  memory_ = {};
}

size_t Image::texel_bytes() const { return format_bytes(format_); }

void Image::upload(const void* data, size_t bytes) {
  if (bytes != texel_bytes() * width_ * height_ * layer_count())
    throw std::invalid_argument("Image::upload: size mismatch");
  copy_texels(const_cast<void*>(data), {0, 0}, {width_, height_}, layer_count(), true);
}

void Image::download(void* data, size_t bytes) const {
  if (bytes != texel_bytes() * width_ * height_ * layer_count())
    throw std::invalid_argument("Image::download: size mismatch");
  copy_texels(data, {0, 0}, {width_, height_}, layer_count(), false);
}

void Image::upload_texels(const void* data, VkOffset2D at, VkExtent2D size) {
  copy_texels(const_cast<void*>(data), at, size, 1, true);
}

void Image::download_texels(void* data, VkOffset2D at, VkExtent2D size) const { copy_texels(data, at, size, 1, false); }

// Through a host-visible staging buffer, the image back in its layout after.
void Image::copy_texels(void* data, VkOffset2D at, VkExtent2D size, uint32_t layers, bool up) const {
  if (at.x < 0 || at.y < 0 || uint32_t(at.x) + size.width > width_ || uint32_t(at.y) + size.height > height_)
    throw std::invalid_argument("Image: texels outside the image");
  const size_t bytes = texel_bytes() * size.width * size.height * layers;
  Buffer staging(*ctx_, bytes, up ? VK_BUFFER_USAGE_TRANSFER_SRC_BIT : VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
  if (up) std::memcpy(staging.mapped(), data, bytes);
  const VkImageLayout copy_layout = up ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  ctx_->submit_now([&](VkCommandBuffer cmd) {
    transition(cmd, image_, aspect_of(format_), layout_, copy_layout, layer_count());
    VkBufferImageCopy region{};
    region.imageSubresource = {aspect_of(format_), 0, 0, layers};
    region.imageOffset = {at.x, at.y, 0};
    region.imageExtent = {size.width, size.height, 1};
    if (up)
      vkCmdCopyBufferToImage(cmd, staging.handle(), image_, copy_layout, 1, &region);
    else
      vkCmdCopyImageToBuffer(cmd, image_, copy_layout, staging.handle(), 1, &region);
    transition(cmd, image_, aspect_of(format_), copy_layout, layout_, layer_count());
    if (!up)
      barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
              VK_ACCESS_2_HOST_READ_BIT);
  });
  if (!up) std::memcpy(data, staging.mapped(), bytes);
}

}  // namespace gpu

namespace gpu {

void begin_depth_pass(VkCommandBuffer cmd, const Image& depth, uint32_t w, uint32_t h, bool store) {
  transition(cmd, depth.handle(), VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
             VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL);
  VkRenderingAttachmentInfo da{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  da.imageView = depth.view();
  da.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
  da.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  da.storeOp = store ? VK_ATTACHMENT_STORE_OP_STORE : VK_ATTACHMENT_STORE_OP_DONT_CARE;
  da.clearValue.depthStencil = {1.0f, 0};
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {w, h}};
  ri.layerCount = 1;
  ri.pDepthAttachment = &da;
  vkCmdBeginRendering(cmd, &ri);
  VkViewport vp{0, 0, float(w), float(h), 0, 1};
  VkRect2D sc{{0, 0}, {w, h}};
  vkCmdSetViewport(cmd, 0, 1, &vp);
  vkCmdSetScissor(cmd, 0, 1, &sc);
}

}  // namespace gpu
