#include "chart.h"

#include <algorithm>

namespace render {

namespace {
const float kWhite[4] = {0.95f, 0.95f, 0.95f, 1}, kShade[4] = {0, 0, 0, 0.6f};
}

Rect chart_rect(VkRect2D area, const Chart& c) {
  float aw = float(area.extent.width), ah = float(area.extent.height), m = std::min(aw, ah);
  float left = 0.17f * m, right = 0.03f * m, top = 0.12f * m,
        bottom = 0.34f * m;  // top: under the window's transport bar
  float bw = std::max(1.0f, aw - left - right), bh = std::max(1.0f, ah - top - bottom);
  float gw = float(std::max(c.grid_w, 1u)), gh = float(std::max(c.grid_h, 1u)) * c.cell_aspect;
  float s = std::min(bw / gw, bh / gh), w = s * gw, h = s * gh;
  return {float(area.offset.x) + left + 0.5f * (bw - w), float(area.offset.y) + top + 0.5f * (bh - h), w, h};
}

// Long: title, y label, ticks on both axes, x label, then the notes, each sized to its room.
void chart_vertices(TextMesh& mesh, const Chart& c, VkRect2D area, float scale) {
  Rect r = chart_rect(area, c);
  float cw = r.w / float(std::max(c.grid_w, 1u)), ch = r.h / float(std::max(c.grid_h, 1u));
  float ax = float(area.offset.x);
  auto fit = [&](const std::string& s, float room) {
    return std::min(scale, room / std::max(1.0f, TextMesh::width(s)));
  };
  const float line = 12 * scale;
  // Above the image: the title centred, the y axis's name over the tick labels.
  if (!c.title.empty()) {
    float s = fit(c.title, r.w);
    mesh.text(r.x + 0.5f * (r.w - s * TextMesh::width(c.title)), r.y - 2.2f * line, c.title, s, kWhite);
  }
  if (!c.y_label.empty()) {
    float s = fit(c.y_label, r.x - ax - 8 * scale);
    mesh.text(r.x - 7 * scale - s * TextMesh::width(c.y_label), r.y - 1.1f * line, c.y_label, s, kWhite);
  }
  // y ticks: right-aligned left of the image, one text size for all, no taller than their spacing.
  float ys = scale;
  for (auto& t : c.y_ticks) ys = std::min(ys, fit(t.text, r.x - ax - 10 * scale));
  for (size_t i = 1; i < c.y_ticks.size(); ++i)
    ys = std::min(ys, std::abs(c.y_ticks[i].at - c.y_ticks[i - 1].at) * ch / (TextMesh::kHeight + 3));
  for (auto& t : c.y_ticks) {
    float y = r.y + t.at * ch;
    mesh.quad(r.x - 4 * scale, y - 0.5f * scale, r.x, y + 0.5f * scale, kWhite, kWhite);
    mesh.text(r.x - 7 * scale - ys * TextMesh::width(t.text), y - 0.5f * ys * TextMesh::kHeight, t.text, ys, kWhite);
  }
  // x ticks: centred below the image; the text shrinks so neighbours do not overlap.
  float xs = scale, widest = 1;
  for (auto& t : c.x_ticks) widest = std::max(widest, TextMesh::width(t.text));
  for (size_t i = 1; i < c.x_ticks.size(); ++i)
    xs = std::min(xs, 0.9f * std::abs(c.x_ticks[i].at - c.x_ticks[i - 1].at) * cw / widest);
  float bottom = r.y + r.h;
  for (auto& t : c.x_ticks) {
    float x = r.x + t.at * cw;
    mesh.quad(x - 0.5f * scale, bottom, x + 0.5f * scale, bottom + 4 * scale, kWhite, kWhite);
    mesh.text(x - 0.5f * xs * TextMesh::width(t.text), bottom + 6 * scale, t.text, xs, kWhite);
  }
  if (!c.x_label.empty()) {
    float s = fit(c.x_label, r.w);
    mesh.text(r.x + 0.5f * (r.w - s * TextMesh::width(c.x_label)), bottom + 8 * scale + line, c.x_label, s, kWhite);
  }
  for (auto& n : c.notes) {
    float s = n.max_w > 0 ? fit(n.text, n.max_w * cw) : scale;
    if (n.max_h > 0) s = std::min(s, n.max_h * ch / TextMesh::kHeight);
    float w = s * TextMesh::width(n.text);
    float x = r.x + n.x * cw - 0.5f * w, y = r.y + n.y * ch - 0.5f * s * TextMesh::kHeight;
    mesh.quad(x - 2 * s, y - 2 * s, x + w + 1 * s, y + (TextMesh::kHeight + 2) * s, kShade, kShade);
    mesh.text(x, y, n.text, s, kWhite);
  }
}

}  // namespace render
