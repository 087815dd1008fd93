#include "render/chart.h"

#include "render/legend.h"

#include <algorithm>
#include <cmath>

namespace render {

namespace {
const float kWhite[4] = {0.95f, 0.95f, 0.95f, 1}, kShade[4] = {0, 0, 0, 0.6f};

float widest(const std::vector<Tick>& ticks) {
  float w = 0;
  for (auto& t : ticks) w = std::max(w, TextMesh::width(t.text));
  return w;
}

struct Margins {
  float left, right, top, bottom;
};

// Around the image at text scale s: the y tick labels (and the y axis's name over them) on the
// left, the title above (and under the window's transport bar), below the x tick labels and the
// x axis's name (the legend has its band beside or under the chart: render/legend.h).
Margins margins(VkRect2D area, const Chart& c, float s) {
  float aw = float(area.extent.width), ah = float(area.extent.height), m = std::min(aw, ah), line = TextMesh::kLine * s;
  float left = std::max(widest(c.y_ticks), c.y_label.empty() ? 0.0f : TextMesh::width(c.y_label)) * s + 12 * s;
  float bottom = 6 * s + (c.x_ticks.empty() ? 0 : line) + (c.x_label.empty() ? 0 : line);
  float top = std::max(0.12f * m, 2.5f * line);
  if (!c.title.empty()) {  // the title under the transport bar, wrapped where it is too long
    size_t lines = wrap_text(c.title, aw - 0.06f * m, s).size();
    top = std::max(top, 0.06f * m + (1.4f + float(lines)) * line);
  }
  return {std::clamp(left, 0.03f * m, 0.35f * aw), 0.03f * m, top, std::min(bottom, 0.5f * ah)};
}

}  // namespace

Rect chart_rect(VkRect2D area, const Chart& c) {
  float aw = float(area.extent.width), ah = float(area.extent.height);
  Margins g = margins(area, c, picture_text_scale(ah));
  float bw = std::max(1.0f, aw - g.left - g.right), bh = std::max(1.0f, ah - g.top - g.bottom);
  float x = float(area.offset.x) + g.left, y = float(area.offset.y) + g.top;
  if (c.fill) return {x, y, bw, bh};
  float gw = float(std::max(c.grid_w, 1u)), gh = float(std::max(c.grid_h, 1u)) * c.cell_aspect;
  float s = std::min(bw / gw, bh / gh), w = s * gw, h = s * gh;
  return {x + 0.5f * (bw - w), y + 0.5f * (bh - h), w, h};
}

// The title, the y label, the ticks on both axes, the x label, then the notes, each sized to
// the room it has.
void chart_vertices(TextMesh& mesh, const Chart& c, VkRect2D area, float scale) {
  Rect r = chart_rect(area, c);
  float cw = r.w / float(std::max(c.grid_w, 1u)), ch = r.h / float(std::max(c.grid_h, 1u));
  float ax = float(area.offset.x), aw = float(area.extent.width),
        edge = 0.03f * std::min(aw, float(area.extent.height));
  const float ts = std::min(scale, picture_text_scale(float(area.extent.height)));  // chart_rect's room is for this
  auto fit = [&](const std::string& s, float room) { return std::min(ts, room / std::max(1.0f, TextMesh::width(s))); };
  const float line = TextMesh::kLine * ts, h = TextMesh::kHeight;
  // Where a title or the x axis's name goes: centred on the image, or on the picture where wider.
  auto centred = [&](float w) {
    return w <= r.w ? r.x + 0.5f * (r.w - w) : std::clamp(ax + 0.5f * (aw - w), r.x + r.w - w, r.x);
  };
  // Above the image: the title, the y axis's name over the tick labels.
  if (!c.title.empty()) {  // wrapped, never shrunk: its last line where a one-line title goes
    auto lines = wrap_text(c.title, aw - 2 * edge, ts);
    for (size_t i = 0; i < lines.size(); ++i) {
      float w = ts * TextMesh::width(lines[i]);
      float x = std::clamp(centred(w), ax + edge, ax + aw - edge - w);
      mesh.text(x, r.y - (2.2f + float(lines.size() - 1 - i)) * line, lines[i], ts, kWhite);
    }
  }
  if (!c.y_label.empty()) {
    float s = fit(c.y_label, r.x - ax - 8 * ts);
    mesh.text(r.x - 7 * ts - s * TextMesh::width(c.y_label), r.y - 1.1f * line, c.y_label, s, kWhite);
  }
  // y ticks: right-aligned left of the image, one text size for all, no taller than their spacing.
  float ys = ts;
  for (auto& t : c.y_ticks) ys = std::min(ys, fit(t.text, r.x - ax - 10 * ts));
  for (size_t i = 1; i < c.y_ticks.size(); ++i)
    ys = std::min(ys, std::abs(c.y_ticks[i].at - c.y_ticks[i - 1].at) * ch / (h + 3));
  for (auto& t : c.y_ticks) {
    float y = r.y + t.at * ch;
    mesh.quad(r.x - 4 * ts, y - 0.5f * ts, r.x, y + 0.5f * ts, kWhite, kWhite);
    mesh.text(r.x - 7 * ts - ys * TextMesh::width(t.text), y - 0.5f * ys * h, t.text, ys, kWhite);
  }
  // x ticks: centred below the image; the text shrinks so neighbours keep a gap between them.
  float xs = ts, wide = std::max(1.0f, widest(c.x_ticks));
  for (size_t i = 1; i < c.x_ticks.size(); ++i)
    xs = std::min(xs, 0.85f * std::abs(c.x_ticks[i].at - c.x_ticks[i - 1].at) * cw / wide);
  float below = r.y + r.h + 6 * ts;
  for (auto& t : c.x_ticks) {
    float x = r.x + t.at * cw;
    mesh.quad(x - 0.5f * ts, r.y + r.h, x + 0.5f * ts, r.y + r.h + 4 * ts, kWhite, kWhite);
    mesh.text(x - 0.5f * xs * TextMesh::width(t.text), below, t.text, xs, kWhite);
  }
  if (!c.x_ticks.empty()) below += line;
  if (!c.x_label.empty()) {
    float s = fit(c.x_label, aw - 2 * edge), w = s * TextMesh::width(c.x_label);
    float x = std::clamp(centred(w), ax + edge, ax + aw - edge - w);
    mesh.text(x, below, c.x_label, s, kWhite);
  }
  // Notes: centred on their point (capitals' middle there) on a shade.
  for (auto& n : c.notes) {
    float s = n.max_w > 0 ? fit(n.text, n.max_w * cw) : ts;
    if (n.max_h > 0) s = std::min(s, n.max_h * ch / h);
    float w = s * TextMesh::width(n.text);
    float x = r.x + n.x * cw - 0.5f * w, y = r.y + n.y * ch - 0.5f * s * h;
    mesh.quad(x - 2 * s, y - 2 * s, x + w + 2 * s, y + (h + 2) * s, kShade, kShade);
    mesh.text(x, y, n.text, s, kWhite);
  }
}

}  // namespace render
