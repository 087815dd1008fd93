// Draws a scalar field, an R32F storage image or a row-major buffer of floats, as a
// colour-mapped picture, read straight from what the compute passes write (no copy),
// fitted into the frame with its aspect.
#pragma once
#include "compute/gpu/pipeline.h"
#include "render/colormap.h"
#include "render/target.h"

#include <optional>

namespace render {

struct HeatmapStyle {
  std::string colormap = "heat";
  float lo = 0.0f, hi = 1.0f;
  bool smooth = false;       // bilinear between cell centres instead of one flat colour per cell
  std::optional<Rect> rect;  // where to draw (e.g. render::chart_rect); else fitted into the frame's area
};

class HeatmapView {
 public:
  explicit HeatmapView(gpu::Context& ctx);
  // Inside begin_rendering(); the image must be in GENERAL layout and its writes made visible.
  void draw(VkCommandBuffer cmd, const Frame& frame, const gpu::Image& field, const HeatmapStyle& style);
  // The same for width x height floats in a storage buffer, its writes made visible.
  void draw(VkCommandBuffer cmd, const Frame& frame, const gpu::Buffer& field, uint32_t width, uint32_t height,
            const HeatmapStyle& style);

 private:
  void set_colormap(const std::string& name);
  void draw(VkCommandBuffer cmd, const Frame& frame, const gpu::Pipeline& pipeline, gpu::Bind field, uint32_t width,
            uint32_t height, const HeatmapStyle& style);
  gpu::Context& ctx_;
  gpu::Pipeline image_pipeline_, buffer_pipeline_;
  gpu::Buffer lut_;
  std::string lut_name_;
};

}  // namespace render
