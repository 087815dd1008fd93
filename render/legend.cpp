#include "render/legend.h"

#include "render/colormap.h"
#include "shaders/common/render_push.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace render {

namespace {

// At text scale 1 (7-pixel capitals), in pixels: the box's padding, its margin in the band, the
// colour bar.
constexpr float kPad = 6, kMargin = 10, kBarW = 160, kBarH = 9;

}  // namespace

std::string bar_value(float v, float lo, float hi) {
  if (std::fabs(v) < 1e-6f * std::fabs(hi - lo)) v = 0;  // a field's floor of 1e-38: no figure of the bar's
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", v);
  return b;
}

float legend_height(size_t lines, bool bar, float s) {
  return s * (TextMesh::kLine * float(lines) + (bar ? 2 * TextMesh::kLine + kBarH + 2 : 0) + 2 * kPad);
}

LegendLayout legend_layout(const Legend& legend, VkRect2D area, float scale) {
  LegendLayout L;
  L.picture = area;
  L.scale = std::max(scale, picture_text_scale(float(area.extent.height)));
  if (legend.lines.empty() && !legend.bar) return L;
  const float s = L.scale, pad = kPad * s, margin = kMargin * s;
  const float W = float(area.extent.width), H = float(area.extent.height);
  float natural = legend.bar ? kBarW * s : 0;  // the box's text width, unwrapped
  for (auto& l : legend.lines) natural = std::max(natural, TextMesh::width(l) * s);
  if (legend.bar) natural = std::max(natural, TextMesh::width(legend.bar->label) * s);
  // The box and its lines for a text width `room`: its size in pixels; the bar as wide as the
  // room allows. `most`: the box's height at most (the legend's last lines go, with a mark).
  struct Fit {
    float w, h, bar_w;
    std::vector<std::string> lines, label;
  };
  auto fit = [&](float room, float most) {
    Fit f;
    room = std::max(room, 1.0f);
    f.bar_w = std::min(kBarW * s, room);
    float widest = legend.bar ? f.bar_w : 0;
    auto add = [&](std::vector<std::string>& to, const std::string& text) {
      for (auto& w : wrap_text(text, room, s)) to.push_back(w), widest = std::max(widest, TextMesh::width(w) * s);
    };
    for (auto& l : legend.lines) add(f.lines, l);
    if (legend.bar) add(f.label, legend.bar->label);
    auto height = [&] {
      size_t n = f.lines.size() + (f.label.empty() ? 0 : f.label.size() - 1);
      return legend_height(n, legend.bar.has_value(), s);
    };
    while (height() > most && f.lines.size() > 1) {  // too tall for the picture: the last lines go
      f.lines.pop_back();
      std::string& last = f.lines.back();
      while (!last.empty() && TextMesh::width(last + " ...") * s > room) {  // a whole UTF-8 letter at a time
        size_t cut = last.size() - 1;
        while (cut > 0 && (uint8_t(last[cut]) & 0xC0) == 0x80) --cut;
        last.erase(cut);
      }
      last += " ...";
    }
    f.w = std::min(widest, room) + 2 * pad;
    f.h = height();
    return f;
  };
  // Beside: at most 40 % of the width; under: the whole width.
  Fit side = fit(std::min(natural, 0.4f * W - 2 * (margin + pad)), H - 2 * margin);
  Fit under = fit(W - 2 * (margin + pad), 0.45f * H - 2 * margin);
  float side_w = side.w + 2 * margin, under_h = under.h + 2 * margin;
  bool side_fits = side.h + 2 * margin <= H && side_w < W;
  float side_square = side_fits ? std::min(W - side_w, H) : -1, under_square = std::min(W, H - under_h);
  const int32_t x = area.offset.x, y = area.offset.y;
  // A table drawn as a chart (its cells stretched to the room) wants the width: under it.
  const bool table = legend.chart && legend.chart->fill;
  if (side_square > under_square && !table) {
    uint32_t pw = uint32_t(std::max(1.0f, std::floor(W - side_w)));
    L.picture = {{x, y}, {pw, area.extent.height}};
    L.box = {{x + int32_t(pw) + int32_t(margin), y + int32_t(H - margin - side.h)},
             {uint32_t(side.w), uint32_t(std::ceil(side.h))}};
    L.lines = std::move(side.lines), L.bar_label = std::move(side.label), L.bar_w = side.bar_w;
  } else {
    uint32_t ph = uint32_t(std::max(1.0f, std::floor(H - under_h)));
    L.picture = {{x, y}, {area.extent.width, ph}};
    L.box = {{x + int32_t(margin), y + int32_t(ph) + int32_t(margin)},
             {uint32_t(under.w), uint32_t(std::ceil(under.h))}};
    L.lines = std::move(under.lines), L.bar_label = std::move(under.label), L.bar_w = under.bar_w;
  }
  return L;
}

