#include "compute/machining/analytic.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <thread>

namespace machining {

namespace {
constexpr uint32_t kTorusSamples = 64, kTorusRefine = 24;
constexpr float kTorusSpan = 0.0985f, kGolden = 0.618034f;  // as analytic.glsl

bool vertical(const PackedPosition& P) { return P.r2.z == 1.0f; }
}  // namespace

std::vector<glm::vec4> analytic_table(const AnalyticTool& t) {
  std::vector<glm::vec4> v{glm::vec4(float(t.shape), t.radius, t.corner, t.height)};
  for (uint32_t k = 0; k < kTorusSamples; ++k) {
    double a = 2 * M_PI * k / kTorusSamples;
    v.emplace_back(float(std::cos(a)), float(std::sin(a)), 0.0f, 0.0f);
  }
  return v;
}

uint32_t analytic_cost(const AnalyticTool& t, const std::vector<Position>& path) {
  if (t.shape != 1) return 1;
  for (auto& p : path)
    if (vertical(pack(p, t.lo(), t.hi())) == false) return kTorusSamples + kTorusRefine + 2;
  return 1;
}

namespace {

// analytic.glsl's functions, operation for operation (this library builds without contraction).
template <class R>
struct Exact {
  const PackedPosition& P;
  const std::vector<glm::vec4>& table;
  R px, py;
  static constexpr R kNone = R(3.0e38);

  R ball(R r) const {
    R dx = px - r * R(P.r0.z), dy = py - r * R(P.r1.z);
    R s = r * r - (dx * dx + dy * dy);
    if (s < R(0)) return kNone;
    return r * R(P.r2.z) - std::sqrt(s);
  }

  R revolved(R k, R b0, R h) const {
    R qx = px * R(P.r0.x) + py * R(P.r1.x);
    R qy = px * R(P.r0.y) + py * R(P.r1.y);
    R qz = px * R(P.r0.z) + py * R(P.r1.z);
    R ux = R(P.r2.x), uy = R(P.r2.y), uz = R(P.r2.z);
    R best = kNone;
    R rq = k * qz + b0, ku = k * uz;
    R A = (ux * ux + uy * uy) - ku * ku;
    R B = (qx * ux + qy * uy) - ku * rq;
    R C = (qx * qx + qy * qy) - rq * rq;
    R disc = B * B - A * C;
    if (disc >= R(0)) {
      R s = std::sqrt(disc);
      R q = B >= R(0) ? -(B + s) : s - B;
      if (q != R(0))
        for (int n = 0; n < 2; ++n) {
          if (n == 0 && A == R(0)) continue;
          R t = n == 0 ? q / A : C / q;
          R z = qz + t * uz;
          if (z >= R(0) && z <= h) best = std::min(best, t);
        }
    }
    if (uz != R(0))
      for (int n = 0; n < 2; ++n) {
        if (n == 0 && b0 == R(0)) continue;
        R zc = n == 0 ? R(0) : h;
        R t = (zc - qz) / uz;
        R x = qx + t * ux, y = qy + t * uy, rc = k * zc + b0;
        R x2 = x * x + y * y, rc2 = rc * rc;
        if (x2 <= rc2) best = std::min(best, t);
      }
    return best;
  }

  R core_ball(R cx, R cy, R Rr, R c) const {
    R lx = Rr * cx, ly = Rr * cy;
    R wx = (lx * R(P.r0.x) + ly * R(P.r0.y)) + c * R(P.r0.z);
    R wy = (lx * R(P.r1.x) + ly * R(P.r1.y)) + c * R(P.r1.z);
    R wz = (lx * R(P.r2.x) + ly * R(P.r2.y)) + c * R(P.r2.z);
    R dx = px - wx, dy = py - wy;
    R s = c * c - (dx * dx + dy * dy);
    if (s < R(0)) return kNone;
    return wz - std::sqrt(s);
  }

  R core_ball_at(R d0x, R d0y, R s, R Rr, R c) const {
    R vx = d0x - s * d0y, vy = d0y + s * d0x;
    R n = std::sqrt(vx * vx + vy * vy);
    return core_ball(vx / n, vy / n, Rr, c);
  }

