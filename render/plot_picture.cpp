#include "render/plot_picture.h"

#include "render/plot_axes.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace render {

namespace {

const float kText[4] = {0.92f, 0.92f, 0.94f, 1}, kAxis[4] = {0.72f, 0.72f, 0.76f, 1};
const float kFrame[4] = {0.13f, 0.13f, 0.16f, 1}, kGrid[4] = {1, 1, 1, 0.12f}, kCurve[4] = {0.43f, 0.75f, 1.0f, 1};

// A segment `width` pixels wide as two triangles.
void segment(TextMesh& m, float x0, float y0, float x1, float y1, float width, const float c[4]) {
  float dx = x1 - x0, dy = y1 - y0, len = std::sqrt(dx * dx + dy * dy);
  if (len == 0) return;
  float nx = -dy / len * width * 0.5f, ny = dx / len * width * 0.5f;
  m.vertex(x0 + nx, y0 + ny, -1, -1, c), m.vertex(x1 + nx, y1 + ny, -1, -1, c), m.vertex(x0 - nx, y0 - ny, -1, -1, c);
  m.vertex(x1 + nx, y1 + ny, -1, -1, c), m.vertex(x1 - nx, y1 - ny, -1, -1, c), m.vertex(x0 - nx, y0 - ny, -1, -1, c);
}

}  // namespace

void plot_vertices(TextMesh& m, const PlotPicture& p, VkRect2D area, float s) {
  std::vector<std::pair<double, double>> pts;
  for (size_t i = 0; i < p.y.size(); ++i) {
    double x = p.x.empty() ? double(i) : p.x[i], y = p.y[i];
    if (p.log_y) y = y > 0 ? std::log10(y) : NAN;
    if (std::isfinite(x) && std::isfinite(y)) pts.push_back({x, y});
  }
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  if (!pts.empty()) {
    auto [xa, xb] = std::minmax_element(pts.begin(), pts.end(), [](auto& a, auto& b) { return a.first < b.first; });
    auto [ya, yb] = std::minmax_element(pts.begin(), pts.end(), [](auto& a, auto& b) { return a.second < b.second; });
    x0 = xa->first, x1 = xb->first > x0 ? xb->first : x0 + 1;
    y0 = ya->second, y1 = yb->second;
    plot_range(y0, y1);
  }
  auto y_ticks = nice_ticks(y0, y1, 5), x_ticks = nice_ticks(x0, x1, 6);
  auto y_text = tick_labels(y_ticks), x_text = tick_labels(x_ticks);
  if (p.log_y)
    for (auto& t : y_text) t = "1e" + t;

  // Margins: the title and the y axis's label above, the widest y label left, x labels below.
  const float line = TextMesh::kHeight * s, gap = 0.8f * line;
  float widest = 0;
  for (auto& t : y_text) widest = std::max(widest, TextMesh::width(t) * s);
  float ax = float(area.offset.x), ay = float(area.offset.y);
  float aw = float(area.extent.width), ah = float(area.extent.height);
  float left = ax + 2 * gap + widest, right = ax + aw - 2 * gap;
  float top = ay + 2 * gap + 2 * (line + gap), bottom = ay + ah - 2 * gap - 2 * (line + gap);
  if (right - left < 4 * line || bottom - top < 4 * line) return;  // too small to draw a plot in

  m.text(ax + 2 * gap, ay + 2 * gap, p.title, s * 1.15f, kText);
  m.text(left, ay + 2 * gap + line + gap, p.y_label, s, kAxis);
  m.quad(left, top, right, bottom, kFrame, kFrame);
  auto X = [&](double x) { return left + float((x - x0) / (x1 - x0)) * (right - left); };
  auto Y = [&](double y) { return bottom - float((y - y0) / (y1 - y0)) * (bottom - top); };
  const float thin = std::max(1.0f, 0.15f * s);
  for (size_t i = 0; i < y_ticks.size(); ++i) {
    float y = Y(y_ticks[i]);
    m.quad(left, y - thin * 0.5f, right, y + thin * 0.5f, kGrid, kGrid);
    m.text(left - gap - TextMesh::width(y_text[i]) * s, y - 0.5f * line, y_text[i], s, kAxis);
  }
  float last_end = -1e9f;  // x labels never overlap: one that would is left out
  for (size_t i = 0; i < x_ticks.size(); ++i) {
    float x = X(x_ticks[i]), w = TextMesh::width(x_text[i]) * s;
    m.quad(x - thin * 0.5f, bottom, x + thin * 0.5f, bottom + 0.5f * gap, kAxis, kAxis);
    float at = std::clamp(x - 0.5f * w, left, right - w);
    if (at < last_end + gap) continue;
    m.text(at, bottom + gap, x_text[i], s, kAxis);
    last_end = at + w;
  }
  m.text(0.5f * (left + right) - 0.5f * TextMesh::width(p.x_label) * s, bottom + 2 * gap + line, p.x_label, s, kAxis);
  // the frame's edges, then the line over everything
  for (auto [a, b, c, d] : {std::array<float, 4>{left, top, right, top},
                            {right, top, right, bottom},
                            {right, bottom, left, bottom},
                            {left, bottom, left, top}})
    segment(m, a, b, c, d, thin, kAxis);
  const float width = std::max(2.0f, 0.35f * s);
  for (size_t i = 1; i < pts.size(); ++i)
    segment(m, X(pts[i - 1].first), Y(pts[i - 1].second), X(pts[i].first), Y(pts[i].second), width, kCurve);
  if (pts.size() == 1) {
    float cx = X(pts[0].first), cy = Y(pts[0].second);
    m.quad(cx - 2 * width, cy - 2 * width, cx + 2 * width, cy + 2 * width, kCurve, kCurve);
  }
}

}  // namespace render
