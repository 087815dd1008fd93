// The cloth's CPU twin (compute/cloth/cloth.h: substep_cpu, step_cpu, stats_cpu): the same
// Verlet step, relaxations and collisions as the shaders, operation for operation, in
// float, for the tests and the benchmark's CPU column.
#include "compute/cloth/cloth.h"

#include <algorithm>
#include <cmath>

namespace cloth {

namespace {

float length3(glm::vec3 v) { return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }

// The CPU twin of collide.glsl: out of the sphere and above the ground by the thickness,
// then friction against the motion since the step's start x0.
glm::vec3 friction_after(const Config& c, glm::vec3 x, glm::vec3 x0, glm::vec3 n, float p) {
  glm::vec3 dx = x - x0;
  glm::vec3 t = dx - (dx.x * n.x + dx.y * n.y + dx.z * n.z) * n;
  float lt = length3(t);
  if (lt > 0.0f) x -= t * std::min(c.friction * p / lt, 1.0f);
  return x;
}

glm::vec3 collide_cpu(const Config& c, glm::vec3 x, glm::vec3 x0) {
  if (c.sphere_on && c.sphere.w > 0) {
    glm::vec3 r = x - glm::vec3(c.sphere);
    float d = length3(r), reach = c.sphere.w + c.thickness;
    if (d < reach && d > 0.0f) {
      glm::vec3 n = r / d;
      float p = reach - d;
      x = glm::vec3(c.sphere) + n * reach;
      x = friction_after(c, x, x0, n, p);
    }
  }
  float floor_y = (c.ground_on ? c.ground : kNoGround) + c.thickness;
  if (x.y < floor_y) {
    float p = floor_y - x.y;
    x.y = floor_y;
    x = friction_after(c, x, x0, {0.0f, 1.0f, 0.0f}, p);
  }
  return x;
}

// The CPU twin of project.comp for edge a–b; x0: the step's start.
void project_one(const Config& c, std::vector<glm::vec4>& x, const std::vector<glm::vec4>& x0, size_t ia, size_t ib,
                 float len) {
  glm::vec4 pa = x[ia], pb = x[ib];
  float w = pa.w + pb.w;
  if (w == 0.0f) return;
  glm::vec3 ab = glm::vec3(pb) - glm::vec3(pa);
  float d = std::sqrt(ab.x * ab.x + ab.y * ab.y + ab.z * ab.z);
  if (d == 0.0f) return;
  glm::vec3 corr = c.stiffness * ((d - len) / d) * ab;
  if (pa.w > 0.0f) x[ia] = glm::vec4(collide_cpu(c, glm::vec3(pa) + (pa.w / w) * corr, x0[ia]), pa.w);
  if (pb.w > 0.0f) x[ib] = glm::vec4(collide_cpu(c, glm::vec3(pb) - (pb.w / w) * corr, x0[ib]), pb.w);
}

// The CPU twin of relax.comp for one particle, reading `in`.
glm::vec4 relax_one(const Config& c, const std::vector<glm::vec4>& in, const std::vector<glm::vec4>& x0, uint32_t x,
                    uint32_t y) {
  glm::vec4 p = in[size_t(y) * c.width + x];
  if (p.w == 0.0f) return p;
  glm::vec3 delta(0.0f);
  auto constrain = [&](int dx, int dy, float len) {
    int nx = int(x) + dx, ny = int(y) + dy;
    if (nx < 0 || ny < 0 || nx >= int(c.width) || ny >= int(c.height)) return;
    glm::vec4 q = in[size_t(ny) * c.width + size_t(nx)];
    glm::vec3 ab = glm::vec3(q) - glm::vec3(p);
    float d = std::sqrt(ab.x * ab.x + ab.y * ab.y + ab.z * ab.z);
    float share = c.correction == Correction::Thesis ? 0.5f : p.w / (p.w + q.w);  // the thesis: no masses
    if (d > 0.0f) delta += share * ((d - len) / d) * ab;
  };
  float rest = c.rest();
  constrain(-1, 0, rest), constrain(1, 0, rest), constrain(0, -1, rest), constrain(0, 1, rest);
  if (c.shear) {
    float diag = rest * 1.41421356f;
    constrain(-1, -1, diag), constrain(1, -1, diag), constrain(-1, 1, diag), constrain(1, 1, diag);
  }
  if (c.bend)
    constrain(-2, 0, 2 * rest), constrain(2, 0, 2 * rest), constrain(0, -2, 2 * rest), constrain(0, 2, 2 * rest);
  size_t i = size_t(y) * c.width + x;
  return glm::vec4(collide_cpu(c, glm::vec3(p) + c.relaxation_scale() * delta, x0[i]), p.w);
}

// The CPU twin of attach.comp, in place.
void attach_cpu(const Config& c, std::vector<glm::vec4>& x, const std::vector<glm::vec4>& x0) {
  for (uint32_t y = 0; y < c.height; ++y)
    for (uint32_t xx = 0; xx < c.width; ++xx) {
      size_t i = size_t(y) * c.width + xx;
      if (x[i].w == 0.0f) continue;
      glm::vec3 p(x[i]);
      for (int k = 0; k < 4; ++k) {
        glm::vec4 q = x[corner_index(c, k)];
        if (q.w != 0.0f) continue;
        float gx = float(int(xx) - int((k & 1) * (c.width - 1))), gy = float(int(y) - int((k >> 1) * (c.height - 1)));
        float reach = c.rest() * std::sqrt(gx * gx + gy * gy);
        glm::vec3 r = p - glm::vec3(q);
        float d = length3(r);
        if (d > reach) p = glm::vec3(q) + r * (reach / d);
      }
      x[i] = glm::vec4(collide_cpu(c, p, x0[i]), x[i].w);
    }
}

}  // namespace

void substep_cpu(const Config& c, std::vector<glm::vec4>& x, std::vector<glm::vec4>& prev) {
  std::vector<glm::vec4> a(c.n());
  float h = c.substep_dt(), dt2 = h * h, d = c.substep_damping();
  glm::vec3 g = c.gravity * dt2;
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = x[i].w == 0.0f ? x[i] : glm::vec4((1.0f + d) * glm::vec3(x[i]) - d * glm::vec3(prev[i]) + g, x[i].w);
  std::vector<glm::vec4> b = a;
  for (uint32_t it = 0; it < c.iterations; ++it) {
    if (c.order == Order::Jacobi) {
      for (uint32_t y = 0; y < c.height; ++y)
        for (uint32_t xx = 0; xx < c.width; ++xx) b[size_t(y) * c.width + xx] = relax_one(c, a, x, xx, y);
      a.swap(b);
    } else {
      for (auto& f : families(c))
        for (uint32_t phase = 0; phase < f.stride; ++phase)
          for (uint32_t y = 0; y < c.height; ++y)
            for (uint32_t xx = 0; xx < c.width; ++xx) {
              if ((f.along_y ? y : xx) % f.stride != phase) continue;
              int bx = int(xx) + f.dx, by = int(y) + f.dy;
              if (bx < 0 || by < 0 || bx >= int(c.width) || by >= int(c.height)) continue;
              project_one(c, a, x, size_t(y) * c.width + xx, size_t(by) * c.width + size_t(bx), f.factor * c.rest());
            }
    }
    if (c.attachments) attach_cpu(c, a, x);
  }
  prev.swap(x);
  x.swap(a);
}

void step_cpu(const Config& c, std::vector<glm::vec4>& x, std::vector<glm::vec4>& prev) {
  for (uint32_t sub = 0; sub < c.substeps; ++sub) substep_cpu(c, x, prev);
}

Stats stats_cpu(const Config& c, const std::vector<glm::vec4>& x, const std::vector<glm::vec4>& prev) {
  Stats s;
  double sum_sq = 0, sum_abs = 0, ke = 0;
  s.min_y = s.min_sphere_gap = INFINITY;
  s.max_y = -INFINITY;
  float h = c.substep_dt();
  float r = c.rest();
  for (uint32_t y = 0; y < c.height; ++y)
    for (uint32_t xx = 0; xx < c.width; ++xx) {
      size_t i = size_t(y) * c.width + xx;
      glm::vec3 p(x[i]);
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
        ++s.non_finite;
        continue;
      }
      for (size_t j : {xx + 1 < c.width ? i + 1 : i, y + 1 < c.height ? i + c.width : i})
        if (j != i) {
          double st = (glm::length(glm::vec3(x[j]) - p) - r) / r;
          s.max_stretch = std::max(s.max_stretch, float(std::fabs(st)));
          sum_sq += st * st;
          sum_abs += std::fabs(st);
        }
      glm::vec3 v = p - glm::vec3(prev[i]);
      ke += 0.5 * glm::dot(v, v) / (h * h) / c.n();
      s.min_y = std::min(s.min_y, p.y);
      s.max_y = std::max(s.max_y, p.y);
      if (c.sphere_on) s.min_sphere_gap = std::min(s.min_sphere_gap, glm::length(p - glm::vec3(c.sphere)) - c.sphere.w);
    }
  s.rms_stretch = float(std::sqrt(sum_sq / (2.0 * c.n() - c.width - c.height)));
  s.mean_stretch = float(sum_abs / (2.0 * c.n() - c.width - c.height));
  s.kinetic = float(ke);
  for (int k = 0; k < 4; ++k) s.corners[k] = x[corner_index(c, k)];
  return s;
}

}  // namespace cloth
