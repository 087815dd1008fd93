#include "render/heatmap_view.h"

#include "shaders/common/render_push.h"

#include <algorithm>
#include <cmath>

namespace render {

using push::HeatmapPush;  // shaders/common/render_push.h

HeatmapView::HeatmapView(gpu::Context& ctx) : ctx_(ctx) {
  gpu::GraphicsDesc d;
  d.vert = "render/fullscreen.vert";
  d.frag = "render/heatmap.frag";
  d.push_bytes = sizeof(HeatmapPush);
  d.color_format = kColorFormat;
  d.depth_format = kDepthFormat;
  image_pipeline_ = gpu::make_graphics(ctx, d);
  d.frag = "render/heatmap_buffer.frag";
  buffer_pipeline_ = gpu::make_graphics(ctx, d);
  lut_ = gpu::Buffer(ctx, 256 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
  set_colormap("heat");
}

void HeatmapView::set_colormap(const std::string& name) {
  if (name == lut_name_) return;
  auto rgba = colormap_rgba(name);
  // The table is host-visible and written only here: wait so no frame in flight reads it.
  if (!lut_name_.empty()) ctx_.wait_queue_idle();
  lut_.upload(rgba);
  lut_name_ = name;
}

void HeatmapView::draw(VkCommandBuffer cmd, const Frame& frame, const gpu::Image& field, const HeatmapStyle& style) {
  draw(cmd, frame, image_pipeline_, gpu::storage_image(field), field.width(), field.height(), style);
}

void HeatmapView::draw(VkCommandBuffer cmd, const Frame& frame, const gpu::Buffer& field, uint32_t width,
                       uint32_t height, const HeatmapStyle& style) {
  draw(cmd, frame, buffer_pipeline_, gpu::storage_buffer(field), width, height, style);
}

void HeatmapView::draw(VkCommandBuffer cmd, const Frame& frame, const gpu::Pipeline& pipeline, gpu::Bind field,
                       uint32_t width, uint32_t height, const HeatmapStyle& style) {
  set_colormap(style.colormap);
  Rect r = style.rect ? *style.rect : fit_rect(frame.area, width, height);
  set_viewport(cmd, r.x, r.y, r.w, r.h);
  float hi = style.hi > style.lo ? style.hi : style.lo + 1e-6f;
  HeatmapPush push{.size = glm::ivec2(width, height), .lo = style.lo, .hi = hi, .smooth_cells = style.smooth ? 1 : 0};
  pipeline.bind(cmd, {field, gpu::storage_buffer(lut_)}, push);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  set_viewport(cmd, 0, 0, float(frame.extent.width), float(frame.extent.height));
}

}  // namespace render
