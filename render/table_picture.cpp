#include "render/table_picture.h"

#include <algorithm>

namespace render {

namespace {

constexpr float kTableMargin = 16, kCellPad = 8;  // at scale 1

std::vector<float> column_widths(const TablePicture& t, float s) {
  std::vector<float> w(t.header.size(), 0.0f);
  auto widen = [&](const std::vector<std::string>& row) {
    if (row.size() > w.size()) w.resize(row.size(), 0.0f);
    for (size_t c = 0; c < row.size(); ++c) w[c] = std::max(w[c], TextMesh::width(row[c]) * s);
  };
  widen(t.header);
  for (auto& r : t.rows) widen(r);
  for (float& x : w) x += 2 * kCellPad * s;
  return w;
}

}  // namespace

VkExtent2D table_picture_size(const TablePicture& t, float s) {
  auto w = column_widths(t, s);
  float width = 0;
  for (float x : w) width += x;
  width = std::max(width, TextMesh::width(t.title) * s) + 2 * kTableMargin * s;
  float line = TextMesh::kLine * s * 1.5f;
  float height = 2 * kTableMargin * s + line * float(t.rows.size() + 1) + (t.title.empty() ? 0 : 1.5f * line);
  return {uint32_t(std::ceil(width)) & ~1u, uint32_t(std::ceil(height)) & ~1u};  // even: a video frame too
}

void table_vertices(TextMesh& m, const TablePicture& t, VkRect2D area, float s) {
  const float white[4] = {0.95f, 0.95f, 0.95f, 1}, head[4] = {0.55f, 0.8f, 1.0f, 1};
  const float rule[4] = {1, 1, 1, 0.25f}, band[4] = {1, 1, 1, 0.05f};
  auto w = column_widths(t, s);
  float total = 0;
  for (float x : w) total += x;
  const float line = TextMesh::kLine * s * 1.5f, x0 = float(area.offset.x) + kTableMargin * s;
  float y = float(area.offset.y) + kTableMargin * s;
  if (!t.title.empty()) {
    m.text(x0, y, t.title, s, white);
    y += 1.5f * line;
  }
  auto row = [&](const std::vector<std::string>& cells, const std::vector<uint32_t>* colours, const float* c0) {
    float x = x0;
    for (size_t c = 0; c < cells.size() && c < w.size(); ++c) {
      float colour[4] = {c0[0], c0[1], c0[2], 1};
      if (colours && c < colours->size() && (*colours)[c] != 0) {
        uint32_t v = (*colours)[c];
        colour[0] = float(v >> 16 & 255) / 255, colour[1] = float(v >> 8 & 255) / 255, colour[2] = float(v & 255) / 255;
      }
      m.text(x + kCellPad * s, y + (line - TextMesh::kHeight * s) * 0.5f, cells[c], s, colour);
      x += w[c];
    }
    y += line;
    m.quad(x0, y - s * 0.5f, x0 + total, y + s * 0.5f, rule, rule);
  };
  row(t.header, nullptr, head);
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (r % 2 == 1) m.quad(x0, y, x0 + total, y + line, band, band);
    row(t.rows[r], r < t.colours.size() ? &t.colours[r] : nullptr, white);
  }
}

}  // namespace render
