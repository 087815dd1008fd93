#include "render/wave/water_view.h"

#include "compute/io/input.h"
#include "compute/io/platform.h"
#include "shaders/wave/water_view_push.h"

#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace render {

using TopPush = push::WaterTopPush;  // the blocks: shaders/wave/water_view_push.h
using SurfacePush = push::WaterSurfacePush;

namespace {

uint32_t mesh_side(uint32_t n) { return std::min(n, WaterView::kMaxMeshSide); }
}  // namespace

WaterView::WaterView(gpu::Context& ctx, const std::filesystem::path& floor) : ctx_(ctx) {
  int w = 0, h = 0, channels = 0;
  const std::string bytes = io::read_input(floor, 64u << 20);  // any system's file names (platform.h)
  stbi_uc* pixels =
      stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()), int(bytes.size()), &w, &h, &channels, 4);
  if (!pixels)
    throw std::runtime_error(platform::utf8(floor) + ": cannot read the floor image (" + stbi_failure_reason() + ")");
  std::vector<uint8_t> rgba(pixels, pixels + size_t(w) * h * 4);
  stbi_image_free(pixels);
  floor_ = gpu::Image(ctx, uint32_t(w), uint32_t(h), VK_FORMAT_R8G8B8A8_UNORM,
                      VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
  floor_.upload(rgba);

  gpu::GraphicsDesc d;
  shade_ = gpu::make_compute(ctx, "wave/water_top.comp", sizeof(TopPush));
  d.vert = "render/fullscreen.vert";
  d.frag = "wave/water_top.frag";
  d.push_bytes = sizeof(TopPush);
  top_ = gpu::make_graphics(ctx, d);
  d.vert = "wave/water_surface.vert";
  d.frag = "wave/water_surface.frag";
  d.push_bytes = sizeof(SurfacePush);
  d.depth_test = true;
  surface_ = gpu::make_graphics(ctx, d);
}

void WaterView::shade_top(VkCommandBuffer cmd, const Frame& frame, const gpu::Buffer& heights, uint32_t width,
                          uint32_t height, const WaterStyle& s) {
  Rect r = fit_rect(frame.area, width, height);
  glm::ivec2 origin(int(std::floor(r.x)), int(std::floor(r.y)));
  glm::ivec2 size(std::max(1, int(std::ceil(r.x + r.w)) - origin.x), std::max(1, int(std::ceil(r.y + r.h)) - origin.y));
  if (!picture_ || picture_.width() != uint32_t(size.x) || picture_.height() != uint32_t(size.y)) {
    if (picture_) ctx_.wait_queue_idle();  // a frame in flight may still read it (not the one recording)
    picture_ =
        gpu::Image(ctx_, uint32_t(size.x), uint32_t(size.y), VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_STORAGE_BIT);
  }
  TopPush p{.light = {s.light.x, s.light.z, s.light.y, 0},
            .grid = {int32_t(width), int32_t(height)},
            .height_scale = s.height_scale,
            .refraction = s.refraction,
            .offset = glm::vec2(origin) - glm::vec2(r.x, r.y),
            .extent = {r.w, r.h},
            .origin = origin,
            .picture = size};
  // The last frame's copy has read the picture before it is shaded again.
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
               VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
               VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  shade_.bind(cmd, {gpu::storage_buffer(heights), gpu::storage_image(floor_), gpu::storage_image(picture_)}, p);
  shade_.dispatch(cmd, uint32_t(size.x), uint32_t(size.y));
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
               VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  shaded_area_ = frame.area;
  origin_ = origin, picture_size_ = size, offset_ = p.offset, extent_ = p.extent;
}

void WaterView::draw_top(VkCommandBuffer cmd, const Frame& frame) {
  const auto& a = frame.area;
  if (shaded_area_.extent.width == 0 || a.offset.x != shaded_area_.offset.x || a.offset.y != shaded_area_.offset.y ||
      a.extent.width != shaded_area_.extent.width || a.extent.height != shaded_area_.extent.height)
    throw std::logic_error("WaterView::draw_top: shade_top() was not recorded for this frame's area");
  TopPush p{};  // the copy reads origin and picture only
  p.offset = offset_, p.extent = extent_, p.origin = origin_, p.picture = picture_size_;
  set_viewport(cmd, float(p.origin.x), float(p.origin.y), float(p.picture.x), float(p.picture.y));
  top_.bind(cmd, {gpu::storage_image(picture_)}, p);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  set_viewport(cmd, 0, 0, float(frame.extent.width), float(frame.extent.height));
}

void WaterView::draw_surface(VkCommandBuffer cmd, const Frame& frame, const gpu::Buffer& heights, uint32_t width,
                             uint32_t height, const OrbitCamera& camera, const WaterStyle& s) {
  const auto& a = frame.area;
  set_viewport(cmd, float(a.offset.x), float(a.offset.y), float(a.extent.width), float(a.extent.height));
  glm::vec3 eye = camera.eye();
  uint32_t mx = mesh_side(width), my = mesh_side(height);
  mesh_.ensure(ctx_, mx, my);
  SurfacePush p{.mvp = camera.view_proj(float(a.extent.width) / float(std::max(a.extent.height, 1u))),
                .eye = {eye.x, eye.y, eye.z, 0},
                .light = {s.light.x, s.light.y, s.light.z, 0},
                .grid = glm::ivec2(width, height),
                .mesh_side = glm::ivec2(mx, my),
                .height_scale = s.height_scale,
                .refraction = s.refraction};
  surface_.bind(cmd, {gpu::storage_buffer(heights), gpu::storage_image(floor_)}, p);
  mesh_.draw(cmd);
  set_viewport(cmd, 0, 0, float(frame.extent.width), float(frame.extent.height));
}

bool WaterView::cell_under_top(const Frame& frame, uint32_t width, uint32_t height, float px, float py, float& cx,
                               float& cy) {
  Rect r = fit_rect(frame.area, width, height);
  cx = (px - r.x) / r.w * float(width) - 0.5f;
  cy = (py - r.y) / r.h * float(height) - 0.5f;
  return cx >= -0.5f && cy >= -0.5f && cx < float(width) - 0.5f && cy < float(height) - 0.5f;
}

bool WaterView::cell_under_surface(const Frame& frame, uint32_t width, uint32_t height, const OrbitCamera& camera,
                                   float px, float py, float& cx, float& cy) {
  const auto& a = frame.area;
  Rect vp{float(a.offset.x), float(a.offset.y), float(a.extent.width), float(a.extent.height)};
  glm::vec3 at;
  if (!hit_plane_y(camera.ray(px, py, vp), 0.0f, at)) return false;  // the rest surface: heights are small
  float side = float(std::max(width, height));
  cx = (at.x * side / float(width) + 1.0f) * 0.5f * float(width - 1);
  cy = (at.z * side / float(height) + 1.0f) * 0.5f * float(height - 1);
  return cx >= 0 && cy >= 0 && cx <= float(width - 1) && cy <= float(height - 1);
}

}  // namespace render
