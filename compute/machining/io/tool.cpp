#include "compute/machining/io/tool.h"
#include "compute/io/output.h"

#include "compute/io/input.h"

#include <algorithm>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace machining {

namespace {
constexpr float kPiF = 3.14159265358979f;

void quad(Mesh& m, glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d) {
  m.vertices.insert(m.vertices.end(), {a, b, c, a, c, d});
}

// A surface of revolution through the profile points (r, z) from bottom to top: triangles
// where r = 0 at an end, quads elsewhere.
Mesh revolve(const std::vector<glm::vec2>& profile, uint32_t slices) {
  Mesh m;
  for (uint32_t s = 0; s < slices; ++s) {
    float a0 = 2 * kPiF * s / slices, a1 = 2 * kPiF * (s + 1) / slices;
    auto at = [&](glm::vec2 p, float a) { return glm::vec3(p.x * std::cos(a), p.x * std::sin(a), p.y); };
    for (size_t k = 0; k + 1 < profile.size(); ++k) {
      glm::vec2 p = profile[k], q = profile[k + 1];
      if (p.x == 0 && q.x == 0) continue;
      if (p.x == 0)
        m.vertices.insert(m.vertices.end(), {at(p, a0), at(q, a1), at(q, a0)});
      else if (q.x == 0)
        m.vertices.insert(m.vertices.end(), {at(p, a0), at(p, a1), at(q, a0)});
      else
        quad(m, at(p, a0), at(p, a1), at(q, a1), at(q, a0));
    }
  }
  return m;
}

[[noreturn]] void fail(const std::string& name, const std::string& where, const std::string& what) {
  throw std::runtime_error(name + ": " + where + ": " + what);
}
}  // namespace

glm::vec3 Mesh::lo() const {
  glm::vec3 l(INFINITY);
  for (auto& v : vertices) l = glm::min(l, v);
  return l;
}
glm::vec3 Mesh::hi() const {
  glm::vec3 h(-INFINITY);
  for (auto& v : vertices) h = glm::max(h, v);
  return h;
}

Mesh ball_end(float r, uint32_t slices) {
  // stacks chosen so that the triangle count is 2·slices·(stacks − 1): 16 -> 11, 32 -> 32, 79 -> 80
  uint32_t stacks = slices == 16 ? 11 : slices + (slices >= 64 ? 1 : 0);
  std::vector<glm::vec2> profile;
  for (uint32_t k = 0; k <= stacks; ++k) {
    float t = kPiF * k / stacks;  // from the bottom pole up
    profile.push_back({k == 0 || k == stacks ? 0.0f : r * std::sin(t), r - r * std::cos(t)});
  }
  return revolve(profile, slices);
}

Mesh cone(float r, float h, uint32_t slices) { return revolve({{0, 0}, {r, h}, {0, h}}, slices); }

Mesh flat_end(float r, float h, uint32_t slices) { return revolve({{0, 0}, {r, 0}, {r, h}, {0, h}}, slices); }

// rings = slices / 2, a multiple of 4: the outermost ring is exact
uint32_t bull_nose_rings(uint32_t slices) { return std::max(8u, (slices / 2 + 2) / 4 * 4); }

Mesh bull_nose(float r, float corner, uint32_t slices, uint32_t triangles) {
  // a torus: tube centre circle of radius r − corner at height corner
  const uint32_t rings = bull_nose_rings(slices), quads = slices * rings;
  const uint32_t split = triangles > 2 * quads ? (triangles - 2 * quads) / 2 : 0;  // quads in four, not two
  Mesh m;
  float R = r - corner;
  auto at = [&](float si, float ki) {
    float a = 2 * kPiF * si / float(slices), t = 2 * kPiF * ki / float(rings);
    float rr = R + corner * std::sin(t);
    return glm::vec3(rr * std::cos(a), rr * std::sin(a), corner - corner * std::cos(t));
  };
  for (uint32_t s = 0; s < slices; ++s)
    for (uint32_t k = 0; k < rings; ++k) {
      glm::vec3 a = at(float(s), float(k)), b = at(float(s + 1), float(k)), c = at(float(s + 1), float(k + 1)),
                d = at(float(s), float(k + 1));
      const uint64_t q = uint64_t(s) * rings + k;  // split where q·split / quads steps up: spread evenly
      if ((q + 1) * split / quads > q * split / quads) {
        glm::vec3 o = at(float(s) + 0.5f, float(k) + 0.5f);
        m.vertices.insert(m.vertices.end(), {a, b, o, b, c, o, c, d, o, d, a, o});
      } else {
        quad(m, a, b, c, d);
      }
    }
  return m;
}

const std::vector<std::string>& tool_shapes() {
  static const std::vector<std::string> s = {"sphere", "torus", "cone", "flat"};
  return s;
}

Mesh make_tool(const std::string& shape, float diameter, uint32_t triangles) {
  float r = diameter / 2;
  if (shape == "sphere") {
    uint32_t slices = triangles <= 320 ? 16 : triangles <= 1984 ? 32 : 79;
    return ball_end(r, slices);
  }
  if (shape == "cone") return cone(r, diameter, std::max(3u, triangles / 2));
  if (shape == "flat") return flat_end(r, diameter, std::max(3u, triangles / 4));
  if (shape == "torus") {
    // the most slices whose 2·slices·rings triangles stay within the count, then quads split
    // to reach it: the seed's 25904 -> 161 x 80 quads (25760 triangles), 72 of them split
    uint32_t slices = std::max(8u, uint32_t(std::lround(std::sqrt(float(triangles)))));
    while (slices > 8 && 2 * slices * bull_nose_rings(slices) > triangles) --slices;
    return bull_nose(r, r / 4, slices, triangles);
  }
  throw std::invalid_argument("unknown tool shape '" + shape + "' (sphere, torus, cone, flat)");
}

