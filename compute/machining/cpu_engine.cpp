// The seed's CPU engine (seed 003, "CPU Raster"): the multithreaded twin of the shaders'
// Z-buffer (zbuffer.glsl), operation for operation, so its heights equal the compute
// engines' bit for bit where the GPU divides exactly.
#include "zbuffer.h"

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace machining {

namespace {

struct Placed {
  glm::vec3 a, b, c;
  float area;
};
Placed place(const PackedPosition& P, const glm::vec3* v) {
  auto rot = [&](glm::vec3 x) {
    return glm::vec3(P.r0.x * x.x + P.r0.y * x.y + P.r0.z * x.z, P.r1.x * x.x + P.r1.y * x.y + P.r1.z * x.z,
                     P.r2.x * x.x + P.r2.y * x.y + P.r2.z * x.z);
  };
  Placed t{rot(v[0]), rot(v[1]), rot(v[2]), 0};
  t.area = (t.b.x - t.a.x) * (t.c.y - t.a.y) - (t.b.y - t.a.y) * (t.c.x - t.a.x);
  return t;
}
// A placed triangle's edge terms in the engine's precision R, as the shaders' hit()
// forms them (tool frame, zbuffer.glsl): the same operations, so the same bits.
template <class R>
struct Edges {
  R ax, ay, bx, by, cx, cy, az, bz, cz;
  R cbx, cby, acx, acy, bax, bay, area;  // c - b, a - c, b - a; twice the signed area
  explicit Edges(const Placed& t)
      : ax(t.a.x),
        ay(t.a.y),
        bx(t.b.x),
        by(t.b.y),
        cx(t.c.x),
        cy(t.c.y),
        az(t.a.z),
        bz(t.b.z),
        cz(t.c.z),
        cbx(cx - bx),
        cby(cy - by),
        acx(ax - cx),
        acy(ay - cy),
        bax(bx - ax),
        bay(by - ay),
        area((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) {}
  // Brin at (px, py) relative to the tip: inside by edge functions (edges included), then the
  // height below the tip by barycentric interpolation, divided only for a brin inside.
  bool hit(R px, R py, R& z) const {
    R w0 = cbx * (py - by) - cby * (px - bx);
    R w1 = acx * (py - cy) - acy * (px - cx);
    R w2 = bax * (py - ay) - bay * (px - ax);
    bool inside = area > 0 ? (w0 >= 0 && w1 >= 0 && w2 >= 0) : (w0 <= 0 && w1 <= 0 && w2 <= 0);
    if (inside) z = (w0 * az + w1 * bz + w2 * cz) / area;
    return inside;
  }
  // hit() for brins i .. i + 7 of one row, lane by lane the same operations; lowers row[].
  void hit8(const Stock& s, const PackedPosition& P, int i, R py, R* row) const;
};

// Eight floats or ints, one per triangle (GCC's vector extensions: two SSE halves on the
// x86-64 baseline). They never cross a library boundary, so GCC's note that AVX would pass
// them differently does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"
using f8 = float __attribute__((vector_size(32)));
using i8 = int __attribute__((vector_size(32)));

// Triangles as eights for the range pass: their extents in the tool frame (the last eight
// padded) and which placed triangle each lane is.
struct Eights {
  std::vector<f8> lox, loy, hix, hiy;
  std::vector<uint32_t> index;
  void add(uint32_t t, glm::vec4 e) {  // e: lo.x, lo.y, hi.x, hi.y
    size_t k = index.size() % 8;
    if (k == 0) lox.push_back(f8{}), loy.push_back(f8{}), hix.push_back(f8{}), hiy.push_back(f8{});
    lox.back()[k] = e.x, loy.back()[k] = e.y, hix.back()[k] = e.z, hiy.back()[k] = e.w;
    index.push_back(t);
  }
};

// Where the lattice of brins falls under the tool repeats with the tip's position modulo the
// spacing (its phase). Once a rotation has served kPhaseAfter positions (a 3-axis path), its
// triangles are sorted into kPhases x kPhases phase cells: a cell keeps the triangles whose
// extent can hold a brin for a phase in the cell, widened by `margin` brins for the rounding
// of the range pass, so a position's cell holds every triangle the full list would find
// over a brin.
constexpr int kPhases = 16;
constexpr int kPhaseAfter = 16;

// The tool's triangles as placed by one rotation: a 3-axis path (one rotation throughout)
// places them once; a 5-axis path again at each new rotation.
template <class R>
struct PlacedTool {
  PackedPosition last{};  // its rotation rows, compared bit for bit (a -0 places differently from +0)
  bool valid = false;
  int uses = 0;
  std::vector<glm::vec4> extents;  // lo.x, lo.y, hi.x, hi.y of the triangles with area != 0
  std::vector<Edges<R>> edges;
  Eights all;
  std::vector<Eights> cells;  // kPhases² once the rotation has served kPhaseAfter positions
  void update(const PackedPosition& P, const Mesh& tool, const Stock& s, float margin) {
    if (valid && std::memcmp(&P.r0, &last.r0, 3 * sizeof(glm::vec4)) == 0) {
      if (++uses == kPhaseAfter) sort_by_phase(s, margin);
      return;
    }
    last = P, valid = true, uses = 1;
    extents.clear(), edges.clear(), cells.clear(), all = Eights{};
    for (size_t t = 0; t < tool.triangles(); ++t) {
      Placed tr = place(P, &tool.vertices[3 * t]);
      if (tr.area == 0.0f) continue;
      glm::vec2 lo = glm::min(glm::min(glm::vec2(tr.a), glm::vec2(tr.b)), glm::vec2(tr.c));
      glm::vec2 hi = glm::max(glm::max(glm::vec2(tr.a), glm::vec2(tr.b)), glm::vec2(tr.c));
      all.add(uint32_t(edges.size()), glm::vec4(lo, hi));
      extents.emplace_back(lo, hi), edges.emplace_back(tr);
    }
  }
  // Column i is at i - (tip - x0) / d brins in the tool frame, i.e. k - u for an integer k and
  // the phase u in [0, 1): over the phases [u0, u1] the extent [lo, hi] (in brins) can hold a
  // column iff [lo + u0, hi + u1] holds an integer.
  void sort_by_phase(const Stock& s, float margin) {
    cells.assign(size_t(kPhases) * kPhases, Eights{});
    auto holds = [&](double lo, double hi, int c) {
      return std::ceil(lo / s.d + double(c) / kPhases - margin) <=
             std::floor(hi / s.d + double(c + 1) / kPhases + margin);
    };
    for (int cy = 0; cy < kPhases; ++cy)
      for (int cx = 0; cx < kPhases; ++cx)
        for (size_t t = 0; t < extents.size(); ++t) {
          glm::vec4 e = extents[t];
          if (holds(e.x, e.z, cx) && holds(e.y, e.w, cy)) cells[size_t(cy) * kPhases + cx].add(uint32_t(t), e);
        }
  }
  const Eights& candidates(const PackedPosition& P, const Stock& s) const {
    if (cells.empty()) return all;
    auto cell = [&](float tip, float origin) {
      double u = (double(tip) - double(origin)) / double(s.d);
      return std::min(int((u - std::floor(u)) * kPhases), kPhases - 1);
    };
    return cells[size_t(cell(P.t.y, s.y0)) * kPhases + cell(P.t.x, s.x0)];
  }
};

// ceil and floor of floats within the int range, lane by lane, as int(std::ceil(x)) and
// int(std::floor(x)): truncate, then step where the truncation fell on the wrong side
// (a true comparison is -1).
inline __attribute__((always_inline)) i8 ceil8(f8 x) {
  i8 t = __builtin_convertvector(x, i8);
  return t - (__builtin_convertvector(t, f8) < x);
}
inline __attribute__((always_inline)) i8 floor8(f8 x) {
  i8 t = __builtin_convertvector(x, i8);
  return t + (__builtin_convertvector(t, f8) > x);
}
inline __attribute__((always_inline)) i8 max8(i8 a, i8 b) { return a > b ? a : b; }
inline __attribute__((always_inline)) i8 min8(i8 a, i8 b) { return a < b ? a : b; }

// Eight brins' coordinates and the comparisons' masks in the engine's precision.
using d8 = double __attribute__((vector_size(64)));
using l8 = int64_t __attribute__((vector_size(64)));
template <class R>
struct Lanes;
template <>
struct Lanes<float> {
  using V = f8;
  using M = i8;
};
template <>
struct Lanes<double> {
  using V = d8;
  using M = l8;
};

template <class R>
void Edges<R>::hit8(const Stock& s, const PackedPosition& P, int i, R py, R* row) const {
  using V = typename Lanes<R>::V;
  using M = typename Lanes<R>::M;
  V px;
  for (int k = 0; k < 8; ++k) px[k] = (R(s.x0) + R(i + k) * R(s.d)) - R(P.t.x);
  V w0 = cbx * (py - by) - cby * (px - bx);
  V w1 = acx * (py - cy) - acy * (px - cx);
  V w2 = bax * (py - ay) - bay * (px - ax);
  M inside = area > 0 ? (w0 >= 0) & (w1 >= 0) & (w2 >= 0) : (w0 <= 0) & (w1 <= 0) & (w2 <= 0);
  if (!(inside[0] | inside[1] | inside[2] | inside[3] | inside[4] | inside[5] | inside[6] | inside[7])) return;
  V h = R(P.t.z) + (w0 * az + w1 * bz + w2 * cz) / area;
  for (int k = 0; k < 8; ++k)
    if (inside[k] && height_key(h[k]) < height_key(row[i + k])) row[i + k] = h[k];
}

// The stock's rows are cut into bands, up to 8 a thread, handed out one at a time (a band where
// the path lingers does not hold the others up); a band belongs to one thread, so no atomics.
// Positions whose tool cannot reach the band are skipped. For each position the brin ranges of
// eight triangles are computed at once (brin_range's arithmetic: the same float operations in
// each lane); only triangles over a brin of the band go on to the hit tests.
template <class R>
void mill_cpu_t(const Stock& s, std::vector<R>& heights, const Mesh& tool, const std::vector<Position>& path,
                uint32_t threads) {
  if (heights.size() != size_t(s.nx) * s.ny) throw std::invalid_argument("mill_cpu: heights do not match the stock");
  if (!threads) threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<PackedPosition> packed;
  packed.reserve(path.size());
  glm::vec3 lo = tool.lo(), hi = tool.hi();
  float reach = 0;  // the most rows a placed tool spans
  for (auto& p : path)
    packed.push_back(pack(p, lo, hi)), reach = std::max(reach, (packed.back().t.w - packed.back().r1.w) / s.d);
  // Bands at least 4 tool spans high (a position reaching two bands is placed twice), up to 8 a thread.
  const uint32_t bands = std::clamp(uint32_t(float(s.ny) / std::max(4 * reach, 1.0f)), std::min(threads, s.ny),
                                    std::min(s.ny, threads * 8));
  // The range pass's rounding, in brins: three float operations on magnitudes up to `scale`,
  // with room to spare.
  float scale = std::fabs(s.x0) + std::fabs(s.y0) + glm::length(hi - lo);
  for (auto& P : packed) scale = std::max(scale, std::max(std::fabs(P.t.x), std::fabs(P.t.y)) + glm::length(hi - lo));
  const float margin = 16 * FLT_EPSILON * scale / s.d + 1e-6f;
  int exponent;
  const bool pow2 = std::frexp(s.d, &exponent) == 0.5f && std::isnormal(1.0f / s.d);
  const f8 inv_d = f8{} + 1.0f / s.d;
  std::atomic<uint32_t> next{0};
  std::vector<std::thread> pool;
  for (uint32_t k = 0; k < threads; ++k)
    pool.emplace_back([&] {
      PlacedTool<R> placed;
      for (uint32_t band; (band = next++) < bands;) {
        int j0 = int(uint64_t(s.ny) * band / bands), j1 = int(uint64_t(s.ny) * (band + 1) / bands);
        for (auto& P : packed) {
          float ylo = (P.t.y + P.r1.w - s.y0) / s.d, yhi = (P.t.y + P.t.w - s.y0) / s.d;
          if (yhi < float(j0) - 1 || ylo > float(j1) + 1) continue;
          placed.update(P, tool, s, margin);
          const Eights& cand = placed.candidates(P, s);
          const f8 tx = f8{} + P.t.x, ty = f8{} + P.t.y, x0 = f8{} + s.x0, y0 = f8{} + s.y0, d = f8{} + s.d;
          const i8 zero = i8{}, ilo = i8{} + j0, ihi_x = i8{} + (int(s.nx) - 1), ihi_y = i8{} + (j1 - 1);
          for (size_t g = 0; g < cand.lox.size(); ++g) {
            f8 flox = (tx + cand.lox[g]) - x0, floy = (ty + cand.loy[g]) - y0;
            f8 fhix = (tx + cand.hix[g]) - x0, fhiy = (ty + cand.hiy[g]) - y0;
            if (pow2)  // x / d == x * (1 / d) when 1 / d is exact
              flox *= inv_d, floy *= inv_d, fhix *= inv_d, fhiy *= inv_d;
            else
              flox /= d, floy /= d, fhix /= d, fhiy /= d;
            i8 rx = max8(ceil8(flox), zero), ry = max8(ceil8(floy), ilo);
            i8 rz = min8(floor8(fhix), ihi_x), rw = min8(floor8(fhiy), ihi_y);
            i8 over = (rx <= rz) & (ry <= rw);
            size_t lanes = std::min<size_t>(8, cand.index.size() - 8 * g);
            for (size_t l = 0; l < lanes; ++l) {
              if (!over[l]) continue;
              const Edges<R>& e = placed.edges[cand.index[8 * g + l]];
              for (int j = ry[l]; j <= rw[l]; ++j) {
                R py = (R(s.y0) + R(j) * R(s.d)) - R(P.t.y);
                R* row = &heights[size_t(j) * s.nx];
                int i = rx[l];
                for (; i + 7 <= rz[l]; i += 8) e.hit8(s, P, i, py, row);  // large triangles: eight brins at once
                for (; i <= rz[l]; ++i) {
                  R px = (R(s.x0) + R(i) * R(s.d)) - R(P.t.x), z;
                  if (e.hit(px, py, z)) {
                    R h = R(P.t.z) + z;
                    if (height_key(h) < height_key(row[i])) row[i] = h;
                  }
                }
              }
            }
          }
        }
      }
    });
  for (auto& t : pool) t.join();
}

}  // namespace

void mill_cpu(const Stock& s, std::vector<float>& h, const Mesh& tool, const std::vector<Position>& path,
              uint32_t threads) {
  mill_cpu_t(s, h, tool, path, threads);
}

void mill_cpu(const Stock& s, std::vector<double>& h, const Mesh& tool, const std::vector<Position>& path,
              uint32_t threads) {
  mill_cpu_t(s, h, tool, path, threads);
}

}  // namespace machining
