#include "compute/machining/stats.h"

#include <algorithm>
#include <cmath>

namespace machining {

CutStats cut_stats(const Stock& s, std::span<const float> heights, std::span<const float> start,
                   std::span<const float> areas) {
  CutStats r;
  r.min_height = INFINITY, r.max_height = -INFINITY;
  double depths = 0;
  for (size_t i = 0; i < heights.size(); ++i) {
    float v = heights[i];
    if (!std::isfinite(v)) {
      if (r.non_finite < 0) r.non_finite = std::ptrdiff_t(i);
      continue;
    }
    r.min_height = std::min(r.min_height, double(v)), r.max_height = std::max(r.max_height, double(v));
    double cut = (start.empty() ? double(s.top) : double(start[i])) - v;
    if (cut > 0)
      depths += cut, r.removed += cut * (areas.empty() ? 1.0 : double(areas[i])),
          r.max_depth = std::max(r.max_depth, cut), ++r.cut;
  }
  r.mean_depth = r.cut ? depths / double(r.cut) : 0.0;
  r.removed *= double(s.d) * s.d;
  if (r.min_height > r.max_height) r.min_height = r.max_height = 0;
  return r;
}

UlpComparison compare_ulps(std::span<const float> heights, std::span<const double> reference) {
  UlpComparison c;
  c.ulps.assign(heights.size(), 0.0f);
  c.histogram.assign(2 * UlpComparison::kSpan + 3, 0);
  for (size_t i = 0; i < heights.size(); ++i) {
    double ref = reference[i], e = double(heights[i]) - ref;
    float scale = std::max(1.0f, std::fabs(float(ref)));
    double ulps = e / double(std::nextafter(scale, INFINITY) - scale);
    if (!std::isfinite(ulps)) ulps = e > 0 ? 1e9 : -1e9;
    c.ulps[i] = float(ulps);
    c.differing += heights[i] != float(ref);
    c.max_ulps = std::max(c.max_ulps, std::fabs(ulps)), c.mean_abs_ulps += std::fabs(ulps);
    c.max_abs = std::max(c.max_abs, std::fabs(e));
    double bin = std::round(ulps);
    c.histogram[bin < -UlpComparison::kSpan  ? 0
                : bin > UlpComparison::kSpan ? 2 * UlpComparison::kSpan + 2
                                             : size_t(bin + UlpComparison::kSpan + 1)]++;
  }
  if (!heights.empty()) c.mean_abs_ulps /= double(heights.size());
  return c;
}

std::vector<float> laplacian(const Stock& s, std::span<const float> h) {
  std::vector<float> l(h.size(), 0.0f);
  const size_t nx = s.nx;
  const double d2 = double(s.d) * s.d;
  for (size_t j = 1; j + 1 < s.ny; ++j)
    for (size_t i = 1; i + 1 < nx; ++i) {
      size_t k = j * nx + i;
      l[k] = float((double(h[k - 1]) + h[k + 1] + h[k - nx] + h[k + nx] - 4.0 * h[k]) / d2);
    }
  return l;
}

std::vector<float> resample(const Stock& from, std::span<const float> h, const Stock& to) {
  std::vector<float> out(size_t(to.nx) * to.ny);
  for (uint32_t j = 0; j < to.ny; ++j)
    for (uint32_t i = 0; i < to.nx; ++i) {
      double x = std::clamp((double(to.x0) + i * double(to.d) - from.x0) / from.d, 0.0, double(from.nx - 1));
      double y = std::clamp((double(to.y0) + j * double(to.d) - from.y0) / from.d, 0.0, double(from.ny - 1));
      size_t i0 = std::min(size_t(x), size_t(from.nx - 2)), j0 = std::min(size_t(y), size_t(from.ny - 2));
      double fx = x - double(i0), fy = y - double(j0);
      auto at = [&](size_t a, size_t b) { return double(h[b * from.nx + a]); };
      out[size_t(j) * to.nx + i] = float((1 - fy) * ((1 - fx) * at(i0, j0) + fx * at(i0 + 1, j0)) +
                                         fy * ((1 - fx) * at(i0, j0 + 1) + fx * at(i0 + 1, j0 + 1)));
    }
  return out;
}

Roughness roughness(std::span<const float> z) {
  Roughness r;
  if (z.size() < 10) return r;
  double mean = 0;
  for (float v : z) mean += v;
  mean /= double(z.size());
  for (float v : z) r.ra += std::fabs(v - mean);
  r.ra /= double(z.size());
  for (int k = 0; k < 5; ++k) {
    size_t a = z.size() * k / 5, b = z.size() * (k + 1) / 5;
    auto [lo, hi] = std::minmax_element(z.begin() + long(a), z.begin() + long(b));
    r.rz += (*hi - *lo) / 5.0;
  }
  return r;
}

nlohmann::json to_json(const UlpComparison& c) {
  return {
      {"brins_differing", c.differing},   {"max_ulps", c.max_ulps},
      {"mean_abs_ulps", c.mean_abs_ulps}, {"max_abs", c.max_abs},
      {"histogram_ulps", c.histogram},    {"histogram_bins", "below -8, then -8 to 8 (rounded ulps), then above 8"}};
}

ToolStats tool_stats(const Mesh& tool) {
  ToolStats t;
  t.triangles = tool.triangles();
  t.bytes = 9 * sizeof(float) * t.triangles;
  if (!t.triangles) return t;
  t.lo = tool.lo(), t.hi = tool.hi();
  double edges = 0, area = 0;
  t.min_edge = INFINITY;
  for (size_t k = 0; k < t.triangles; ++k) {
    glm::dvec3 a = tool.vertices[3 * k], b = tool.vertices[3 * k + 1], c = tool.vertices[3 * k + 2];
    for (double e : {glm::length(b - a), glm::length(c - b), glm::length(a - c)}) {
      edges += e;
      t.min_edge = std::min(t.min_edge, e), t.max_edge = std::max(t.max_edge, e);
    }
    area += 0.5 * glm::length(glm::cross(b - a, c - a));
  }
  t.mean_edge = edges / double(3 * t.triangles);
  t.mean_area = area / double(t.triangles);
  return t;
}

MeshMemory mesh_memory(const Mesh& tool, double S) {
  MeshMemory m;
  m.triangles = tool.triangles();
  std::vector<glm::vec3> v = tool.vertices;
  auto less = [](const glm::vec3& a, const glm::vec3& b) {
    return a.x < b.x || (a.x == b.x && (a.y < b.y || (a.y == b.y && a.z < b.z)));
  };
  std::sort(v.begin(), v.end(), less);
  m.vertices = size_t(std::unique(v.begin(), v.end()) - v.begin());
  const double T = double(m.triangles), V = double(m.vertices);
  m.list = 9 * S * T;
  m.indexed = 3 * S * V + 3 * 4 * T;
  m.indexed16 = V < 65536 ? 3 * S * V + 3 * 2 * T : m.indexed;
  m.text = 3 * S * (T + 2) + 12 * T;
  m.printed = 2 + T + 3 * S * T;
  return m;
}

PathStats path_stats(const std::vector<Position>& path) {
  PathStats p;
  p.positions = path.size();
  if (path.empty()) return p;
  p.lo = p.hi = path[0].tip;
  for (size_t i = 0; i < path.size(); ++i) {
    p.lo = glm::min(p.lo, path[i].tip), p.hi = glm::max(p.hi, path[i].tip);
    if (i) p.travel += glm::length(glm::dvec3(path[i].tip) - glm::dvec3(path[i - 1].tip));
    p.five_axis |= path[i].axis != glm::vec3(0, 0, 1);
    p.spindle |= path[i].omega != 0;
  }
  p.bytes = path.size() * sizeof(float) * ((p.five_axis ? 6 : 3) + (p.spindle ? 1 : 0));
  return p;
}

}  // namespace machining
