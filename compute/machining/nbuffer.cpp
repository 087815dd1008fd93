#include "compute/machining/nbuffer.h"

#include "compute/machining/cpu_edges.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

namespace machining {

glm::vec4 bounding_sphere(const Mesh& tool) {
  glm::vec3 c = 0.5f * (tool.lo() + tool.hi());
  float r = 0;
  for (auto& v : tool.vertices) r = std::max(r, glm::length(v - c));
  return {c, r * (1 + 1e-4f) + 1e-6f};  // a margin for the kernels' rounding
}

namespace {
float dot3(glm::vec3 a, glm::vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// nbuffer.prec.comp's hit_ray() (zbuffer.glsl), operation for operation.
bool hit_ray(const Placed& t, glm::vec3 o, glm::vec3 D, float& dist) {
  const float eps = 1e-6f;
  float ax = t.a.x, ay = t.a.y, az = t.a.z;
  float e1x = t.b.x - ax, e1y = t.b.y - ay, e1z = t.b.z - az;
  float e2x = t.c.x - ax, e2y = t.c.y - ay, e2z = t.c.z - az;
  float px = D.y * e2z - D.z * e2y, py = D.z * e2x - D.x * e2z, pz = D.x * e2y - D.y * e2x;
  float det = e1x * px + e1y * py + e1z * pz;
  if (det > -eps && det < eps) return false;
  float inv_det = 1.0f / det;
  float tx = o.x - ax, ty = o.y - ay, tz = o.z - az;
  float u = (tx * px + ty * py + tz * pz) * inv_det;
  if (u < 0 || u > 1) return false;
  float qx = ty * e1z - tz * e1y, qy = tz * e1x - tx * e1z, qz = tx * e1y - ty * e1x;
  float v = (D.x * qx + D.y * qy + D.z * qz) * inv_det;
  if (v < 0 || u + v > 1) return false;
  dist = (e2x * qx + e2y * qy + e2z * qz) * inv_det;
  return true;
}

template <class F>
void rows_in_threads(uint32_t rows, uint32_t threads, F&& f) {
  if (!threads) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = std::min(threads, rows);
  std::vector<std::thread> pool;
  for (uint32_t k = 0; k < threads; ++k)
    pool.emplace_back([&, k] {
      for (uint32_t j = k; j < rows; j += threads) f(j);
    });
  for (auto& t : pool) t.join();
}
}  // namespace

void mill_nbuffer_cpu(const Stock& s, std::vector<float>& lengths, const Mesh& tool, const std::vector<Position>& path,
                      uint32_t threads) {
  if (lengths.size() != size_t(s.nx) * s.ny) throw std::invalid_argument("lengths do not match the stock");
  const auto rays = surface_rays(s);
  const glm::vec4 sphere = bounding_sphere(tool);
  std::vector<PackedPosition> packed;
  for (auto& p : path) packed.push_back(pack(p, tool));
  rows_in_threads(s.ny, threads, [&](uint32_t j) {
    for (uint32_t i = 0; i < s.nx; ++i) {
      const size_t b = size_t(j) * s.nx + i;
      const glm::vec4 ray = rays[b];
      const glm::vec3 D(ray);
      uint32_t best = height_key(lengths[b]);
      for (const PackedPosition& P : packed) {
        glm::vec3 o((s.x0 + float(i) * s.d) - P.t.x, (s.y0 + float(j) * s.d) - P.t.y, ray.w - P.t.z);
        const glm::vec3 sc(sphere);
        glm::vec3 c(dot3(glm::vec3(P.r0), sc), dot3(glm::vec3(P.r1), sc), dot3(glm::vec3(P.r2), sc));
        glm::vec3 w = c - o;
        float along = dot3(w, D), miss = dot3(w, w) - along * along;
        if (miss > sphere.w * sphere.w) continue;
        for (size_t t = 0; t < tool.triangles(); ++t) {
          float dist;
          if (hit_ray(place(P, &tool.vertices[3 * t]), o, D, dist)) best = std::min(best, height_key(dist));
        }
      }
      lengths[b] = key_height(best);
    }
  });
}

std::vector<double> nbuffer_exact_ball(const Stock& s, double r, const std::vector<Position>& path, uint32_t stride) {
  stride = std::max(stride, 1u);
  std::vector<double> out(size_t(s.nx) * s.ny, std::numeric_limits<double>::quiet_NaN());
  rows_in_threads(s.ny, 0, [&](uint32_t j) {
    if (j % stride) return;
    for (uint32_t i = 0; i < s.nx; i += stride) {
      const size_t b = size_t(j) * s.nx + i;
      out[b] = 0;
      glm::dvec3 x(double(s.x0) + double(i) * s.d, double(s.y0) + double(j) * s.d, 0.0);
      x.z = surface_height(s.surface, s.top, x.x, x.y);
      glm::dvec3 n = surface_normal(s.surface, x.x, x.y);
      for (auto& p : path) {
        glm::dvec3 q = x - (glm::dvec3(p.tip) + r * glm::dvec3(p.axis));  // from the ball's centre
        double beta = glm::dot(n, q), disc = beta * beta - (glm::dot(q, q) - r * r);
        if (disc >= 0) out[b] = std::min(out[b], -beta - std::sqrt(disc));
      }
    }
  });
  return out;
}

std::vector<double> lengths_from_heights(const Stock& s, const std::vector<float>& h, double reach) {
  if (h.size() != size_t(s.nx) * s.ny) throw std::invalid_argument("heights do not match the stock");
  auto bilinear = [&](double x, double y, bool& inside) {
    double fx = (x - s.x0) / s.d, fy = (y - s.y0) / s.d;
    inside = fx >= 0 && fy >= 0 && fx <= s.nx - 1.0 && fy <= s.ny - 1.0;
    fx = std::clamp(fx, 0.0, s.nx - 1.0), fy = std::clamp(fy, 0.0, s.ny - 1.0);
    uint32_t i = std::min(uint32_t(fx), s.nx - 2), j = std::min(uint32_t(fy), s.ny - 2);
    double u = fx - i, v = fy - j;
    auto at = [&](uint32_t a, uint32_t b) { return double(h[size_t(b) * s.nx + a]); };
    return (1 - v) * ((1 - u) * at(i, j) + u * at(i + 1, j)) + v * ((1 - u) * at(i, j + 1) + u * at(i + 1, j + 1));
  };
  std::vector<double> out(h.size());
  rows_in_threads(s.ny, 0, [&](uint32_t j) {
    for (uint32_t i = 0; i < s.nx; ++i) {
      glm::dvec3 x(double(s.x0) + double(i) * s.d, double(s.y0) + double(j) * s.d, 0.0);
      x.z = surface_height(s.surface, s.top, x.x, x.y);
      glm::dvec3 n = surface_normal(s.surface, x.x, x.y);
      bool inside = true;
      // above the heights at 0 (they only go down), below them at -reach: bisection between
      auto above = [&](double t) {
        glm::dvec3 p = x + t * n;
        return p.z >= bilinear(p.x, p.y, inside);
      };
      double lo = -reach, hi = 0;
      if (above(lo)) {
        hi = lo;
      } else if (!above(hi)) {
        lo = hi;
      } else {
        for (int k = 0; k < 60 && hi - lo > 1e-12 * (1 + reach); ++k)
          (above(0.5 * (lo + hi)) ? hi : lo) = 0.5 * (lo + hi);
      }
      above(hi);
      out[size_t(j) * s.nx + i] = inside ? hi : std::numeric_limits<double>::quiet_NaN();
    }
  });
  return out;
}

}  // namespace machining
