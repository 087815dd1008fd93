// What a lab draws into: one colour + depth pair, offscreen (headless, tests) or a
// swapchain image (window). Both use the same formats, so one pipeline serves both.
#pragma once
#include "compute/gpu/resources.h"

#include <filesystem>
#include <string>
#include <vector>

namespace render {

constexpr VkFormat kColorFormat = VK_FORMAT_B8G8R8A8_UNORM;  // UNORM: the colour map's values reach the PNG as-is
constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;
inline constexpr float kBackground[4] = {0.09f, 0.09f, 0.11f, 1.0f};  // behind every picture

struct Frame {
  VkImage color_image = VK_NULL_HANDLE;
  VkImageView color = VK_NULL_HANDLE;
  VkImageView depth = VK_NULL_HANDLE;
  VkExtent2D extent{};
  VkRect2D area{};  // where the lab's picture goes (the window keeps the rest for its panel)
};

struct Rect {
  float x, y, w, h;
};
// The largest rect of the grid's aspect centred in `area`, with a margin.
Rect fit_rect(VkRect2D area, uint32_t grid_w, uint32_t grid_h, float margin = 8.0f);

// Colour is kept in COLOR_ATTACHMENT_OPTIMAL between frames.
class OffscreenTarget {
 public:
  OffscreenTarget(gpu::Context& ctx, uint32_t width, uint32_t height);
  Frame frame() const {
    return {color_.handle(), color_.view(), depth_.view(), color_.extent(), {{0, 0}, color_.extent()}};
  }
  std::vector<uint8_t> read_rgba() const;  // tightly packed RGBA8, row 0 at the top

 private:
  gpu::Image color_, depth_;
};

// Begins dynamic rendering that clears colour and depth; sets viewport and scissor to the frame.
void begin_rendering(VkCommandBuffer cmd, const Frame& frame, const float clear_rgba[4]);
void end_rendering(VkCommandBuffer cmd);
void set_viewport(VkCommandBuffer cmd, float x, float y, float w, float h);

std::vector<uint8_t> bgra_to_rgba(const uint8_t* bgra, uint32_t width, uint32_t height);
// A w x h RGBA picture scaled (nearest texel, aspect kept) and centred in an out_w x out_h one,
// the rest black: a recording's frames stay one size when the picture's changes.
std::vector<uint8_t> letterbox(const std::vector<uint8_t>& rgba, uint32_t w, uint32_t h, uint32_t out_w,
                               uint32_t out_h);
// Throws std::runtime_error with the path on failure.
// `manifest`, when given, goes into an iTXt chunk "vklab" (io/png_text.h): the run that made it.
void write_png(const std::filesystem::path& path, uint32_t width, uint32_t height, const std::vector<uint8_t>& rgba,
               const std::string& manifest = "");
// `dir`/vklab-<lab>-YYYYmmdd-HHMMSS.png (-2, -3 ... where that is taken)
std::filesystem::path timestamped_capture_path(const std::filesystem::path& dir, const std::string& lab);

}  // namespace render
