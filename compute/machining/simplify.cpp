#include "compute/machining/simplify.h"

#include "compute/machining/zbuffer.h"

#include <meshoptimizer.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

namespace machining {

IndexedMesh weld_mesh(const Mesh& m, float tolerance) {
  IndexedMesh out;
  std::map<std::tuple<long long, long long, long long>, uint32_t> seen;
  out.indices.reserve(m.vertices.size());
  for (const glm::vec3& p : m.vertices) {
    auto key = std::make_tuple(std::llround(double(p.x) / tolerance), std::llround(double(p.y) / tolerance),
                               std::llround(double(p.z) / tolerance));
    auto [it, added] = seen.try_emplace(key, uint32_t(out.positions.size()));
    if (added) out.positions.push_back(p);
    out.indices.push_back(it->second);
  }
  return out;
}

Mesh triangle_list(const IndexedMesh& m) {
  Mesh out;
  out.vertices.reserve(m.indices.size());
  for (uint32_t i : m.indices) out.vertices.push_back(m.positions[i]);
  return out;
}

namespace {

// A triangle with two corners alike, or of no area in float: nothing an engine could cut with.
bool simplify_degenerate(const IndexedMesh& m, size_t t) {
  uint32_t a = m.indices[3 * t], b = m.indices[3 * t + 1], c = m.indices[3 * t + 2];
  if (a == b || b == c || a == c) return true;
  glm::vec3 n = glm::cross(m.positions[b] - m.positions[a], m.positions[c] - m.positions[a]);
  return n.x == 0 && n.y == 0 && n.z == 0;
}

}  // namespace

Simplification simplify_tool(const Mesh& tool, uint32_t target) {
  const size_t before = tool.triangles();
  if (target < 4)
    throw std::invalid_argument("a simplified tool needs at least 4 triangles (a closed solid), not " +
                                std::to_string(target));
  if (target > before)
    throw std::invalid_argument("simplification to " + std::to_string(target) + " triangles asks for more than the " +
                                std::to_string(before) + " the tool has: give at most " + std::to_string(before) +
                                ", or 0 to keep the tool as loaded");
  auto t0 = std::chrono::steady_clock::now();
  glm::vec3 extent = tool.hi() - tool.lo();
  float size = std::max({extent.x, extent.y, extent.z});
  Simplification s;
  s.before = before;
  IndexedMesh welded = weld_mesh(tool, std::max(size, 1e-6f) * 1e-6f);
  std::vector<uint32_t> kept(welded.indices.size());
  float relative = 0;
  // Any error is accepted (1 = the mesh's whole extent): the target decides, as VCGLib's did.
  size_t count = meshopt_simplify(kept.data(), welded.indices.data(), welded.indices.size(), &welded.positions[0].x,
                                  welded.positions.size(), sizeof(glm::vec3), size_t(target) * 3, 1.0f, 0, &relative);
  kept.resize(count);
  IndexedMesh simplified{welded.positions, std::move(kept)};
  // Drop the vertices no triangle uses and the degenerate triangles.
  std::vector<uint32_t> remap(simplified.positions.size(), UINT32_MAX);
  for (size_t t = 0; t < simplified.triangles(); ++t) {
    if (simplify_degenerate(simplified, t)) continue;
    for (int k = 0; k < 3; ++k) {
      uint32_t& r = remap[simplified.indices[3 * t + k]];
      if (r == UINT32_MAX) {
        r = uint32_t(s.indexed.positions.size());
        s.indexed.positions.push_back(simplified.positions[simplified.indices[3 * t + k]]);
      }
      s.indexed.indices.push_back(r);
    }
  }
  if (s.indexed.triangles() > target || s.indexed.triangles() == 0)
    throw std::invalid_argument("meshoptimizer's edge collapse stops at " + std::to_string(s.indexed.triangles()) +
                                " triangles for this tool, above the " + std::to_string(target) +
                                " asked for (its surface allows no more collapses): ask for " +
                                std::to_string(s.indexed.triangles()) + " or more");
  s.mesh = triangle_list(s.indexed);
  s.estimate = double(relative) *
               double(meshopt_simplifyScale(&welded.positions[0].x, welded.positions.size(), sizeof(glm::vec3)));
  s.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return s;
}

ToolHeightError tool_height_error(const Mesh& a, const Mesh& b, float spacing, float depth) {
  if (!(spacing > 0) || !(depth > 0)) throw std::invalid_argument("tool_height_error: spacing and depth must be > 0");
  glm::vec3 lo = glm::min(a.lo(), b.lo()), hi = glm::max(a.hi(), b.hi());
  long long i0 = llround(std::floor(lo.x / spacing)) - 1, i1 = llround(std::ceil(hi.x / spacing)) + 1;
  long long j0 = llround(std::floor(lo.y / spacing)) - 1, j1 = llround(std::ceil(hi.y / spacing)) + 1;
  if (i1 - i0 >= 4096 || j1 - j0 >= 4096)
    throw std::invalid_argument("tool_height_error: the tool spans over 4096 samples of " + std::to_string(spacing));
  Stock s;
  s.nx = uint32_t(i1 - i0 + 1), s.ny = uint32_t(j1 - j0 + 1);
  s.d = spacing;
  s.x0 = float(i0) * spacing, s.y0 = float(j0) * spacing;
  s.top = depth;
  const std::vector<Position> tip_at_origin(1);
  std::vector<float> ha(size_t(s.nx) * s.ny, depth), hb = ha;
  mill_cpu(s, ha, a, tip_at_origin);
  mill_cpu(s, hb, b, tip_at_origin);
  ToolHeightError e;
  e.spacing = spacing, e.depth = depth;
  for (size_t i = 0; i < ha.size(); ++i) {
    if (!(ha[i] < depth || hb[i] < depth)) continue;
    double diff = std::fabs(double(ha[i]) - double(hb[i]));
    e.max_abs = std::max(e.max_abs, diff);
    e.mean_abs += diff;
    ++e.samples;
  }
  if (e.samples) e.mean_abs /= double(e.samples);
  return e;
}

FragmentStats fragment_stats(const Mesh& tool, float spacing) {
  FragmentStats f;
  const size_t n = tool.triangles();
  for (size_t t = 0; t < n; ++t) {
    glm::vec3 a = tool.vertices[3 * t], b = tool.vertices[3 * t + 1], c = tool.vertices[3 * t + 2];
    long long i0 = llround(std::ceil(std::min({a.x, b.x, c.x}) / spacing));
    long long i1 = llround(std::floor(std::max({a.x, b.x, c.x}) / spacing));
    long long j0 = llround(std::ceil(std::min({a.y, b.y, c.y}) / spacing));
    long long j1 = llround(std::floor(std::max({a.y, b.y, c.y}) / spacing));
    uint64_t cells = i1 >= i0 && j1 >= j0 ? uint64_t(i1 - i0 + 1) * uint64_t(j1 - j0 + 1) : 0;
    f.total_cells += cells;
    f.max_cells = std::max(f.max_cells, cells);
    // brins inside the triangle's projection (edge functions of either orientation)
    double area2 = double(b.x - a.x) * double(c.y - a.y) - double(b.y - a.y) * double(c.x - a.x);
    if (area2 != 0 && cells) {
      auto edge = [](glm::vec3 p, glm::vec3 q, double x, double y) {
        return (double(q.x) - p.x) * (y - p.y) - (double(q.y) - p.y) * (x - p.x);
      };
      double sign = area2 > 0 ? 1 : -1;
      for (long long j = j0; j <= j1; ++j)
        for (long long i = i0; i <= i1; ++i) {
          double x = double(i) * spacing, y = double(j) * spacing;
          if (sign * edge(a, b, x, y) >= 0 && sign * edge(b, c, x, y) >= 0 && sign * edge(c, a, x, y) >= 0) ++f.inside;
        }
    }
    float longest = std::max({glm::length(b - a), glm::length(c - b), glm::length(a - c)});
    float twice_area = glm::length(glm::cross(b - a, c - a));
    double aspect = twice_area > 0 ? double(longest) * longest / twice_area : INFINITY;
    f.max_aspect = std::max(f.max_aspect, aspect);
    f.thin += aspect > 10;
  }
  f.mean_cells = n ? double(f.total_cells) / double(n) : 0;
  f.inside_share = f.total_cells ? double(f.inside) / double(f.total_cells) : 0;
  return f;
}

}  // namespace machining
