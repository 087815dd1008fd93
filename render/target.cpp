#include "render/target.h"
#include "compute/io/output.h"
#include "compute/io/platform.h"

#include "compute/io/png_text.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <stb_image_write.h>

#include <chrono>
#include <ctime>
#include <fstream>

namespace render {

Rect fit_rect(VkRect2D area, uint32_t grid_w, uint32_t grid_h, float margin) {
  float aw = float(area.extent.width), ah = float(area.extent.height);
  float scale =
      std::min(std::max(1.0f, aw - 2 * margin) / float(grid_w), std::max(1.0f, ah - 2 * margin) / float(grid_h));
  float w = float(grid_w) * scale, h = float(grid_h) * scale;
  return {float(area.offset.x) + std::floor((aw - w) / 2), float(area.offset.y) + std::floor((ah - h) / 2), w, h};
}

OffscreenTarget::OffscreenTarget(gpu::Context& ctx, uint32_t width, uint32_t height)
    : color_(ctx, width, height, kColorFormat, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
             VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL),
      depth_(ctx, width, height, kDepthFormat, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
             VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL) {}

std::vector<uint8_t> OffscreenTarget::read_rgba() const {
  auto bgra = color_.download<uint8_t>();
  return bgra_to_rgba(bgra.data(), color_.width(), color_.height());
}

void set_viewport(VkCommandBuffer cmd, float x, float y, float w, float h) {
  VkViewport vp{x, y, w, h, 0.0f, 1.0f};
  vkCmdSetViewport(cmd, 0, 1, &vp);
}

void begin_rendering(VkCommandBuffer cmd, const Frame& frame, const float clear_rgba[4]) {
  VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  color.imageView = frame.color;
  color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  for (int i = 0; i < 4; ++i) color.clearValue.color.float32[i] = clear_rgba[i];
  VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  depth.imageView = frame.depth;
  depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
  depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  depth.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  depth.clearValue.depthStencil = {1.0f, 0};
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, frame.extent};
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &color;
  ri.pDepthAttachment = &depth;
  // Earlier frames' use of the attachments completes before this clear.
  gpu::barrier(cmd,
               VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT |
                   VK_PIPELINE_STAGE_2_COPY_BIT,
               VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
               VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT,
               VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
                   VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT);
  vkCmdBeginRendering(cmd, &ri);
  set_viewport(cmd, 0, 0, float(frame.extent.width), float(frame.extent.height));
  VkRect2D scissor{{0, 0}, frame.extent};
  vkCmdSetScissor(cmd, 0, 1, &scissor);
}

void end_rendering(VkCommandBuffer cmd) { vkCmdEndRendering(cmd); }

std::vector<uint8_t> bgra_to_rgba(const uint8_t* bgra, uint32_t width, uint32_t height) {
  std::vector<uint8_t> rgba(size_t(width) * height * 4);
  for (size_t i = 0; i < rgba.size(); i += 4) {
    rgba[i + 0] = bgra[i + 2];
    rgba[i + 1] = bgra[i + 1];
    rgba[i + 2] = bgra[i + 0];
    rgba[i + 3] = 255;  // captures are opaque whatever alpha the UI left
  }
  return rgba;
}

void write_png(const std::filesystem::path& path, uint32_t width, uint32_t height, const std::vector<uint8_t>& rgba,
               const std::string& manifest) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::string png;
  auto append = [](void* out, void* data, int size) {
    static_cast<std::string*>(out)->append(static_cast<char*>(data), size_t(size));
  };
  if (!stbi_write_png_to_func(append, &png, int(width), int(height), 4, rgba.data(), int(width * 4)))
    throw std::runtime_error("could not encode PNG " + platform::utf8(path));
  if (!manifest.empty()) png = io::add_png_text(png, "vklab", manifest);
  io::write_file(path, png);
}

std::vector<uint8_t> letterbox(const std::vector<uint8_t>& rgba, uint32_t w, uint32_t h, uint32_t out_w,
                               uint32_t out_h) {
  std::vector<uint8_t> out(size_t(out_w) * out_h * 4, 0);
  for (size_t i = 3; i < out.size(); i += 4) out[i] = 255;
  if (w == 0 || h == 0) return out;
  double k = std::min(double(out_w) / w, double(out_h) / h);
  auto fw = uint32_t(w * k), fh = uint32_t(h * k);
  uint32_t x0 = (out_w - fw) / 2, y0 = (out_h - fh) / 2;
  for (uint32_t y = 0; y < fh; ++y) {
    uint32_t sy = std::min(h - 1, uint32_t(y / k));
    for (uint32_t x = 0; x < fw; ++x) {
      uint32_t sx = std::min(w - 1, uint32_t(x / k));
      std::memcpy(&out[(size_t(y0 + y) * out_w + x0 + x) * 4], &rgba[(size_t(sy) * w + sx) * 4], 4);
    }
  }
  return out;
}

std::filesystem::path timestamped_capture_path(const std::filesystem::path& dir, const std::string& lab) {
  auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  const std::tm tm = platform::local_time(now);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  auto path = dir / ("vklab-" + lab + "-" + stamp + ".png");
  for (int i = 2; std::filesystem::exists(path); ++i)
    path = dir / ("vklab-" + lab + "-" + stamp + "-" + std::to_string(i) + ".png");
  return path;
}

}  // namespace render
