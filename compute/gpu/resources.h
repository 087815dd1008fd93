// Buffers and images in device memory, with staging upload and download.
// Both are move-only owners: the destructor frees the Vulkan objects.
#pragma once
#include "compute/gpu/context.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpu {

// A size this device cannot hold: one line naming what and the limit (exit code 2 headless).
struct TooLarge : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
// Throws TooLarge when one buffer of `bytes` (a storage buffer unless `storage` is false)
// cannot be made here: past maxStorageBufferRange, or past the device-local memory. Labs call
// it with their sizes before building anything on the host; Buffer calls it too.
void require_buffer(const Context& ctx, uint64_t bytes, const std::string& what, bool storage = true);
// The same for several buffers together (the device-local memory only).
void require_memory(const Context& ctx, uint64_t bytes, const std::string& what);

class Buffer {
 public:
  Buffer() = default;
  // Device-local unless `host_visible`; host-visible buffers are mapped for their lifetime.
  // `host_read`: also cached by the CPU where the device offers such memory, for buffers the CPU
  // reads back (uncached, write-combined memory reads at a small fraction of memory's speed).
  Buffer(Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage, bool host_visible = false, bool host_read = false);
  ~Buffer() { reset(); }
  Buffer(Buffer&& o) noexcept { *this = std::move(o); }
  Buffer& operator=(Buffer&& o) noexcept;

  VkMemoryPropertyFlags memory_flags() const { return memory_.flags; }

  void upload(const void* data, VkDeviceSize bytes, VkDeviceSize offset = 0);
  void download(void* data, VkDeviceSize bytes, VkDeviceSize offset = 0) const;
  // Every byte 0: filled by the device (no host memory, nothing through the bus), or in place
  // where mapped. A device-local buffer needs VK_BUFFER_USAGE_TRANSFER_DST_BIT, as for upload.
  void zero();
  template <class T>
  void upload(const std::vector<T>& v) {
    upload(v.data(), v.size() * sizeof(T));
  }
  template <class T>
  std::vector<T> download() const {
    std::vector<T> v(size_ / sizeof(T));
    download(v.data(), v.size() * sizeof(T));
    return v;
  }

  VkBuffer handle() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  void* mapped() const { return mapped_; }
  explicit operator bool() const { return buffer_ != VK_NULL_HANDLE; }
  void reset();

 private:
  Context* ctx_ = nullptr;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  Allocation memory_;  // from ctx.allocator()
  VkDeviceSize size_ = 0;
  void* mapped_ = nullptr;
};

// A 2D image with one view. Storage images shared by compute and graphics live in
// VK_IMAGE_LAYOUT_GENERAL; `layout()` is the layout the image is left in between passes.
class Image {
 public:
  Image() = default;
  // layers = 0: a plain 2D image; layers >= 1: a 2D array (view type 2D_ARRAY).
  Image(Context& ctx, uint32_t width, uint32_t height, VkFormat format, VkImageUsageFlags usage,
        VkImageLayout layout = VK_IMAGE_LAYOUT_GENERAL, uint32_t layers = 0);
  ~Image() { reset(); }
  Image(Image&& o) noexcept { *this = std::move(o); }
  Image& operator=(Image&& o) noexcept;

  // Tightly packed texel data, the whole image (all layers, layer after layer).
  void upload(const void* data, size_t bytes);
  void download(void* data, size_t bytes) const;
  template <class T>
  void upload(const std::vector<T>& v) {
    upload(v.data(), v.size() * sizeof(T));
  }
  template <class T>
  std::vector<T> download() const {
    std::vector<T> v(texel_bytes() * width_ * height_ * layer_count() / sizeof(T));
    download(v.data(), v.size() * sizeof(T));
    return v;
  }
  // A rectangle of texels of the first layer (tightly packed), written or read back: one texel
  // for the linear algebra's operator[] (compute/linalg/vec.h).
  void upload_texels(const void* data, VkOffset2D at, VkExtent2D size);
  void download_texels(void* data, VkOffset2D at, VkExtent2D size) const;

  VkImage handle() const { return image_; }
  VkImageView view() const { return view_; }
  VkFormat format() const { return format_; }
  VkImageLayout layout() const { return layout_; }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  VkExtent2D extent() const { return {width_, height_}; }
  size_t texel_bytes() const;
  uint32_t layer_count() const { return layers_ ? layers_ : 1; }
  explicit operator bool() const { return image_ != VK_NULL_HANDLE; }
  void reset();

 private:
  void copy_texels(void* data, VkOffset2D at, VkExtent2D size, uint32_t layers, bool up) const;
  Context* ctx_ = nullptr;
  VkImage image_ = VK_NULL_HANDLE;
  Allocation memory_;  // from ctx.allocator()
  VkImageView view_ = VK_NULL_HANDLE;
  VkFormat format_ = VK_FORMAT_UNDEFINED;
  VkImageLayout layout_ = VK_IMAGE_LAYOUT_UNDEFINED;
  uint32_t width_ = 0, height_ = 0, layers_ = 0;
};

// Layout transition of a whole single-mip image with the given scopes.
void image_barrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from, VkImageLayout to,
                   VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                   VkAccessFlags2 dst_access, uint32_t layers = 1);
// The same with conservative scopes (every earlier write, every later access).
void transition(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from, VkImageLayout to,
                uint32_t layers = 1);

// Begins dynamic rendering into a depth image alone, cleared to 1 (its content before dropped),
// over [0, w) x [0, h) with the viewport and scissor set; `store`: whether the depth is kept.
void begin_depth_pass(VkCommandBuffer cmd, const Image& depth, uint32_t w, uint32_t h, bool store);

size_t format_bytes(VkFormat format);

}  // namespace gpu
