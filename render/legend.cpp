#include "legend.h"

#include "colormap.h"
#include "render_push.h"

#include <stb_easy_font.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace render {

namespace {

// stb_easy_font draws ASCII only: the few UTF-8 letters the labs use, spelled out.
std::string ascii(const std::string& s) {
  static const std::pair<const char*, const char*> kMap[] = {
      {"ç", "c"}, {"é", "e"}, {"è", "e"}, {"à", "a"},    {"²", "^2"}, {"³", "^3"}, {"·", "."},
      {"—", "-"}, {"–", "-"}, {"×", "x"}, {"°", " deg"}, {"−", "-"},  {"ω", "w"}};
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      out += s[i++];
      continue;
    }
    bool found = false;
    for (auto& [from, to] : kMap)
      if (s.compare(i, std::strlen(from), from) == 0) {
        out += to, i += std::strlen(from), found = true;
        break;
      }
    if (!found) {
      out += '?';
      for (++i; i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80;) ++i;  // the rest of the letter
    }
  }
  return out;
}

struct Builder {
  std::vector<float> v;
  void vertex(float x, float y, const float c[4]) { v.insert(v.end(), {x, y, 0, 0, c[0], c[1], c[2], c[3]}); }
  void quad(float x0, float y0, float x1, float y1, const float c0[4], const float c1[4]) {  // c0 left, c1 right
    vertex(x0, y0, c0), vertex(x1, y0, c1), vertex(x0, y1, c0);
    vertex(x1, y0, c1), vertex(x1, y1, c1), vertex(x0, y1, c0);
  }
  // stb_easy_font's quads (4 vertices of 16 bytes each), scaled, at (x, y).
  void text(float x, float y, const std::string& utf8, float scale, const float c[4]) {
    thread_local char buf[64 * 1024];
    std::string s = ascii(utf8);
    int quads = stb_easy_font_print(0, 0, const_cast<char*>(s.c_str()), nullptr, buf, sizeof buf);
    for (int q = 0; q < quads; ++q) {
      float p[4][2];
      for (int k = 0; k < 4; ++k) std::memcpy(p[k], buf + (q * 4 + k) * 16, 8);
      quad(x + p[0][0] * scale, y + p[0][1] * scale, x + p[2][0] * scale, y + p[2][1] * scale, c, c);
    }
  }
};

std::string number(float v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", v);
  return b;
}

}  // namespace

// Long: the layout, box first (it is drawn under the rest), then lines, bar and its labels.
std::vector<float> legend_vertices(const Legend& legend, VkRect2D area, float scale) {
  const float white[4] = {0.95f, 0.95f, 0.95f, 1}, box[4] = {0, 0, 0, 0.6f};
  const float line = 12 * scale, pad = 6 * scale, bar_w = 160 * scale, bar_h = 9 * scale;
  float width = bar_w;
  for (auto& l : legend.lines)
    width = std::max(width, float(stb_easy_font_width(const_cast<char*>(ascii(l).c_str()))) * scale);
  float height = line * float(legend.lines.size());
  if (legend.bar) height += line + bar_h + line + 2 * scale;
  float x = float(area.offset.x) + 10 * scale, y1 = float(area.offset.y + int32_t(area.extent.height)) - 10 * scale;
  float y = y1 - height - 2 * pad;
  Builder b;
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
    auto w = [&](const std::string& s) { return float(stb_easy_font_width(const_cast<char*>(s.c_str()))) * scale; };
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
