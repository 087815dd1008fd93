#include "render/legend.h"

#include "render/colormap.h"
#include "shaders/common/render_push.h"

#include <algorithm>
#include <cstdio>

namespace render {

namespace {

// At text scale 1 (7-pixel capitals), in pixels: a line (capitals' top 3 under its top, room
// for descenders and accents), the box's padding and margin, the colour bar.
constexpr float kPad = 6, kMargin = 10, kBarW = 160, kBarH = 9;

std::string number(float v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", v);
  return b;
}

}  // namespace

float legend_height(size_t lines, bool bar, float s) {
  return s * (TextMesh::kLine * float(lines) + (bar ? 2 * TextMesh::kLine + kBarH + 2 : 0) + 2 * kPad);
}

// The chart's labels, then the box (drawn under the rest), the lines, the colour bar and its
// labels.
std::vector<float> legend_vertices(const Legend& legend, VkRect2D area, float scale) {
  const float s = std::max(scale, picture_text_scale(float(area.extent.height)));
  const float white[4] = {0.95f, 0.95f, 0.95f, 1}, box[4] = {0, 0, 0, 0.6f};
  const float line = TextMesh::kLine * s, pad = kPad * s, bar_w = kBarW * s, bar_h = kBarH * s;
  // A line too long for the picture shrinks to fit it.
  const float room = std::max(1.0f, float(area.extent.width) - 2 * (kMargin + kPad) * s);
  auto size = [&](const std::string& l) { return std::min(s, room / std::max(1.0f, TextMesh::width(l))); };
  float width = legend.bar ? bar_w : 0;
  for (auto& l : legend.lines) width = std::max(width, TextMesh::width(l) * size(l));
  if (legend.bar) width = std::max(width, TextMesh::width(legend.bar->label) * size(legend.bar->label));
  float x = float(area.offset.x) + kMargin * s, y1 = float(area.offset.y + int32_t(area.extent.height)) - kMargin * s;
  float y = y1 - legend_height(legend.lines.size(), legend.bar.has_value(), s);
  TextMesh b;
  if (legend.chart) chart_vertices(b, *legend.chart, area, s);
  b.quad(x, y, x + width + 2 * pad, y1, box, box);
  x += pad, y += pad;
  auto text_line = [&](const std::string& l) {
    float ls = size(l);
    b.text(x, y + 3 * s + (s - ls) * TextMesh::kHeight, l, ls, white);  // a shrunk line keeps its baseline
    y += line;
  };
  for (auto& l : legend.lines) text_line(l);
  if (legend.bar) {
    const auto& bar = *legend.bar;
    text_line(bar.label);
    auto table = colormap_table(bar.colormap);
    const int segments = 32;
    for (int i = 0; i < segments; ++i) {
      auto c0 = table[size_t(i * 255 / segments)], c1 = table[size_t((i + 1) * 255 / segments)];
      float a[4] = {c0[0], c0[1], c0[2], 1}, bb[4] = {c1[0], c1[1], c1[2], 1};
      b.quad(x + bar_w * float(i) / segments, y, x + bar_w * float(i + 1) / segments, y + bar_h, a, bb);
    }
    y += bar_h + 2 * s;
    std::string lo = number(bar.lo), mid = number(0.5f * (bar.lo + bar.hi)), hi = number(bar.hi);
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
  push::LegendPush push{glm::vec2(frame.extent.width, frame.extent.height),
                        glm::vec2(FontAtlas::kEdge / 255, 255 / FontAtlas::kPerPixel)};
  gpu::Bind atlas{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
  atlas.image = {sampler_, atlas_.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  pipeline_.bind(cmd, {gpu::storage_buffer(vertices_), atlas}, push);
  vkCmdDraw(cmd, uint32_t(v.size() / 8), 1, 0, 0);
}

}  // namespace render