// The chart's labels (around the lab's picture), then the box (drawn under the rest), the
// lines, the colour bar and its labels.
std::vector<float> legend_vertices(const Legend& legend, VkRect2D area, float scale) {
  LegendLayout L = legend_layout(legend, area, scale);
  const float s = L.scale;
  const float white[4] = {0.95f, 0.95f, 0.95f, 1}, box[4] = {0, 0, 0, 0.6f};
  const float line = TextMesh::kLine * s, pad = kPad * s, bar_w = L.bar_w, bar_h = kBarH * s;
  TextMesh b;
  if (legend.chart) chart_vertices(b, *legend.chart, L.picture, s);
  if (L.box.extent.width == 0) return b.v;
  float x = float(L.box.offset.x), y = float(L.box.offset.y);
  b.quad(x, y, x + float(L.box.extent.width), y + float(L.box.extent.height), box, box);
  x += pad, y += pad;
  auto text_line = [&](const std::string& l) {
    b.text(x, y + 3 * s, l, s, white);
    y += line;
  };
  for (auto& l : L.lines) text_line(l);
  if (legend.bar) {
    const auto& bar = *legend.bar;
    for (auto& l : L.bar_label) text_line(l);
    auto table = colormap_table(bar.colormap);
    const int segments = 32;
    for (int i = 0; i < segments; ++i) {
      auto c0 = table[size_t(i * 255 / segments)], c1 = table[size_t((i + 1) * 255 / segments)];
      float a[4] = {c0[0], c0[1], c0[2], 1}, bb[4] = {c1[0], c1[1], c1[2], 1};
      b.quad(x + bar_w * float(i) / segments, y, x + bar_w * float(i + 1) / segments, y + bar_h, a, bb);
    }
    y += bar_h + 2 * s;
    std::string lo = bar_value(bar.lo, bar.lo, bar.hi), mid = bar_value(0.5f * (bar.lo + bar.hi), bar.lo, bar.hi),
                hi = bar_value(bar.hi, bar.lo, bar.hi);
    auto w = [&](const std::string& t) { return TextMesh::width(t) * s; };
    b.text(x, y + 3 * s, lo, s, white);
    b.text(x + 0.5f * (bar_w - w(mid)), y + 3 * s, mid, s, white);
    b.text(x + bar_w - w(hi), y + 3 * s, hi, s, white);
  }
  return b.v;
}

LegendView::LegendView(gpu::Context& ctx) : ctx_(ctx) {
  // The atlas once: RGBA8 (its distance in red) for a format every device filters linearly.
  const FontAtlas& font = font_atlas();
  std::vector<uint8_t> rgba(font.texels.size() * 4, 255);
  for (size_t i = 0; i < font.texels.size(); ++i) rgba[4 * i] = font.texels[i];
  atlas_ = gpu::Image(ctx, font.width, font.height, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_SAMPLED_BIT,
                      VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  atlas_.upload(rgba);
  VkSamplerCreateInfo si{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  si.magFilter = si.minFilter = VK_FILTER_LINEAR;
  si.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  si.addressModeU = si.addressModeV = si.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  VK_CHECK(vkCreateSampler(ctx.device, &si, nullptr, &sampler_));
  gpu::GraphicsDesc d;
  d.vert = "render/legend.vert";
  d.frag = "render/legend.frag";
  d.push_bytes = sizeof(push::LegendPush);
  d.blend = true;
  d.color_format = kColorFormat;
  d.depth_format = kDepthFormat;
  try {
    pipeline_ = gpu::make_graphics(ctx, d);
  } catch (...) {
    vkDestroySampler(ctx.device, sampler_, nullptr);
    throw;
  }
}

LegendView::~LegendView() { vkDestroySampler(ctx_.device, sampler_, nullptr); }

void LegendView::draw(VkCommandBuffer cmd, const Frame& frame, const Legend& legend, float scale) {
  TextMesh mesh;
  mesh.v = legend_vertices(legend, frame.area, scale);
  draw(cmd, frame, mesh);
}

void LegendView::draw(VkCommandBuffer cmd, const Frame& frame, const TextMesh& mesh) {
  const auto& v = mesh.v;
  VkDeviceSize bytes = v.size() * sizeof(float);
  if (bytes == 0) return;
  if (!vertices_ || vertices_.size() < bytes)
    vertices_ =
        gpu::Buffer(ctx_, std::max<VkDeviceSize>(bytes * 2, 64 << 10), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
  vertices_.upload(v.data(), bytes);
  set_viewport(cmd, 0, 0, float(frame.extent.width), float(frame.extent.height));
  push::LegendPush push{.extent = glm::vec2(frame.extent.width, frame.extent.height),
                        .sdf = glm::vec2(FontAtlas::kEdge / 255, 255 / FontAtlas::kPerPixel)};
  gpu::Bind atlas{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
  atlas.image = {sampler_, atlas_.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  pipeline_.bind(cmd, {gpu::storage_buffer(vertices_), atlas}, push);
  vkCmdDraw(cmd, uint32_t(v.size() / 8), 1, 0, 0);
}

}  // namespace render
