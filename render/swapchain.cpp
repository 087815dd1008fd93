#include "render/swapchain.h"

#include "render/target.h"

#include <algorithm>

namespace render {

Swapchain::Swapchain(gpu::Context& ctx, VkSurfaceKHR surface, VkFormat format, VkRenderPass ui_pass)
    : ctx_(ctx), surface_(surface), format_(format), ui_pass_(ui_pass) {}

Swapchain::~Swapchain() { release(); }

// The swapchain, then its images' views, framebuffers and semaphores in one pass over them.
uint32_t Swapchain::recreate(VkExtent2D framebuffer, bool vsync) {
  VkSurfaceCapabilitiesKHR caps;
  VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(ctx_.physical, surface_, &caps));
  VkExtent2D extent = caps.currentExtent.width != UINT32_MAX ? caps.currentExtent : framebuffer;
  extent.width = std::clamp(extent.width, caps.minImageExtent.width, caps.maxImageExtent.width);
  extent.height = std::clamp(extent.height, caps.minImageExtent.height, caps.maxImageExtent.height);

  // vsync: FIFO (always there). Without: MAILBOX, else IMMEDIATE, else FIFO.
  VkPresentModeKHR mode = VK_PRESENT_MODE_FIFO_KHR;
  if (!vsync) {
    uint32_t n = 0;
    vkGetPhysicalDeviceSurfacePresentModesKHR(ctx_.physical, surface_, &n, nullptr);
    std::vector<VkPresentModeKHR> modes(n);
    vkGetPhysicalDeviceSurfacePresentModesKHR(ctx_.physical, surface_, &n, modes.data());
    for (auto want : {VK_PRESENT_MODE_IMMEDIATE_KHR, VK_PRESENT_MODE_MAILBOX_KHR})
      if (std::find(modes.begin(), modes.end(), want) != modes.end()) mode = want;
  }
  uint32_t images = std::max(caps.minImageCount, 2u);
  if (caps.maxImageCount) images = std::min(std::max(images, 3u), caps.maxImageCount);

  VkSwapchainCreateInfoKHR ci{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  ci.surface = surface_;
  ci.minImageCount = images;
  ci.imageFormat = format_;
  ci.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
  ci.imageExtent = extent;
  ci.imageArrayLayers = 1;
  ci.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  ci.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  ci.preTransform = caps.currentTransform;
  ci.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  ci.presentMode = mode;
  ci.clipped = VK_TRUE;
  ci.oldSwapchain = handle_;
  VkSwapchainKHR handle;
  VK_CHECK(vkCreateSwapchainKHR(ctx_.device, &ci, nullptr, &handle));
  release();  // the old one, after its successor was made from it
  handle_ = handle;
  extent_ = extent;

  uint32_t n = 0;
  vkGetSwapchainImagesKHR(ctx_.device, handle_, &n, nullptr);
  images_.resize(n);
  vkGetSwapchainImagesKHR(ctx_.device, handle_, &n, images_.data());
  for (VkImage img : images_) {
    VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vi.image = img;
    vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vi.format = format_;
    vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view;
    VK_CHECK(vkCreateImageView(ctx_.device, &vi, nullptr, &view));
    views_.push_back(view);
    VkFramebufferCreateInfo fbi{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fbi.renderPass = ui_pass_;
    fbi.attachmentCount = 1;
    fbi.pAttachments = &view;
    fbi.width = extent.width;
    fbi.height = extent.height;
    fbi.layers = 1;
    VkFramebuffer fb;
    VK_CHECK(vkCreateFramebuffer(ctx_.device, &fbi, nullptr, &fb));
    framebuffers_.push_back(fb);
    VkSemaphoreCreateInfo si{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VkSemaphore s;
    VK_CHECK(vkCreateSemaphore(ctx_.device, &si, nullptr, &s));
    rendered_.push_back(s);
  }
  depth_ = gpu::Image(ctx_, extent.width, extent.height, render::kDepthFormat,
                      VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL);
  return uint32_t(images_.size());
}

void Swapchain::release() {
  VkDevice d = ctx_.device;
  for (auto fb : framebuffers_) vkDestroyFramebuffer(d, fb, nullptr);
  for (auto v : views_) vkDestroyImageView(d, v, nullptr);
  for (auto s : rendered_) vkDestroySemaphore(d, s, nullptr);
  framebuffers_.clear();
  views_.clear();
  rendered_.clear();
  images_.clear();
  depth_ = gpu::Image();
  if (handle_) {
    vkDestroySwapchainKHR(d, handle_, nullptr);
    handle_ = VK_NULL_HANDLE;
  }
}

}  // namespace render
