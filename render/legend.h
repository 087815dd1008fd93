// A legend drawn into the picture itself, so captures and recordings carry it: a few lines
// (the lab, its step or time, key parameters) and a colour bar with its values and unit.
// Text is stb_easy_font's line font (render/text_mesh.h), drawn as triangles with the bar and a
// translucent box.
#pragma once
#include "chart.h"
#include "gpu/pipeline.h"

#include <optional>
#include <string>
#include <vector>

namespace render {

struct LegendBar {
  std::string colormap;  // render/colormap.h
  float lo = 0, hi = 1;
  std::string label;  // what the colours are, with the unit ("height (cells)")
};

struct Legend {
  std::vector<std::string> lines;  // printable ASCII; the first is the title
  std::optional<LegendBar> bar;
  std::optional<Chart> chart;  // a picture drawn as a chart: its axes and notes (render/chart.h)
};

// The triangles of a legend laid out in the bottom-left corner of `area` (pixels, 2 x vec4 a
// vertex: position, colour); exposed for tests.
std::vector<float> legend_vertices(const Legend& legend, VkRect2D area, float scale);

class LegendView {
 public:
  explicit LegendView(gpu::Context& ctx);
  // Inside begin_rendering; once a submission (its vertices live in one host-visible buffer).
  // scale: 1 draws 7-pixel letters; the window passes 2 x its UI scale.
  void draw(VkCommandBuffer cmd, const Frame& frame, const Legend& legend, float scale);

 private:
  gpu::Context& ctx_;
  gpu::Pipeline pipeline_;
  gpu::Buffer vertices_;
};

}  // namespace render
