#include "app/labs/linalg/pictures.h"

#include <algorithm>
#include <cmath>

namespace {
uint32_t gap_of(uint32_t w) { return std::max(1u, w / 12); }
}  // namespace

render::Chart panels_chart(const std::vector<std::string>& names, uint32_t w, uint32_t h) {
  render::Chart c;
  uint32_t gap = gap_of(w), count = uint32_t(names.size());
  c.grid_w = count * w + (count - 1) * gap;
  c.grid_h = h;
  for (uint32_t i = 0; i < count; ++i) c.x_ticks.push_back({float(i * (w + gap)) + 0.5f * float(w), names[i]});
  c.y_ticks = {{0, "0"}, {float(h), std::to_string(h)}};
  c.y_label = "grid row";
  c.x_label = "element i at column i mod " + std::to_string(w) + ", row i div " + std::to_string(w);
  return c;
}

render::Rect panel_rect(const render::Rect& r, const render::Chart& c, size_t i, uint32_t w) {
  float cw = r.w / float(c.grid_w);
  return {r.x + float(i * (w + gap_of(w))) * cw, r.y, float(w) * cw, r.h};
}

// Picks the window of texels, colours its cells, then notes each element and the axes that say where they come
// from.
ChartPicture layout_chart(const std::vector<float>& values, linalg::Layout layout, uint32_t side,
                          const std::string& colormap, float lo, float hi) {
  bool texture = layout == linalg::Layout::Texture;
  uint32_t stride = texture ? side : 4;  // quads a row of the picture
  uint32_t t = std::min(4u, std::max(1u, stride));
  // The window: t x t texels around the largest value, so the picture has something to show.
  size_t top = size_t(std::max_element(values.begin(), values.end(),
                                       [](float a, float b) { return std::fabs(a) < std::fabs(b); }) -
                      values.begin()) /
               4;
  uint32_t rows = uint32_t((values.size() / 4 + stride - 1) / stride);
  uint32_t x0 = std::min(uint32_t(top % stride) - std::min(uint32_t(top % stride), 1u), stride - t);
  uint32_t y0 = std::min(uint32_t(top / stride) - std::min(uint32_t(top / stride), 1u), rows - std::min(rows, t));
  ChartPicture p;
  p.chart.grid_w = p.chart.grid_h = 2 * t;
  p.cells.assign(size_t(4) * t * t, 0.0f);
  for (uint32_t ty = 0; ty < t; ++ty)
    for (uint32_t tx = 0; tx < t; ++tx) {
      size_t q = size_t(y0 + ty) * stride + x0 + tx;
      for (uint32_t c = 0; c < 4; ++c) {
        size_t i = 4 * q + c;
        uint32_t x = 2 * tx + c % 2, y = 2 * ty + c / 2;
        float v = i < values.size() ? values[i] : 0.0f;
        p.cells[size_t(y) * 2 * t + x] = v;
        std::string text = i < values.size() ? std::to_string(i) : "pad";  // the channel: by place (the key)
        p.chart.notes.push_back({float(x) + 0.5f, float(y) + 0.5f, text, 0.9f, 0.3f});
      }
      if (ty == 0) p.chart.x_ticks.push_back({2.0f * float(tx) + 1, std::to_string(x0 + tx)});
      if (tx == 0) p.chart.y_ticks.push_back({2.0f * float(ty) + 1, std::to_string(y0 + ty)});
    }
  if (texture) {
    p.chart.title = std::to_string(t) + " x " + std::to_string(t) + " of the RGBA32F texture's " +
                    std::to_string(side) + " x " + std::to_string(side) + " texels";
    p.chart.x_label =
        "element 4q + c is channel c (r, g, b, a) of texel q = row x " + std::to_string(side) + " + column";
    p.chart.y_label = "texel row";
  } else {
    p.chart.title = std::to_string(t * t) + " of the storage buffer's " + std::to_string(values.size() / 4) + " vec4s";
    p.chart.x_label = "element 4q + c is component c (x, y, z, w) of vec4 q = 4 x row + column (drawn 4 a row)";
    p.chart.y_label = "row";
  }
  p.colormap = colormap;
  p.lo = lo, p.hi = hi;
  p.bar = render::LegendBar{colormap, lo, hi, "the elements' values"};
  p.key = texture ? "each texel as 2 x 2 cells, r g / b a, each cell its element's index"
                  : "each vec4 as 2 x 2 cells, x y / z w, each cell its element's index";
  return p;
}