glm::vec3 AnalyticTool::lo() const { return {-radius, -radius, 0.0f}; }
glm::vec3 AnalyticTool::hi() const {
  return {radius, radius, shape == 0 ? 2 * radius : shape == 1 ? 2 * corner : height};
}

AnalyticTool analytic_tool(const std::string& shape, float diameter) {
  const auto& names = tool_shapes();
  auto it = std::find(names.begin(), names.end(), shape);
  if (it == names.end()) throw std::invalid_argument("unknown tool shape '" + shape + "' (sphere, torus, cone, flat)");
  AnalyticTool t;
  t.shape = uint32_t(it - names.begin());
  t.radius = diameter / 2;
  t.corner = t.shape == 1 ? t.radius / 4 : 0.0f;
  t.height = t.shape >= 2 ? diameter : 0.0f;
  return t;
}

Mesh read_stl(const std::filesystem::path& path) { return parse_stl(io::read_input(path), path.string()); }

// Binary and ASCII STL in one reader, so that both make the same checks.
Mesh parse_stl(const std::string& data, const std::string& path) {
  if (data.empty()) fail(path, "offset 0", "empty file");
  Mesh m;
  auto check_vertex = [&](glm::vec3 v, const std::string& where) {
    if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) fail(path, where, "a vertex is not finite");
    if (glm::any(glm::greaterThan(glm::abs(v), glm::vec3(kMaxCoordinate))))
      fail(path, where, "a vertex lies beyond +-1e6");
  };
  // Binary: 80-byte header, uint32 count, 50 bytes a triangle. ASCII starts with "solid"
  // (some binary files do too: the size decides).
  if (data.size() >= 84) {
    uint32_t n;
    std::memcpy(&n, data.data() + 80, 4);
    if (data.size() == 84 + 50ull * n) {
      if (n == 0) fail(path, "offset 80", "no triangles");
      for (uint32_t t = 0; t < n; ++t)
        for (int k = 0; k < 3; ++k) {
          float v[3];
          size_t at = 84 + 50ull * t + 12 + 12 * k;
          std::memcpy(v, data.data() + at, 12);
          check_vertex({v[0], v[1], v[2]}, "offset " + std::to_string(at));
          m.vertices.emplace_back(v[0], v[1], v[2]);
        }
      return m;
    }
    if (data.compare(0, 5, "solid") != 0)
      fail(path, "offset 80",
           "binary STL of " + std::to_string(data.size()) + " bytes cannot hold the " + std::to_string(n) +
               " triangles its header counts (" + std::to_string(84 + 50ull * n) + " bytes)");
  }
  if (data.compare(0, 5, "solid") != 0) fail(path, "line 1", "neither ASCII STL ('solid ...') nor binary STL");
  std::istringstream in(data);
  std::string line;
  int lineno = 0, in_facet = 0;
  std::vector<glm::vec3> loop;
  bool ended = false;
  while (std::getline(in, line)) {
    ++lineno;
    std::istringstream ls(line);
    std::string word;
    if (!(ls >> word)) continue;
    std::string where = "line " + std::to_string(lineno);
    if (word == "solid" && lineno == 1) continue;
    if (ended) fail(path, where, "text after 'endsolid'");
    if (word == "facet") {
      if (in_facet) fail(path, where, "'facet' inside a facet");
      in_facet = 1, loop.clear();
    } else if (word == "outer" || word == "endloop") {
      if (!in_facet) fail(path, where, "'" + word + "' outside a facet");
    } else if (word == "vertex") {
      if (!in_facet) fail(path, where, "'vertex' outside a facet");
      glm::vec3 v;
      if (!(ls >> v.x >> v.y >> v.z)) fail(path, where, "a vertex needs three numbers");
      check_vertex(v, where);
      loop.push_back(v);
    } else if (word == "endfacet") {
      if (!in_facet) fail(path, where, "'endfacet' without 'facet'");
      if (loop.size() != 3) fail(path, where, "a facet has " + std::to_string(loop.size()) + " vertices, not 3");
      m.vertices.insert(m.vertices.end(), loop.begin(), loop.end());
      in_facet = 0;
    } else if (word == "endsolid") {
      if (in_facet) fail(path, where, "'endsolid' inside a facet");
      ended = true;
    } else {
      fail(path, where, "unknown keyword '" + word + "'");
    }
  }
  if (in_facet) fail(path, "line " + std::to_string(lineno), "the file ends inside a facet");
  if (m.vertices.empty()) fail(path, "line " + std::to_string(lineno), "no triangles");
  return m;
}

void write_stl(const std::filesystem::path& path, const Mesh& m) {
  io::OutputFile out(path);
  std::ofstream f(out.temporary(), std::ios::binary);
  char header[80] = "vklab tool mesh";
  f.write(header, 80);
  uint32_t n = uint32_t(m.triangles());
  f.write(reinterpret_cast<const char*>(&n), 4);
  for (size_t t = 0; t < n; ++t) {
    glm::vec3 a = m.vertices[3 * t], b = m.vertices[3 * t + 1], c = m.vertices[3 * t + 2];
    glm::vec3 nrm = glm::cross(b - a, c - a);
    float l = glm::length(nrm);
    if (l > 0) nrm /= l;
    f.write(reinterpret_cast<const char*>(&nrm), 12);
    for (auto* v : {&a, &b, &c}) f.write(reinterpret_cast<const char*>(v), 12);
    uint16_t attr = 0;
    f.write(reinterpret_cast<const char*>(&attr), 2);
  }
  f.close();
  if (!f) throw std::runtime_error(path.string() + ": cannot write");
  out.commit();
}

}  // namespace machining
