#include "compute/machining/surface.h"

#include "compute/machining/zbuffer.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace machining {

const std::vector<std::string>& surface_names() {
  static const std::vector<std::string> n = {"flat", "cylinder", "dome"};
  return n;
}

SurfaceShape surface_from_name(const std::string& name) {
  const auto& n = surface_names();
  auto it = std::find(n.begin(), n.end(), name);
  if (it == n.end()) throw std::invalid_argument("unknown surface '" + name + "' (flat, cylinder, dome)");
  return SurfaceShape(it - n.begin());
}

namespace {
// The point's offset from the axis or the centre in the plane, (0, 0) on a flat surface.
glm::dvec2 offset(const Surface& f, double x, double y) {
  if (f.shape == SurfaceShape::Cylinder) return {0.0, y - f.centre.y};
  if (f.shape == SurfaceShape::Dome) return {x - f.centre.x, y - f.centre.y};
  return {0.0, 0.0};
}
}  // namespace

double surface_height(const Surface& f, double top, double x, double y) {
  if (f.shape == SurfaceShape::Flat) return top;
  double R = f.radius, r2 = glm::dot(offset(f, x, y), offset(f, x, y));
  return top - R + std::sqrt(std::max(0.0, R * R - r2));
}

glm::dvec3 surface_normal(const Surface& f, double x, double y) {
  if (f.shape == SurfaceShape::Flat) return {0.0, 0.0, 1.0};
  glm::dvec2 o = offset(f, x, y);
  double R = f.radius;
  return glm::dvec3(o, std::sqrt(std::max(0.0, R * R - glm::dot(o, o)))) / R;
}

void check_surface(const Stock& s) {
  const Surface& f = s.surface;
  if (f.shape == SurfaceShape::Flat) return;
  if (!(f.radius > 0) || !(f.radius <= 1e6)) throw std::invalid_argument("surface radius: within (0, 1e6]");
  // the farthest brin from the axis or the centre
  double x0 = double(s.x0) - f.centre.x, x1 = x0 + (s.nx - 1.0) * s.d;
  double y0 = double(s.y0) - f.centre.y, y1 = y0 + (s.ny - 1.0) * s.d;
  double x = std::max(std::fabs(x0), std::fabs(x1)), y = std::max(std::fabs(y0), std::fabs(y1));
  double far = f.shape == SurfaceShape::Cylinder ? y : std::hypot(x, y);
  double need = far / std::sqrt(1 - kMinNormalZ * kMinNormalZ);
  if (f.radius < need)
    throw std::invalid_argument("a " + surface_names()[size_t(f.shape)] + " of radius " + std::to_string(f.radius) +
                                " is steeper than 76 degrees on this stock: a radius of at least " +
                                std::to_string(need) + " is needed");
}

std::vector<glm::vec4> surface_rays(const Stock& s) {
  std::vector<glm::vec4> out;
  out.reserve(size_t(s.nx) * s.ny);
  for (uint32_t j = 0; j < s.ny; ++j)
    for (uint32_t i = 0; i < s.nx; ++i) {
      double x = double(s.x0) + double(i) * s.d, y = double(s.y0) + double(j) * s.d;
      out.emplace_back(glm::vec3(surface_normal(s.surface, x, y)), float(surface_height(s.surface, s.top, x, y)));
    }
  return out;
}

std::vector<float> surface_heights(const Stock& s) {
  std::vector<float> h;
  h.reserve(size_t(s.nx) * s.ny);
  for (auto& r : surface_rays(s)) h.push_back(r.w);
  return h;
}

std::vector<float> starting_values(const Stock& s) {
  return s.nbuffer ? std::vector<float>(size_t(s.nx) * s.ny, 0.0f) : surface_heights(s);
}

std::vector<float> surface_areas(const Stock& s) {
  std::vector<float> a;
  a.reserve(size_t(s.nx) * s.ny);
  for (auto& r : surface_rays(s)) a.push_back(1.0f / r.z);
  return a;
}

std::vector<Position> finishing_path(const Surface& f, float top, float size, float r, float stepover, uint32_t count,
                                     float depth) {
  uint32_t rows = std::max(1u, uint32_t(size / stepover));
  uint32_t per_row = std::max(2u, count / rows);
  std::vector<Position> out;
  for (uint32_t row = 0; row < rows; ++row)
    for (uint32_t k = 0; k < per_row; ++k) {
      double x = size * double(row % 2 ? per_row - 1 - k : k) / double(per_row - 1), y = stepover * (row + 0.5);
      glm::dvec3 c = glm::dvec3(x, y, surface_height(f, top, x, y)) + double(r - depth) * surface_normal(f, x, y);
      Position p;
      p.tip = glm::vec3(c.x, c.y, c.z - r);
      out.push_back(p);
    }
  return out;
}

}  // namespace machining