  R torus(R r, R c) const {
    R Rr = r - c;
    if (vertical(P)) {
      R e = std::sqrt(px * px + py * py) - Rr;
      R s = c * c - e * e;
      if (s < R(0)) return kNone;
      return c - std::sqrt(s);
    }
    R best = kNone;
    uint32_t at = 0;
    for (uint32_t k = 0; k < kTorusSamples; ++k) {
      R z = core_ball(R(table[1 + k].x), R(table[1 + k].y), Rr, c);
      if (z < best) best = z, at = k;
    }
    if (best == kNone) return kNone;
    R d0x = R(table[1 + at].x), d0y = R(table[1 + at].y);
    R a = -R(kTorusSpan), b = R(kTorusSpan), g = R(kGolden);
    R x1 = b - g * (b - a), x2 = a + g * (b - a);
    R f1 = core_ball_at(d0x, d0y, x1, Rr, c), f2 = core_ball_at(d0x, d0y, x2, Rr, c);
    for (uint32_t n = 0; n < kTorusRefine; ++n) {
      best = std::min(best, std::min(f1, f2));
      if (f1 < f2) {
        b = x2, x2 = x1, f2 = f1;
        x1 = b - g * (b - a);
        f1 = core_ball_at(d0x, d0y, x1, Rr, c);
      } else {
        a = x1, x1 = x2, f1 = f2;
        x2 = a + g * (b - a);
        f2 = core_ball_at(d0x, d0y, x2, Rr, c);
      }
    }
    return std::min(best, std::min(f1, f2));
  }
};

template <class R>
void mill(const Stock& s, std::vector<R>& heights, const AnalyticTool& tool, const std::vector<Position>& path,
          uint32_t threads) {
  if (heights.size() != size_t(s.nx) * s.ny) throw std::invalid_argument("heights do not match the stock");
  const auto table = analytic_table(tool);
  std::vector<PackedPosition> packed;
  packed.reserve(path.size());
  for (auto& p : path) packed.push_back(pack(p, tool.lo(), tool.hi()));
  if (!threads) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = std::min(threads, s.ny);
  const uint32_t band = (s.ny + threads - 1) / threads;
  auto work = [&](uint32_t jb0, uint32_t jb1) {  // rows [jb0, jb1)
    for (const auto& P : packed) {
      // the placed tool's box, as analytic.glsl's raster_analytic() finds it
      float fx0 = ((P.t.x + P.r0.w) - s.x0) / s.d, fy0 = ((P.t.y + P.r1.w) - s.y0) / s.d;
      float fx1 = ((P.t.x + P.r2.w) - s.x0) / s.d, fy1 = ((P.t.y + P.t.w) - s.y0) / s.d;
      auto index = [](float f) { return int(std::clamp(double(f), -1.0, 1e9)); };  // no int overflow
      int i0 = std::max(index(std::ceil(fx0)), 0), i1 = std::min(index(std::floor(fx1)), int(s.nx) - 1);
      int j0 = std::max({index(std::ceil(fy0)), 0, int(jb0)}), j1 = std::min(index(std::floor(fy1)), int(jb1) - 1);
      for (int j = j0; j <= j1; ++j) {
        R py = (R(s.y0) + R(j) * R(s.d)) - R(P.t.y);
        R* row = heights.data() + size_t(j) * s.nx;
        for (int i = i0; i <= i1; ++i) {
          R z;
          if (!analytic_hit(tool, table, P, (R(s.x0) + R(i) * R(s.d)) - R(P.t.x), py, z)) continue;
          R h = R(P.t.z) + z;
          if (height_key(h) < height_key(row[i])) row[i] = h;
        }
      }
    }
  };
  std::vector<std::thread> pool;
  for (uint32_t k = 0; k < threads; ++k) pool.emplace_back(work, k * band, std::min(s.ny, (k + 1) * band));
  for (auto& t : pool) t.join();
}

}  // namespace

template <class R>
bool analytic_hit(const AnalyticTool& t, const std::vector<glm::vec4>& table, const PackedPosition& P, R px, R py,
                  R& z) {
  Exact<R> e{P, table, px, py};
  R r = R(t.radius), c = R(t.corner), h = R(t.height);
  R at = t.shape == 0   ? e.ball(r)
         : t.shape == 1 ? e.torus(r, c)
         : t.shape == 2 ? e.revolved(r / h, R(0), h)
                        : e.revolved(R(0), r, h);
  if (at == Exact<R>::kNone) return false;
  z = at;
  return true;
}
template bool analytic_hit<float>(const AnalyticTool&, const std::vector<glm::vec4>&, const PackedPosition&, float,
                                  float, float&);
template bool analytic_hit<double>(const AnalyticTool&, const std::vector<glm::vec4>&, const PackedPosition&, double,
                                   double, double&);

void mill_analytic_cpu(const Stock& s, std::vector<float>& heights, const AnalyticTool& tool,
                       const std::vector<Position>& path, uint32_t threads) {
  mill(s, heights, tool, path, threads);
}
void mill_analytic_cpu(const Stock& s, std::vector<double>& heights, const AnalyticTool& tool,
                       const std::vector<Position>& path, uint32_t threads) {
  mill(s, heights, tool, path, threads);
}

}  // namespace machining
