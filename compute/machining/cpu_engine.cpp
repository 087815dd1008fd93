// The seed's CPU engine (seed 003, "CPU Raster"): the multithreaded twin of the shaders'
// Z-buffer (zbuffer.glsl), operation for operation, so its heights equal the compute
// engines' bit for bit where the GPU divides exactly.
#include "compute/machining/cpu_edges.h"
#include "compute/machining/zbuffer.h"

#include <immintrin.h>
#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <type_traits>

namespace machining {

namespace {

using i4 = int __attribute__((vector_size(16)));

// Rows first .. of the stock's heights, row j at data + (j - first) nx: the whole stock, or a
// thread's copy of the rows its positions reach.
template <class R>
struct Rows {
  R* data;
  int first;
  size_t nx;
  R* row(int j) const { return data + size_t(j - first) * nx; }
};

// Eight floats or ints, one per triangle (GCC's vector extensions: two SSE halves on the
// x86-64 baseline). They never cross a library boundary, so GCC's note that AVX would pass
// them differently does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"
using f8 = float __attribute__((vector_size(32)));
using i8 = int __attribute__((vector_size(32)));

// Triangles as eights for the range pass: their extents in the tool frame (the last eight
// padded) and which placed triangle each lane is. Where they were added by increasing lo.y
// (`sorted`), first_loy[g] is eight g's lowest lo.y and span the tallest extent: the eights
// that can reach a band of rows are then a range found by bisection.
struct Eights {
  std::vector<f8> lox, loy, hix, hiy;
  std::vector<uint32_t> index;
  std::vector<float> first_loy;
  float span = 0;
  bool sorted = false;
  void add(uint32_t t, glm::vec4 e) {  // e: lo.x, lo.y, hi.x, hi.y
    size_t k = index.size() % 8;
    if (k == 0)
      lox.push_back(f8{}), loy.push_back(f8{}), hix.push_back(f8{}), hiy.push_back(f8{}), first_loy.push_back(e.y);
    lox.back()[k] = e.x, loy.back()[k] = e.y, hix.back()[k] = e.z, hiy.back()[k] = e.w;
    index.push_back(t);
    span = std::max(span, e.w - e.y);
  }
  // The eights whose triangles can have lo.y <= hi and hi.y >= lo (all of them unless sorted).
  std::pair<size_t, size_t> between(float lo, float hi) const {
    if (!sorted) return {0, lox.size()};
    size_t g0 = size_t(std::lower_bound(first_loy.begin(), first_loy.end(), lo - span) - first_loy.begin());
    size_t g1 = size_t(std::upper_bound(first_loy.begin(), first_loy.end(), hi) - first_loy.begin());
    return {g0 ? g0 - 1 : 0, g1};
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
  std::vector<Placed> triangles;   // those with area != 0
  std::vector<Edges<R>> edges;     // triangles[t]'s, built when a brin first falls in its box
  std::vector<uint32_t> built;     // edges[t] is triangles[t]'s where built[t] == generation
  uint32_t generation = 0;
  Eights all;
  std::vector<Eights> cells;  // kPhases² once the rotation has served kPhaseAfter positions
  void update(const PackedPosition& P, const Mesh& tool, const Stock& s, float margin) {
    if (valid && std::memcmp(&P.r0, &last.r0, 3 * sizeof(glm::vec4)) == 0) {
      if (++uses == kPhaseAfter) sort_by_phase(s, margin);
      return;
    }
    last = P, valid = true, uses = 1;
    extents.clear(), triangles.clear(), cells.clear(), all = Eights{};
    ++generation;
    for (size_t t = 0; t < tool.triangles(); ++t) {
      Placed tr = place(P, &tool.vertices[3 * t]);
      if (tr.area == 0.0f) continue;
      glm::vec2 lo = glm::min(glm::min(glm::vec2(tr.a), glm::vec2(tr.b)), glm::vec2(tr.c));
      glm::vec2 hi = glm::max(glm::max(glm::vec2(tr.a), glm::vec2(tr.b)), glm::vec2(tr.c));
      all.add(uint32_t(triangles.size()), glm::vec4(lo, hi));
      extents.emplace_back(lo, hi), triangles.push_back(tr);
    }
    edges.resize(triangles.size()), built.resize(triangles.size(), 0);
  }
  // Column i is at i - (tip - x0) / d brins in the tool frame, i.e. k - u for an integer k and
  // the phase u in [0, 1): over the phases [u0, u1] the extent [lo, hi] (in brins) can hold a
  // column iff [lo + u0, hi + u1] holds an integer.
  // Each cell's triangles go in by increasing lo.y, for Eights::between.
  void sort_by_phase(const Stock& s, float margin) {
    cells.assign(size_t(kPhases) * kPhases, Eights{});
    std::vector<uint32_t> order(extents.size());
    for (uint32_t t = 0; t < order.size(); ++t) order[t] = t;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return extents[a].y < extents[b].y; });
    auto holds = [&](double lo, double hi, int c) {
      return std::ceil(lo / s.d + double(c) / kPhases - margin) <=
             std::floor(hi / s.d + double(c + 1) / kPhases + margin);
    };
    for (uint32_t t : order) {
      glm::vec4 e = extents[t];
      bool in_x[kPhases];
      for (int cx = 0; cx < kPhases; ++cx) in_x[cx] = holds(e.x, e.z, cx);
      for (int cy = 0; cy < kPhases; ++cy)
        if (holds(e.y, e.w, cy))
          for (int cx = 0; cx < kPhases; ++cx)
            if (in_x[cx]) cells[size_t(cy) * kPhases + cx].add(t, e);
    }
    for (auto& cell : cells) cell.sorted = true;
  }
  const Edges<R>& edge(uint32_t t) {
    if (built[t] != generation) edges[t] = Edges<R>(triangles[t]), built[t] = generation;
    return edges[t];
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

// Brins four at a time: their column and row numbers as ints, tested as four floats or as two
// pairs of doubles (one SSE register each).
using f4 = float __attribute__((vector_size(16)));
using d2 = double __attribute__((vector_size(16)));
inline __attribute__((always_inline)) unsigned lane_bits(i4 mask) { return unsigned(_mm_movemask_ps(__m128(mask))); }
inline __attribute__((always_inline)) unsigned lane_bits(int64_t __attribute__((vector_size(16))) mask) {
  return unsigned(_mm_movemask_pd(__m128d(mask)));
}

// A box w <= 4 brins wide is read in row-major order, four brins a group: group g's brins lie at
// column col[w][g % w] and row row[w][g % w] + 4 (g / w) of the box (the pattern repeats every
// w groups, that is every four rows).
struct BoxLanes {
  i4 col[5][4], row[5][4];
  BoxLanes() {
    for (int w = 1; w <= 4; ++w)
      for (int g = 0; g < w; ++g)
        for (int k = 0; k < 4; ++k) col[w][g][k] = (4 * g + k) % w, row[w][g][k] = (4 * g + k) / w;
  }
};
const BoxLanes kBoxLanes;

// The lanes of one register (V: four floats or two doubles): brins at columns fi, rows fj as
// numbers of the precision R, the same brins' ints in ci[], cj[], lane k where bit k of valid is
// set; Edges::hit() in each lane, and a brin inside lowered to the tool.
template <class R, class V>
inline __attribute__((always_inline)) void hit_lanes(const Edges<R>& e, const Stock& s, const PackedPosition& P, V fi,
                                                     V fj, unsigned valid, const int* ci, const int* cj,
                                                     const Rows<R>& heights) {
  V px = (R(s.x0) + fi * R(s.d)) - R(P.t.x);
  V py = (R(s.y0) + fj * R(s.d)) - R(P.t.y);
  V w0 = e.cbx * (py - e.by) - e.cby * (px - e.bx);
  V w1 = e.acx * (py - e.cy) - e.acy * (px - e.cx);
  V w2 = e.bax * (py - e.ay) - e.bay * (px - e.ax);
  unsigned bits = valid & (e.area > 0 ? lane_bits((w0 >= 0) & (w1 >= 0) & (w2 >= 0))
                                      : lane_bits((w0 <= 0) & (w1 <= 0) & (w2 <= 0)));
  if (!bits) return;
  V h = R(P.t.z) + (w0 * e.az + w1 * e.bz + w2 * e.cz) / e.area;
  for (; bits; bits &= bits - 1) {
    int k = __builtin_ctz(bits);
    R& b = heights.row(cj[k])[ci[k]];
    if (height_key(h[k]) < height_key(b)) b = h[k];
  }
}

// Four brins: columns ci, rows cj, lane k where bit k of valid is set.
template <class R>
inline __attribute__((always_inline)) void hit4(const Edges<R>& e, const Stock& s, const PackedPosition& P, i4 ci,
                                                i4 cj, unsigned valid, const Rows<R>& heights) {
  const int *i = &ci[0], *j = &cj[0];
  if constexpr (sizeof(R) == 4) {
    hit_lanes(e, s, P, __builtin_convertvector(ci, f4), __builtin_convertvector(cj, f4), valid, i, j, heights);
  } else {
    __m128i hi = _mm_unpackhi_epi64(__m128i(ci), __m128i(ci)), hj = _mm_unpackhi_epi64(__m128i(cj), __m128i(cj));
    hit_lanes(e, s, P, d2(_mm_cvtepi32_pd(__m128i(ci))), d2(_mm_cvtepi32_pd(__m128i(cj))), valid & 3, i, j, heights);
    if (valid >> 2)
      hit_lanes(e, s, P, d2(_mm_cvtepi32_pd(hi)), d2(_mm_cvtepi32_pd(hj)), valid >> 2, i + 2, j + 2, heights);
  }
}

// Whether a brin of the box [i0, i1] x [j0, j1] is not below h (a NaN is not), a register of
// a row at a time.
template <class R>
bool reaches(const Stock& s, const Rows<R>& heights, int i0, int j0, int i1, int j1, R h) {
  using V = std::conditional_t<sizeof(R) == 4, f4, d2>;
  constexpr int lanes = 16 / sizeof(R);
  for (int j = j0; j <= j1; ++j) {
    const R* row = heights.row(j);
    for (int i = i0; i <= i1; i += lanes)
      if (i + lanes <= int(s.nx)) {
        V v;
        std::memcpy(&v, row + i, sizeof v);
        if (lane_bits(~(v < h)) & ~(~0u << std::min(lanes, i1 - i + 1))) return true;
      } else {
        for (int k = i; k <= i1; ++k)
          if (!(row[k] < h)) return true;
      }
  }
  return false;
}

// The brins of the box [i0, i1] x [j0, j1] under a triangle: with the edge test four at a time.
template <class R>
void hit_box(const Edges<R>& e, const Stock& s, const PackedPosition& P, int i0, int j0, int i1, int j1,
             const Rows<R>& heights, HitTest test) {
  if (test != HitTest::Edge) {  // seed 003 §8.1 and §8.2, a brin at a time, every brin of the box
    for (int j = j0; j <= j1; ++j) {
      R py = (R(s.y0) + R(j) * R(s.d)) - R(P.t.y), z;
      R* row = heights.row(j);
      for (int i = i0; i <= i1; ++i)
        if (e.hit(test, (R(s.x0) + R(i) * R(s.d)) - R(P.t.x), py, z)) {
          R h = R(P.t.z) + z;
          if (height_key(h) < height_key(row[i])) row[i] = h;
        }
    }
    return;
  }
  // Every height hit() gives is at least R(P.t.z) + zlo (rounding is monotonic): a box whose
  // brins all lie below that keeps its heights.
  if (!reaches(s, heights, i0, j0, i1, j1, R(P.t.z) + e.zlo)) return;
  const int w = i1 - i0 + 1;
  if (w > 4) {  // row by row, four columns a group, the last group's lanes past i1 left out
    const i4 lane = {0, 1, 2, 3};
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; i += 4) hit4(e, s, P, lane + i, i4{} + j, 15u >> std::max(0, 3 - (i1 - i)), heights);
    return;
  }
  const int64_t n = int64_t(w) * (j1 - j0 + 1);
  int g = 0, row = j0;  // g: the group within the pattern, row: its first row
  for (int64_t first = 0; first < n; first += 4) {
    hit4(e, s, P, kBoxLanes.col[w][g] + i0, kBoxLanes.row[w][g] + row, 15u >> std::max<int64_t>(0, 4 - (n - first)),
         heights);
    if (++g == w) g = 0, row += 4;
  }
}

// Seed 003 §15.3, the world frame: the triangle moved to the tip (Edges::world()), every brin of
// the box tested where it lies, a brin at a time, the height the test's own. A triangle the
// translation's rounding flattened is skipped by the edge test (zbuffer.glsl's hit_edge()); a box
// whose brins all lie below the lowest height the triangle can give keeps its heights (hit_box()).
template <class R>
void hit_box_world(const Edges<R>& e, const Stock& s, int i0, int j0, int i1, int j1, const Rows<R>& heights,
                   HitTest test) {
  if (test == HitTest::Edge && e.area == 0) return;
  if (test == HitTest::Edge && !reaches(s, heights, i0, j0, i1, j1, e.zlo)) return;
  for (int j = j0; j <= j1; ++j) {
    R py = R(s.y0) + R(j) * R(s.d), z;
    R* row = heights.row(j);
    for (int i = i0; i <= i1; ++i)
      if (e.hit(test, R(s.x0) + R(i) * R(s.d), py, z) && height_key(z) < height_key(row[i])) row[i] = z;
  }
}

// What every position's milling shares: the range pass's constants.
struct RangePass {
  float margin;  // the range pass's rounding, in brins (phase cells widen by it)
  bool pow2;     // the spacing a power of two: x / d == x * (1 / d)
  f8 inv_d;
  HitTest test;
  Frame frame;
};

// One position over rows [j0, j1) of `heights`: the brin ranges of eight triangles at once
// (brin_range's arithmetic: the same float operations in each lane), then the hit tests of
// the triangles over a brin of those rows.
template <class R>
void mill_position(PlacedTool<R>& placed, const PackedPosition& P, const Stock& s, const Mesh& tool,
                   const RangePass& rp, int j0, int j1, const Rows<R>& heights) {
  placed.update(P, tool, s, rp.margin);
  const Eights& cand = placed.candidates(P, s);
  const f8 tx = f8{} + P.t.x, ty = f8{} + P.t.y, x0 = f8{} + s.x0, y0 = f8{} + s.y0, d = f8{} + s.d;
  const i8 zero = i8{}, ilo = i8{} + j0, ihi_x = i8{} + (int(s.nx) - 1), ihi_y = i8{} + (j1 - 1);
  // The rows [j0, j1) in the tool frame, widened by two brins and the range pass's rounding.
  const float pad = (2 + rp.margin) * s.d;
  auto [g0, g1] = cand.between((s.y0 + float(j0) * s.d) - P.t.y - pad, (s.y0 + float(j1) * s.d) - P.t.y + pad);
  for (size_t g = g0; g < g1; ++g) {
    f8 flox = (tx + cand.lox[g]) - x0, floy = (ty + cand.loy[g]) - y0;
    f8 fhix = (tx + cand.hix[g]) - x0, fhiy = (ty + cand.hiy[g]) - y0;
    if (rp.pow2)
      flox *= rp.inv_d, floy *= rp.inv_d, fhix *= rp.inv_d, fhiy *= rp.inv_d;
    else
      flox /= d, floy /= d, fhix /= d, fhiy /= d;
    i8 rx = max8(ceil8(flox), zero), ry = max8(ceil8(floy), ilo);
    i8 rz = min8(floor8(fhix), ihi_x), rw = min8(floor8(fhiy), ihi_y);
    i8 over = (rx <= rz) & (ry <= rw);
    size_t lanes = std::min<size_t>(8, cand.index.size() - 8 * g);
    for (size_t l = 0; l < lanes; ++l) {
      if (!over[l]) continue;
      const uint32_t t = cand.index[8 * g + l];
      if (rp.frame == Frame::World)
        hit_box_world(Edges<R>::world(placed.triangles[t], glm::vec3(P.t)), s, rx[l], ry[l], rz[l], rw[l], heights,
                      rp.test);
      else
        hit_box(placed.edge(t), s, P, rx[l], ry[l], rz[l], rw[l], heights, rp.test);
    }
  }
}

// The rows a position's tool can reach, [lo, hi) clamped to the stock.
std::pair<int, int> rows_reached(const PackedPosition& P, const Stock& s) {
  float ylo = (P.t.y + P.r1.w - s.y0) / s.d, yhi = (P.t.y + P.t.w - s.y0) / s.d;
  return {std::clamp(int(std::floor(ylo)) - 1, 0, int(s.ny)), std::clamp(int(std::ceil(yhi)) + 2, 0, int(s.ny))};
}

// Two ways to share the work between threads, the same heights bit for bit:
// - bands of the stock's rows, up to 8 a thread, handed out one at a time (a band where the
//   path lingers does not hold the others up); a band belongs to one thread, so no atomics;
//   positions whose tool cannot reach the band are skipped. A position reaching several bands
//   is placed in each: cheap where a rotation serves many positions (placed once a thread).
// - runs of consecutive positions, where the rotation changes at nearly every position (a
//   5-axis path places the tool anew each time): each run milled by one thread into its own
//   copy of the rows its positions reach, taken from the stock when the run starts, then
//   merged into it by the lower key (the lowering is a minimum, so order does not matter).
//   Used where every thread gets 4 runs and the copies fit in 1 GiB.
template <class R>
void mill_cpu_t(const Stock& s, std::vector<R>& heights, const Mesh& tool, const std::vector<Position>& path,
                uint32_t threads, HitTest test, Frame frame, CpuSchedule schedule) {
  if (heights.size() != size_t(s.nx) * s.ny) throw std::invalid_argument("mill_cpu: heights do not match the stock");
  if (!threads) threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<PackedPosition> packed;
  packed.reserve(path.size());
  glm::vec3 lo = tool.lo(), hi = tool.hi();
  float reach = 0;  // the most rows a placed tool spans
  size_t rotations = 0;
  for (auto& p : path) {
    packed.push_back(pack(p, lo, hi)), reach = std::max(reach, (packed.back().t.w - packed.back().r1.w) / s.d);
    rotations +=
        packed.size() == 1 || std::memcmp(&packed.back().r0, &packed[packed.size() - 2].r0, 3 * sizeof(glm::vec4)) != 0;
  }
  // The range pass's rounding, in brins: three float operations on magnitudes up to `scale`,
  // with room to spare.
  float scale = std::fabs(s.x0) + std::fabs(s.y0) + glm::length(hi - lo);
  for (auto& P : packed) scale = std::max(scale, std::max(std::fabs(P.t.x), std::fabs(P.t.y)) + glm::length(hi - lo));
  int exponent;
  const RangePass rp{16 * FLT_EPSILON * scale / s.d + 1e-6f,
                     std::frexp(s.d, &exponent) == 0.5f && std::isnormal(1.0f / s.d), f8{} + 1.0f / s.d, test, frame};
  std::atomic<uint32_t> next{0};
  std::vector<std::thread> pool;

  // Runs of positions: 4 a thread.
  const size_t runs = std::min<size_t>(size_t(threads) * 4, packed.size());
  std::vector<std::pair<int, int>> run_rows(runs, {int(s.ny), 0});
  size_t widest = 0;
  for (size_t r = 0; r < runs; ++r) {
    for (size_t p = packed.size() * r / runs; p < packed.size() * (r + 1) / runs; ++p) {
      auto [a, b] = rows_reached(packed[p], s);
      run_rows[r] = {std::min(run_rows[r].first, a), std::max(run_rows[r].second, b)};
    }
    widest = std::max(widest, size_t(std::max(0, run_rows[r].second - run_rows[r].first)));
  }
  const bool by_runs = threads > 1 && packed.size() >= size_t(threads) * 4 && rotations * 4 > packed.size() &&
                       threads * widest * s.nx * sizeof(R) <= (size_t(1) << 30);
  if (by_runs) {
    std::mutex stock;
    for (uint32_t k = 0; k < threads; ++k)
      pool.emplace_back([&] {
        PlacedTool<R> placed;
        std::vector<R> copy;
        for (uint32_t r; (r = next++) < runs;) {
          auto [j0, j1] = run_rows[r];
          if (j0 >= j1) continue;
          const size_t first = size_t(j0) * s.nx, count = size_t(j1 - j0) * s.nx;
          {
            std::lock_guard<std::mutex> lock(stock);
            copy.assign(heights.begin() + ptrdiff_t(first), heights.begin() + ptrdiff_t(first + count));
          }
          Rows<R> rows{copy.data(), j0, s.nx};
          for (size_t p = packed.size() * r / runs; p < packed.size() * (r + 1) / runs; ++p)
            mill_position(placed, packed[p], s, tool, rp, j0, j1, rows);
          std::lock_guard<std::mutex> lock(stock);
          for (size_t i = 0; i < count; ++i)
            if (height_key(copy[i]) < height_key(heights[first + i])) heights[first + i] = copy[i];
        }
      });
    for (auto& t : pool) t.join();  // before `stock` goes
  } else {
    // Bands at least 4 tool spans high (a position reaching two bands is placed twice), up to 8 a
    // thread (dynamic), one a thread (static), or halving (guided): CpuSchedule.
    const uint32_t least = std::clamp(uint32_t(std::ceil(4 * reach)), 1u, s.ny);
    const uint32_t bands = schedule == CpuSchedule::Static
                               ? std::min(threads, s.ny)
                               : std::clamp(uint32_t(float(s.ny) / std::max(4 * reach, 1.0f)), std::min(threads, s.ny),
                                            std::min(s.ny, threads * 8));
    std::mutex guided;  // the next row a guided band starts at
    uint32_t guided_row = 0;
    auto take = [&](uint32_t thread, uint32_t& taken, int& j0, int& j1) {
      if (schedule == CpuSchedule::Guided) {
        std::lock_guard<std::mutex> lock(guided);
        if (guided_row >= s.ny) return false;
        uint32_t rows = std::clamp((s.ny - guided_row) / (2 * threads), least, s.ny - guided_row);
        j0 = int(guided_row), j1 = int(guided_row + rows), guided_row += rows;
        return true;
      }
      uint32_t band = schedule == CpuSchedule::Static ? (taken++ == 0 ? thread : bands) : next++;
      if (band >= bands) return false;
      j0 = int(uint64_t(s.ny) * band / bands), j1 = int(uint64_t(s.ny) * (band + 1) / bands);
      return true;
    };
    const Rows<R> rows{heights.data(), 0, s.nx};
    for (uint32_t k = 0; k < threads; ++k)
      pool.emplace_back([&, k] {
        PlacedTool<R> placed;
        uint32_t taken = 0;
        for (int j0, j1; take(k, taken, j0, j1);) {
          for (auto& P : packed) {
            float ylo = (P.t.y + P.r1.w - s.y0) / s.d, yhi = (P.t.y + P.t.w - s.y0) / s.d;
            if (yhi < float(j0) - 1 || ylo > float(j1) + 1) continue;
            mill_position(placed, P, s, tool, rp, j0, j1, rows);
          }
        }
      });
    for (auto& t : pool) t.join();  // before `bands` and `rows` go
  }
}

}  // namespace

void mill_cpu(const Stock& s, std::vector<float>& h, const Mesh& tool, const std::vector<Position>& path,
              uint32_t threads, HitTest test, Frame frame, CpuSchedule schedule) {
  mill_cpu_t(s, h, tool, path, threads, test, frame, schedule);
}

void mill_cpu(const Stock& s, std::vector<double>& h, const Mesh& tool, const std::vector<Position>& path,
              uint32_t threads, HitTest test, Frame frame, CpuSchedule schedule) {
  mill_cpu_t(s, h, tool, path, threads, test, frame, schedule);
}

}  // namespace machining
