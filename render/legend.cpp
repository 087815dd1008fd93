#include "legend.h"

#include "colormap.h"
#include "render_push.h"

#include <algorithm>
#include <cstdio>

namespace render {

namespace {

std::string number(float v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", v);
  return b;
}

}  // namespace

// Long: the layout: the chart's labels, then the box (drawn under the rest), lines, bar and its labels.
std::vector<float> legend_vertices(const Legend& legend, VkRect2D area, float scale) {
  const float white[4] = {0.95f, 0.95f, 0.95f, 1}, box[4] = {0, 0, 0, 0.6f};
  const float line = 12 * scale, pad = 6 * scale, bar_w = 160 * scale, bar_h = 9 * scale;
  float width = bar_w;
  for (auto& l : legend.lines) width = std::max(width, TextMesh::width(l) * scale);
  float height = line * float(legend.lines.size());
  if (legend.bar) height += line + bar_h + line + 2 * scale;
  float x = float(area.offset.x) + 10 * scale, y1 = float(area.offset.y + int32_t(area.extent.height)) - 10 * scale;
  float y = y1 - height - 2 * pad;
  TextMesh b;
  if (legend.chart) chart_vertices(b, *legend.chart, area, scale);
  b.quad(x, y, x + width + 2 * pad, y1, box, box);
  x += pad, y += pad;
  for (auto& l : legend.lines) {
    b.text(x, y + 2 * scale, l, scale, white);
    y += line;
  }
  if (legend.bar) {
    const auto& bar = *legend.bar;
    b.text(x, y + 2 * scale, bar.label, scale, white);
    y += line;
    auto table = colormap_table(bar.colormap);
    const int segments = 32;
    for (int i = 0; i < segments; ++i) {
      auto c0 = table[size_t(i * 255 / segments)], c1 = table[size_t((i + 1) * 255 / segments)];
      float a[4] = {c0[0], c0[1], c0[2], 1}, bb[4] = {c1[0], c1[1], c1[2], 1};
      b.quad(x + bar_w * float(i) / segments, y, x + bar_w * float(i + 1) / segments, y + bar_h, a, bb);
    }
    y += bar_h + 2 * scale;
    std::string lo = number(bar.lo), mid = number(0.5f * (bar.lo + bar.hi)), hi = number(bar.hi);
    auto w = [&](const std::string& s) { return TextMesh::width(s) * scale; };
    b.text(x, y + 2 * scale, lo, scale, white);
    b.text(x + 0.5f * (bar_w - w(mid)), y + 2 * scale, mid, scale, white);
    b.text(x + bar_w - w(hi), y + 2 * scale, hi, scale, white);
  }
  return b.v;
}

LegendView::LegendView(gpu::Context& ctx) : ctx_(ctx) {
  gpu::GraphicsDesc d;
  d.vert = "render/legend.vert";
  d.frag = "render/legend.frag";
  d.bindings = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
  d.push_bytes = sizeof(push::LegendPush);
  d.blend = true;
  d.color_format = kColorFormat;
  d.depth_format = kDepthFormat;
  pipeline_ = gpu::make_graphics(ctx, d);
}

void LegendView::draw(VkCommandBuffer cmd, const Frame& frame, const Legend& legend, float scale) {
  auto v = legend_vertices(legend, frame.area, scale);
  VkDeviceSize bytes = v.size() * sizeof(float);
  if (bytes == 0) return;
  if (!vertices_ || vertices_.size() < bytes)
    vertices_ =
        gpu::Buffer(ctx_, std::max<VkDeviceSize>(bytes * 2, 64 << 10), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
  vertices_.upload(v.data(), bytes);
  set_viewport(cmd, 0, 0, float(frame.extent.width), float(frame.extent.height));
  push::LegendPush push{glm::vec2(frame.extent.width, frame.extent.height)};
  pipeline_.bind(cmd, {gpu::storage_buffer(vertices_)}, push);
  vkCmdDraw(cmd, uint32_t(v.size() / 8), 1, 0, 0);
}

}  // namespace render
