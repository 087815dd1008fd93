// The window's swapchain: its images, their views and framebuffers (for the UI's render
// pass), a "rendered" semaphore per image (present waits on it) and a depth image of the
// same size. No GLFW here: the surface and the framebuffer's size come in. Owns what it
// creates and frees it in its destructor; recreate() retires the old images only after
// their successor was made from them (resize, vsync toggles).
#pragma once
#include "compute/gpu/resources.h"

#include <vector>

namespace render {

class Swapchain {
 public:
  Swapchain(gpu::Context& ctx, VkSurfaceKHR surface, VkFormat format, VkRenderPass ui_pass);
  ~Swapchain();
  Swapchain(const Swapchain&) = delete;
  Swapchain& operator=(const Swapchain&) = delete;

  // For a framebuffer of this size (the surface's own extent wins where it has one);
  // vsync: FIFO, else IMMEDIATE or MAILBOX where offered. Returns the image count.
  uint32_t recreate(VkExtent2D framebuffer, bool vsync);

  const VkSwapchainKHR& handle() const { return handle_; }
  VkExtent2D extent() const { return extent_; }
  const std::vector<VkImage>& images() const { return images_; }
  const std::vector<VkImageView>& views() const { return views_; }
  const std::vector<VkFramebuffer>& framebuffers() const { return framebuffers_; }
  const std::vector<VkSemaphore>& rendered() const { return rendered_; }
  const gpu::Image& depth() const { return depth_; }

 private:
  void release();

  gpu::Context& ctx_;
  VkSurfaceKHR surface_;
  VkFormat format_;
  VkRenderPass ui_pass_;
  VkSwapchainKHR handle_ = VK_NULL_HANDLE;
  VkExtent2D extent_{};
  std::vector<VkImage> images_;
  std::vector<VkImageView> views_;
  std::vector<VkFramebuffer> framebuffers_;
  std::vector<VkSemaphore> rendered_;
  gpu::Image depth_;
};

}  // namespace render
