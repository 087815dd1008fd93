// A legend drawn into the picture itself, so captures and recordings carry it: a few lines
// (the lab, its step or time, key parameters) and a colour bar with its values and unit. It
// sits in a band of its own beside or under the lab's drawing, never over the data; a line too
// long for the band wraps between words, it never shrinks. Text is DejaVu Sans from a
// signed-distance atlas (render/text_mesh.h), drawn as triangles with the bar and a box, sized
// for the picture (render::picture_text_scale).
#pragma once
#include "compute/gpu/pipeline.h"
#include "render/chart.h"

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
  std::vector<std::string> lines;  // UTF-8 (render/text_mesh.h's letters); the first is the title
  std::optional<LegendBar> bar;
  std::optional<Chart> chart;  // a picture drawn as a chart: its axes and notes (render/chart.h)
};

// Where a legend goes in `area`: a band on the right or at the bottom, whichever leaves the
// larger square to the picture (a grid's picture keeps its size in a wide window, where the
// band takes the empty margin); the picture gets the rest, at least about half the area (a
// legend too tall loses its last lines, marked "..."). Letters are `scale` x 7 pixels high, or
// picture_text_scale(area's height) x 7 where that is more.
struct LegendLayout {
  VkRect2D picture{};                         // what the lab draws into
  VkRect2D box{};                             // the legend's box, inside the band (empty: no legend)
  float scale = 1;                            // the text's
  float bar_w = 0;                            // the colour bar's width (narrower where the band is)
  std::vector<std::string> lines, bar_label;  // the legend's lines and the bar's label, wrapped
};
LegendLayout legend_layout(const Legend& legend, VkRect2D area, float scale);
// The triangles of a legend laid out by legend_layout (pixels, 2 x vec4 a vertex: position xy
// and atlas uv, -1 for solid quads; colour); exposed for tests.
std::vector<float> legend_vertices(const Legend& legend, VkRect2D area, float scale);
// A colour bar's value `v` as written under the bar from `lo` to `hi`: three significant digits,
// and 0 for a value under a millionth of the bar's span (a field whose floor is 1e-38).
std::string bar_value(float v, float lo, float hi);

// The legend's height in pixels at text scale `s`: `lines` lines, and a colour bar or not.
float legend_height(size_t lines, bool bar, float s);

class LegendView {
 public:
  explicit LegendView(gpu::Context& ctx);  // uploads the font's atlas (throws where the font is missing)
  ~LegendView();
  LegendView(const LegendView&) = delete;
  LegendView& operator=(const LegendView&) = delete;
  // Inside begin_rendering; once a submission (its vertices live in one host-visible buffer).
  // scale: at least `scale` x 7-pixel capitals (the window passes 1.5 x its UI scale); more
  // where the picture is tall enough (render::picture_text_scale).
  void draw(VkCommandBuffer cmd, const Frame& frame, const Legend& legend, float scale);
  // Any triangles built with TextMesh (a plot picture, render/plot_picture.h), the same way.
  void draw(VkCommandBuffer cmd, const Frame& frame, const TextMesh& mesh);

 private:
  gpu::Context& ctx_;
  gpu::Pipeline pipeline_;
  gpu::Buffer vertices_;
  gpu::Image atlas_;  // the font's signed distances (FontAtlas), sampled by legend.frag
  VkSampler sampler_ = VK_NULL_HANDLE;
};

}  // namespace render
