// compute/machining: the engines against each other and the CPU, grooves and scallops
// against geometry, the seed's numerical-stability example, and a catalogue of bad files.
#include "compute/machining/cpu_edges.h"
#include "compute/machining/io/gcode.h"
#include "compute/machining/stats.h"
#include "compute/machining/work.h"
#include "compute/machining/zbuffer.h"
#include "tests/helpers.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <tuple>

using namespace machining;
namespace fs = std::filesystem;

namespace {

class Machining : public GpuTest {
 protected:
  std::vector<float> mill(Engine e, const Stock& s, const Mesh& tool, const std::vector<Position>& path,
                          double pairs = 1 << 20) {
    Machine m(ctx(), s, tool, path);
    m.run(e, pairs);
    return m.heights();
  }
};

Stock small_stock() {
  Stock s;
  s.nx = 64, s.ny = 48, s.d = 0.5f, s.x0 = 0.25f, s.y0 = -0.5f;
  return s;
}

std::vector<Position> tilted(std::vector<Position> p) {
  for (size_t i = 0; i < p.size(); ++i) {
    p[i].axis = glm::normalize(glm::vec3(0.3f * std::sin(float(i)), 0.2f, 1.0f));
    p[i].omega = 0.1f * float(i);
  }
  return p;
}

TEST_F(Machining, ComputeEnginesAreBitIdenticalAndMatchTheCpu) {
  Stock s = small_stock();
  for (bool five_axis : {false, true}) {
    auto tool = make_tool("sphere", 6.0f, 320);
    auto path = generate_path("random", 30.0f, 40, 1.0f, 7);
    if (five_axis) path = tilted(path);
    auto ref = mill(Engine::PerPosition, s, tool, path);
    size_t lowered = 0;
    for (float h : ref) lowered += h < 0.0f;
    ASSERT_GT(lowered, 200u) << "the path should cut";
    for (Engine e : {Engine::PerTriangle, Engine::Fine, Engine::Persistent, Engine::PerBrin}) {
      auto h = mill(e, s, tool, path, 4000);  // several submissions
      ASSERT_EQ(std::memcmp(h.data(), ref.data(), h.size() * 4), 0)
          << engine_names()[size_t(e)] << (five_axis ? " (5-axis)" : "");
    }
    std::vector<float> cpu(ref.size(), 0.0f);
    mill_cpu(s, cpu, tool, path, 3);
    for (size_t i = 0; i < cpu.size(); ++i)
      ASSERT_NEAR(cpu[i], ref[i], 4 * FLT_EPSILON * (1 + std::fabs(ref[i]))) << "cpu, brin " << i;
  }
}

// The CPU engine's two ways of sharing work (bands of rows; runs of positions, each milled into a
// copy of its rows and merged, where the rotation changes at nearly every position) and its
// placed-tool cache (kept while the rotation stays the same) change nothing: any thread count
// gives the same heights bit for bit as one thread and as one position at a time, on a path
// where one position in ten is tilted (bands) and on a path tilted throughout (runs).
TEST(MachiningCpu, BandsRunsAndThePlacedToolCacheChangeNothing) {
  Stock s = small_stock();
  auto tool = make_tool("sphere", 6.0f, 320);
  auto path = generate_path("random", 30.0f, 60, 1.0f, 11);
  auto tilt = tilted(path);
  for (bool throughout : {false, true}) {
    for (size_t i = 0; i < path.size(); ++i)
      if (throughout || i % 10 == 9) path[i] = tilt[i];  // one position in ten tilted, or all
    const char* name = throughout ? "tilted throughout" : "one in ten tilted";
    std::vector<float> one(size_t(s.nx) * s.ny, 0.0f);
    mill_cpu(s, one, tool, path, 1);
    for (uint32_t threads : {2u, 3u, 8u}) {
      std::vector<float> h(one.size(), 0.0f);
      mill_cpu(s, h, tool, path, threads);
      ASSERT_EQ(std::memcmp(h.data(), one.data(), h.size() * 4), 0) << threads << " threads, " << name;
    }
    std::vector<float> stepwise(one.size(), 0.0f);
    for (auto& p : path) mill_cpu(s, stepwise, tool, {p}, 3);
    EXPECT_EQ(std::memcmp(stepwise.data(), one.data(), one.size() * 4), 0) << "the cache across positions, " << name;
    size_t lowered = 0;
    for (float v : one) lowered += v < 0.0f;
    EXPECT_GT(lowered, 300u) << "the path should cut, " << name;
  }
}

// After a rotation has served 16 positions the CPU engine looks only at the triangles of the
// tip's phase cell (where the lattice of brins falls under the tool): that must find every
// triangle the full list finds. One position a call never sorts by phase, so it is the
// reference: far from the origin (larger rounding), at a spacing that is no power of two, with
// tips on the lattice and on the cells' borders, a fine ball, a coarse cone and a flat end.
TEST(MachiningCpu, PhaseCellsFindWhatTheFullListFinds) {
  Stock s;
  s.nx = 72, s.ny = 60, s.d = 0.37f, s.x0 = 1000.3f, s.y0 = -2000.7f;
  for (const char* shape : {"sphere", "cone", "flat"}) {
    auto tool = make_tool(shape, 5.0f, std::string(shape) == "sphere" ? 1984 : 64);
    std::vector<Position> path;
    uint32_t rng = 5;
    auto next = [&] { return (rng = rng * 1664525u + 1013904223u) >> 8; };
    for (int k = 0; k < 400; ++k) {
      float ix = float(next() % 72), iy = float(next() % 60);
      if (k % 3 == 1) ix += float(next() % 16) / 16.0f, iy += float(next() % 16) / 16.0f;  // cells' borders
      if (k % 3 == 2) ix += float(next() % 1000) / 1000.0f, iy += float(next() % 1000) / 1000.0f;
      Position p;
      p.tip = {s.x0 + ix * s.d, s.y0 + iy * s.d, -0.5f - float(next() % 100) / 50.0f};
      path.push_back(p);
    }
    std::vector<float> whole(size_t(s.nx) * s.ny, 0.0f), stepwise(whole.size(), 0.0f);
    mill_cpu(s, whole, tool, path, 2);
    for (auto& p : path) mill_cpu(s, stepwise, tool, {p}, 1);
    size_t lowered = 0;
    for (float v : whole) lowered += v < 0.0f;
    EXPECT_GT(lowered, whole.size() / 2) << shape;
    EXPECT_EQ(std::memcmp(whole.data(), stepwise.data(), whole.size() * 4), 0) << shape;
  }
}

// The CPU engine leaves a triangle whose box lies at or below its lowest possible height: that
// bound (Edges::zlo) must hold for every height hit() computes, rounding included. Random
// triangles, slivers among them, far from the origin, every brin of their box tested; the
// rounding does take heights below the triangle's lowest vertex (counted), so the bound's
// margin is needed.
template <class R>
void lowest_height_holds() {
  uint32_t rng = 11;
  auto uni = [&] { return float((rng = rng * 1664525u + 1013904223u) >> 8) / float(1 << 24); };
  size_t inside = 0, below_vertices = 0;
  for (int t = 0; t < 4000; ++t) {
    float scale = t % 4 == 0 ? 100.0f : 3.0f, off = t % 8 == 0 ? 700.0f : 0.0f;
    Placed tri{};
    for (glm::vec3* v : {&tri.a, &tri.b, &tri.c})
      *v = {off + scale * uni(), off + scale * uni(), t % 2 ? 50.0f + 0.01f * uni() : scale * (uni() - 0.5f)};
    if (t % 3 == 0) tri.c = tri.a + (tri.b - tri.a) * uni() + glm::vec3(1e-3f * uni(), 1e-3f * uni(), uni());  // sliver
    tri.area = (tri.b.x - tri.a.x) * (tri.c.y - tri.a.y) - (tri.b.y - tri.a.y) * (tri.c.x - tri.a.x);
    if (tri.area == 0.0f) continue;
    Edges<R> e(tri);
    R zmin = std::min({e.az, e.bz, e.cz});
    glm::vec2 lo = glm::min(glm::min(glm::vec2(tri.a), glm::vec2(tri.b)), glm::vec2(tri.c));
    glm::vec2 hi = glm::max(glm::max(glm::vec2(tri.a), glm::vec2(tri.b)), glm::vec2(tri.c));
    const R near = R(sizeof(R) == 4 ? 1e-3 : 1e-11) * R(scale);
    for (int k = 0; k < 400; ++k) {  // anywhere in the box (not only floats in double), then near a vertex
      glm::vec3 v = k % 4 == 0 ? tri.a : k % 4 == 2 ? tri.b : tri.c;
      R px = k % 2 ? R(lo.x + (hi.x - lo.x) * uni()) + R(uni()) * R(1e-7f) : R(v.x) + near * R(uni() - 0.5f);
      R py = k % 2 ? R(lo.y + (hi.y - lo.y) * uni()) - R(uni()) * R(1e-7f) : R(v.y) + near * R(uni() - 0.5f);
      R z;
      if (!e.hit(px, py, z)) continue;
      ++inside;
      below_vertices += z < zmin;
      ASSERT_GE(z, e.zlo) << "triangle " << t << ", brin (" << px << ", " << py << ")";
    }
  }
  EXPECT_GT(inside, 100000u);
  EXPECT_GT(below_vertices, 0u) << "the rounding never went below the lowest vertex: the test shows nothing";
  std::printf("%s: %zu brins inside, %zu of them below the lowest vertex\n", sizeof(R) == 4 ? "float" : "double",
              inside, below_vertices);
}
TEST(MachiningCpu, TheLowestHeightOfATriangleBoundsEveryHit) {
  lowest_height_holds<float>();
  lowest_height_holds<double>();
}

// Seed 003 §15.4: heights and intersection in double (brins 64-bit, triangles and
// positions 32-bit). The double engines agree with each other bit for bit and with the
// CPU to the last bits; with the tool-frame strategy the single precision downspiral
// differs from the double one by under the seed's regression threshold (§15.2: a mean of
// 2 ULP a brin fails). Measured on lavapipe: mean 1.08, worst 12.3 float ulps of
// max(|h|, 1) — on the cone's flanks of slope 2, where a brin's position, rounded to float
// relative to the tip (x up to 30), moves the height by twice its rounding.
TEST_F(Machining, DoublePrecisionEnginesAndTheSingleOnesAgree) {
  if (!ctx().int64_atomics) GTEST_SKIP() << "no 64-bit atomics / fp64 on this device";
  Stock s = small_stock();
  auto tool = make_tool("cone", 6.0f, 64);
  auto path = generate_path("downspiral", 30.0f, 300, 1.5f);
  auto single = mill(Engine::Fine, s, tool, path);
  Stock s64 = s;
  s64.f64 = true;
  std::vector<double> ref;
  for (Engine e : {Engine::Fine, Engine::PerPosition, Engine::PerTriangle, Engine::Persistent, Engine::PerBrin}) {
    Machine m(ctx(), s64, tool, path);
    m.run(e, 3000);
    auto h = m.heights64();
    if (ref.empty())
      ref = h;
    else
      ASSERT_EQ(std::memcmp(h.data(), ref.data(), h.size() * 8), 0) << engine_names()[size_t(e)] << " (f64)";
  }
  std::vector<double> cpu(ref.size(), 0.0);
  mill_cpu(s64, cpu, tool, path, 3);
  // ulps of the computation's scale: a height near 0 comes from terms of the tool's size
  size_t cut = 0, beyond = 0;
  double worst_ulps = 0, mean_ulps = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    ASSERT_NEAR(cpu[i], ref[i], 4 * DBL_EPSILON * (1 + std::fabs(ref[i]))) << "cpu f64, brin " << i;
    if (ref[i] < 0) ++cut;
    float scale = std::max(1.0f, std::fabs(float(ref[i])));
    double ulp = std::nextafter(scale, INFINITY) - scale;
    double u = std::fabs(double(single[i]) - ref[i]) / ulp;
    worst_ulps = std::max(worst_ulps, u), mean_ulps += u;
    beyond += u > 4;
  }
  mean_ulps /= double(ref.size());
  ASSERT_GT(cut, 500u);
  EXPECT_LT(mean_ulps, 2.0) << "single vs double, mean, in float ulps of max(|h|, 1)";
  EXPECT_LE(worst_ulps, 32.0) << "slope 2 x the rounding of a position of magnitude 30";
  std::printf(
      "downspiral: single vs double: mean %.3f, worst %.2f float ulps of max(|h|, 1); %zu of %zu brins "
      "beyond 4\n",
      mean_ulps, worst_ulps, beyond, ref.size());
}

// The hardware rasterizer: the same cut up to its 32-bit depth quantisation and its
// vertex snapping (subPixelPrecisionBits: a vertex moves by up to 2^-bits of a pixel, so a
// height by the local slope times that: bounded by twice the largest neighbour difference
// x 2^-bits; lavapipe interpolates from unsnapped vertices, an H100 reaches 0.9 of it),
// except on brins lying on a triangle edge shared with the outline (its top-left fill rule
// against our closed edges): at most 2 % of the cut brins may break the bound.
TEST_F(Machining, HardwareRasterizerAgreesWithinItsRule) {
  Stock s = small_stock();
  auto tool = make_tool("sphere", 6.0f, 1984);
  auto path = generate_path("random", 30.0f, 40, 1.0f, 9);
  auto ref = mill(Engine::Fine, s, tool, path);
  auto hw = mill(Engine::Hardware, s, tool, path);
  // (zhi − zlo)·2^-22: the depth range spans the path's depths and the tool's size
  const float quantum = (0.0f + 1.0f - (-2.0f - 6.0f * 1.7321f - 1.0f)) * std::ldexp(1.0f, -22);
  const double snap = std::ldexp(2.0, -int(ctx().props.limits.subPixelPrecisionBits));
  size_t cut = 0, off = 0;
  for (uint32_t y = 1; y + 1 < s.ny; ++y)
    for (uint32_t x = 1; x + 1 < s.nx; ++x) {
      size_t i = size_t(y) * s.nx + x;
      if (!(ref[i] < 0 || hw[i] < 0)) continue;
      ++cut;
      float slope = 0;  // the largest neighbour difference, a slope times the spacing
      for (size_t j : {i - 1, i + 1, i - s.nx, i + s.nx}) slope = std::max(slope, std::fabs(ref[j] - ref[i]));
      if (std::fabs(ref[i] - hw[i]) > quantum + snap * slope) ++off;
    }
  ASSERT_GT(cut, 200u);
  EXPECT_LE(off, cut / 50) << off << " of " << cut << " cut brins differ by more than " << quantum
                           << " + neighbour difference x " << snap;
}

TEST_F(Machining, FlatEndMillCutsAGrooveOfItsWidthAndDepth) {
  Stock s;
  s.nx = 160, s.ny = 80, s.d = 0.25f;
  const float R = 4.0f, depth = 1.5f, yc = 10.0f;
  auto tool = make_tool("flat", 2 * R, 256);
  std::vector<Position> path;
  for (int k = 0; k <= 200; ++k) path.push_back({{5.0f + 0.1f * k, yc, -depth}});
  auto h = mill(Engine::Fine, s, tool, path);
  uint32_t i = 100;  // x = 25, the middle of the pass
  uint32_t width_cells = 0;
  float deepest = 0;
  for (uint32_t j = 0; j < s.ny; ++j) {
    float v = h[size_t(j) * s.nx + i];
    if (v < -1e-4f) ++width_cells;
    deepest = std::min(deepest, v);
  }
  EXPECT_FLOAT_EQ(deepest, -depth);
  EXPECT_NEAR(width_cells * s.d, 2 * R, s.d) << "groove width";
}

// Ball end R, parallel passes s apart: scallops of height R − sqrt(R² − s²/4), up to the
// mesh's chord error (79 slices: R·(1 − cos(π/79)) = 0.0024) and the grid's sampling.
TEST_F(Machining, BallEndPassesLeaveTheTheoreticalScallops) {
  Stock s;
  s.nx = 200, s.ny = 240, s.d = 0.05f;
  const float R = 3.0f, step = 1.5f, depth = 2.0f;
  auto tool = make_tool("sphere", 2 * R, 12482);
  std::vector<Position> path;
  for (int pass = 0; pass < 8; ++pass)
    for (int k = 0; k <= 40; ++k) path.push_back({{1.0f + 0.2f * k, 0.5f + step * pass, -depth}});
  auto h = mill(Engine::Fine, s, tool, path);
  float theory = R - std::sqrt(R * R - step * step / 4);
  // along x = 5 (i = 100), between passes 2 and 5: the cusps are the local maxima
  uint32_t i = 100;
  std::vector<float> cusps;
  for (uint32_t j = uint32_t((0.5f + 2 * step) / s.d); j < uint32_t((0.5f + 5 * step) / s.d); ++j) {
    float a = h[size_t(j - 1) * s.nx + i], b = h[size_t(j) * s.nx + i], c = h[size_t(j + 1) * s.nx + i];
    if (b >= a && b > c) cusps.push_back(b + depth);
  }
  ASSERT_EQ(cusps.size(), 3u);
  for (float c : cusps) EXPECT_NEAR(c, theory, 0.006f) << "theory " << theory;
}

// Seed 003, §15.3.1: t1 = (0,0,2), (0,3.1,5.1), (3.1,0,7) and t2 = t1 + (1024, 1024, 1024).
// The seed's brin (1.4, 1.4) is not a float after the shift (1025.4 rounds), so we take the
// grid point (1.375, 1.375) (d = 1/8), exact in both places as every brin x0 + i·d of a
// grid is. In the tool frame (the brin moved, not the triangle) both give the same u, v
// and height; in the world frame (the triangle moved) they drift as in the seed's table.
TEST(MachiningStability, ToolFrameIntersectionIsTranslationInvariant) {
  glm::vec3 a(0, 0, 2), b(0, 3.1f, 5.1f), c(3.1f, 0, 7);
  glm::vec2 r1(1.375f, 1.375f);
  glm::vec3 shift(1024.0f);
  auto t1 = intersect_tool_frame(a, b, c, glm::vec3(0), r1);
  auto t2 = intersect_tool_frame(a, b, c, shift, r1 + glm::vec2(shift));
  ASSERT_TRUE(t1.inside && t2.inside);
  EXPECT_EQ(t1.u, t2.u);
  EXPECT_EQ(t1.v, t2.v);
  EXPECT_EQ(t1.height + 1024.0f, t2.height);
  auto w1 = intersect_world(a, b, c, glm::vec3(0), r1);
  auto w2 = intersect_world(a, b, c, shift, r1 + glm::vec2(shift));
  EXPECT_TRUE(w1.u != w2.u || w1.v != w2.v || w1.height + 1024.0f != w2.height)
      << "the world frame should show the seed's drift";
  std::printf("tool frame: u %.8f v %.8f h %.8f | world, translated: u %.8f v %.8f h-1024 %.8f\n", t2.u, t2.v,
              t2.height - 1024, w2.u, w2.v, w2.height - 1024);
}

TEST(MachiningTools, GeneratorsHaveTheSeedsTriangleCounts) {
  EXPECT_EQ(make_tool("sphere", 10, 320).triangles(), 320u);
  EXPECT_EQ(make_tool("sphere", 10, 1984).triangles(), 1984u);
  EXPECT_EQ(make_tool("sphere", 10, 12482).triangles(), 12482u);
  EXPECT_EQ(make_tool("cone", 10, 64).triangles(), 64u);
  EXPECT_EQ(make_tool("torus", 10, 25904).triangles(), 25904u);  // stand_in_test.cpp: other counts
  for (auto& shape : tool_shapes()) {
    auto m = make_tool(shape, 10, 400);
    EXPECT_NEAR(m.lo().z, 0.0f, 1e-5f) << shape << ": the tip is at z = 0";
    EXPECT_NEAR(m.hi().x, 5.0f, 0.05f) << shape;
  }
  auto dir = fs::temp_directory_path() / ("vklab-stl-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto sphere = make_tool("sphere", 10, 320);
  write_stl(dir / "s.stl", sphere);
  auto back = read_stl(dir / "s.stl");
  ASSERT_EQ(back.vertices.size(), sphere.vertices.size());
  EXPECT_EQ(std::memcmp(back.vertices.data(), sphere.vertices.data(), sphere.vertices.size() * 12), 0);
  std::ofstream(dir / "a.stl") << "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n"
                                  "vertex 0 1 0.5\nendloop\nendfacet\nendsolid t\n";
  auto ascii = read_stl(dir / "a.stl");
  ASSERT_EQ(ascii.triangles(), 1u);
  EXPECT_EQ(ascii.vertices[2], glm::vec3(0, 1, 0.5f));
  fs::remove_all(dir);
}

TEST(MachiningPaths, ReadersAndGenerators) {
  auto dir = fs::temp_directory_path() / ("vklab-path-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "p.csv") << "# x y z i j k\n1,2,3,0,0,1\n4 5 6 0 1 1 # tilted\n";
  auto p = read_positions(dir / "p.csv");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[1].tip, glm::vec3(4, 5, 6));
  EXPECT_NEAR(p[1].axis.y, std::sqrt(0.5f), 1e-6f);
  std::ofstream(dir / "g.nc") << "%\n(a square)\nG21 G90\nG0 X0 Y0 Z5\nG1 Z-1 F200\nX10 ; along x\nY10 A0 B90\n";
  auto g = read_gcode(dir / "g.nc", 1.0f).positions;
  EXPECT_EQ(g.front().tip, glm::vec3(0, 0, 5));
  EXPECT_EQ(g.back().tip, glm::vec3(10, 10, -1));
  EXPECT_NEAR(g.back().axis.x, 1.0f, 1e-5f) << "B90 tilts +z onto +x";
  EXPECT_EQ(g.size(), 1u + 6u + 10u + 10u);  // start, Z 6 steps, X 10, Y 10
  for (auto& k : path_kinds()) {
    auto gen = generate_path(k, 100.0f, 500, 2.0f);
    EXPECT_FALSE(gen.empty()) << k;
    for (auto& q : gen) ASSERT_TRUE(q.tip.x >= -1 && q.tip.x <= 101 && q.tip.z < 0) << k;
  }
  fs::remove_all(dir);
}

// Every malformed input: a message naming the file and the line or offset, no crash.
TEST(MachiningInputs, MalformedFilesGiveClearMessages) {
  auto dir = fs::temp_directory_path() / ("vklab-bad-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string binary_short(84, '\0');
  uint32_t n = 5;
  std::memcpy(&binary_short[80], &n, 4);
  std::map<std::string, std::pair<std::string, std::string>> cases = {
      {"empty.stl", {"", "offset 0"}},
      {"short.stl", {binary_short + std::string(60, 'x'), "offset 80"}},
      {"two.stl",
       {"solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nendloop\nendfacet\n", "line 7"}},
      {"word.stl", {"solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 zero 0\n", "line 4"}},
      {"nan.stl", {"solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 nan 0\n", "line 4"}},
      {"open.stl", {"solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\n", "ends inside a facet"}},
      {"keyword.stl", {"solid x\nfacets\n", "line 2"}},
      {"count.csv", {"1 2 3\n1 2\n", ":2:"}},
      {"mixed.csv", {"1 2 3\n1 2 3 0 0 1\n", ":2:"}},
      {"number.csv", {"1 2 three\n", ":1:"}},
      {"axis.csv", {"1 2 3 0 0 0\n", ":1:"}},
      {"nothing.csv", {"# only a comment\n", "no positions"}},
      {"g2.nc", {"G0 X0 Y0 Z0\nG2 X3 Y0 I1 J0\n", ":2:"}},
      {"paren.nc", {"G0 X0 (unclosed\n", ":1:"}},
      {"early.nc", {"X1 Y1\n", ":1:"}},
      {"both.nc", {"G1 X0 Y0 Z0 I0 J0 K1 A10\n", ":1:"}},
      {"word.nc", {"G1 X0 L5\n", ":1:"}}};
  for (auto& [name, c] : cases) {
    std::ofstream(dir / name, std::ios::binary) << c.first;
    try {
      if (name.ends_with(".stl"))
        read_stl(dir / name);
      else if (name.ends_with(".csv"))
        read_positions(dir / name);
      else
        read_gcode(dir / name, 0.5f);
      ADD_FAILURE() << name << " was accepted";
    } catch (const std::runtime_error& e) {
      std::string what = e.what();
      EXPECT_NE(what.find(name), std::string::npos) << what;
      EXPECT_NE(what.find(c.second), std::string::npos) << name << ": " << what;
    }
  }
  EXPECT_GE(cases.size(), 10u);
  fs::remove_all(dir);
}

}  // namespace

// Issue 13: llvmpipe ends an invocation after 65 535 loop iterations in all, so an engine
// whose thread looped over every (position, triangle) of a brin left it uncut. The work is
// now cut so no invocation loops more than kLoopBudget times; every engine, in single and
// double precision, equals the CPU engine bit for bit (single precision divides through
// double where the device has fp64: every device we test on).
namespace {
std::vector<Position> straight_pass(float x0, float x1, float step, float y, float z) {
  std::vector<Position> p;
  for (int i = 0; x0 + float(i) * step <= x1 + 1e-4f; ++i) p.push_back({{x0 + float(i) * step, y, z}});
  return p;
}

struct LongLoopCase {
  const char* name;
  Stock s;
  Mesh tool;
  std::vector<Position> path;
};

// Every engine, in single and double precision (or only the one asked), against the CPU engine
// on one case.
void every_engine_equals_the_cpu(gpu::Context& ctx, const LongLoopCase& c,
                                 std::vector<bool> precisions = {false, true}) {
  for (bool f64 : precisions) {
    if (f64 && !ctx.int64_atomics) continue;
    Stock s = c.s;
    s.f64 = f64;
    std::vector<double> cpu64(size_t(s.nx) * s.ny, 0.0);
    std::vector<float> cpu32(cpu64.size(), 0.0f);
    if (f64)
      mill_cpu(s, cpu64, c.tool, c.path, 2);
    else
      mill_cpu(s, cpu32, c.tool, c.path, 2);
    size_t cut = 0;
    for (size_t i = 0; i < cpu32.size(); ++i) cut += (f64 ? cpu64[i] : cpu32[i]) < 0;
    ASSERT_GT(cut, 100u) << c.name;
    for (Engine e : {Engine::PerPosition, Engine::PerTriangle, Engine::Fine, Engine::Persistent, Engine::PerBrin}) {
      Machine m(ctx, s, c.tool, c.path);
      m.run(e, 1e12);  // one submission: the whole path
      size_t wrong = 0;
      if (f64) {
        auto h = m.heights64();
        for (size_t i = 0; i < h.size(); ++i) wrong += std::memcmp(&h[i], &cpu64[i], 8) != 0;
      } else {
        ASSERT_TRUE(m.exact_division()) << "lavapipe has fp64";
        auto h = m.heights();
        for (size_t i = 0; i < h.size(); ++i) wrong += std::memcmp(&h[i], &cpu32[i], 4) != 0;
      }
      EXPECT_EQ(wrong, 0u) << c.name << ", " << engine_names()[size_t(e)] << (f64 ? " f64" : " f32") << ": " << wrong
                           << " of " << cut << " cut brins differ from the CPU engine";
    }
  }
}

Stock wide_stock() {  // the lab's default stock: 256² brins 0.25 apart
  Stock wide;
  wide.d = 0.25f;
  return wide;
}
}  // namespace

// 120 positions 0.1 apart, 60 over each brin, with the default 1984-triangle ball. A case (and
// here a precision) a test: each runs the five engines in a process of its own.
static LongLoopCase straight_pass_case() {
  return {"straight pass, 1984 triangles", wide_stock(), make_tool("sphere", 6.0f, 1984),
          straight_pass(20.0f, 31.9f, 0.1f, 32.0f, -1.0f)};
}
TEST_F(Machining, EveryEngineEqualsTheCpuWhereLoopsWouldRunLong) {
  LongLoopCase c = straight_pass_case();
  ASSERT_EQ(c.path.size(), 120u);
  every_engine_equals_the_cpu(ctx(), c, {false});
}
TEST_F(Machining, EveryEngineEqualsTheCpuWhereLoopsWouldRunLongInDouble) {
  every_engine_equals_the_cpu(ctx(), straight_pass_case(), {true});
}

// 6 positions over each brin with the 12 482-triangle ball.
TEST_F(Machining, EveryEngineEqualsTheCpuWithManyTriangles) {
  every_engine_equals_the_cpu(ctx(), {"12482 triangles", small_stock(), make_tool("sphere", 6.0f, 12482),
                                      straight_pass(8.0f, 19.0f, 1.0f, 10.0f, -1.0f)});
}

// Triangles up to 12 brins wide: the CPU engine tests eight brins of a row at once.
TEST_F(Machining, EveryEngineEqualsTheCpuWithWideTriangles) {
  every_engine_equals_the_cpu(ctx(), {"64-triangle cone", wide_stock(), make_tool("cone", 6.0f, 64),
                                      straight_pass(20.0f, 31.9f, 0.3f, 32.0f, -1.0f)});
}

// The plans themselves: every engine's invocations stay within the budget, and the
// dispatches cover every (triangle, position) once — also for a tool whose one triangle
// spans the whole stock (cut into row slices); at any granularity factor G and workgroup size.
// The triangles whose rows run 5000 brins wide are 1984 (the lab's default ball), not 12 482:
// a slice a dispatch made the position engine's plan 20.8 million dispatches (6 s of the test's
// 8); 1984 is no multiple of any run of triangles the engines take (3, 21), so the last run is
// still a partial one, and the 12 482-triangle rows keep the plans near kMaxGroups.
TEST(MachiningWork, PlansBoundEveryInvocationAndCoverTheWork) {
  for (auto [across, G, group, T] : {std::tuple{3u, 1u, 64u, 12482u},
                                     {30u, 1u, 64u, 12482u},
                                     {5000u, 1u, 64u, 1984u},
                                     {30u, 16u, 32u, 12482u},
                                     {3u, 4u, 256u, 12482u},
                                     {5000u, 7u, 1024u, 1984u},
                                     {30u, 100000u, 64u, 12482u}})
    for (Engine e : {Engine::PerPosition, Engine::PerTriangle, Engine::Fine, Engine::Persistent, Engine::PerBrin}) {
      const uint32_t P = 1000, first = 17, brins = 2048u * 2048u;
      auto w = plan_work(e, T, first, P, brins, across, kLoopBudget, G, group);
      SCOPED_TRACE(engine_names()[size_t(e)] + " across " + std::to_string(across) + " G " + std::to_string(G) +
                   " group " + std::to_string(group) + " triangles " + std::to_string(T));
      EXPECT_LE(w.loop_bound, kLoopBudget);
      uint64_t pairs = 0, brin_pairs = 0;
      for (auto& d : w.dispatches) {
        ASSERT_GE(d.pos_first, first);
        ASSERT_LE(uint64_t(d.pos_first) + d.pos_count, first + P);
        ASSERT_LE(uint64_t(d.tri_first) + d.tri_count, T);
        ASSERT_LE(d.groups, kMaxGroups);
        if (e == Engine::PerPosition) {  // every (part, position) has an invocation
          ASSERT_GE(uint64_t(d.groups) * group, uint64_t(d.pos_count) * w.parts);
        }
        if (e == Engine::PerTriangle) {
          ASSERT_GE(uint64_t(d.groups) * group, uint64_t(d.tri_count) * w.parts);
        }
        if (e == Engine::PerBrin)
          brin_pairs += uint64_t(d.tri_count) * d.pos_count * d.brin_count;
        else if (d.slice == 0)
          pairs += uint64_t(d.tri_count) * d.pos_count;
      }
      if (e == Engine::PerBrin) {
        EXPECT_EQ(brin_pairs, uint64_t(T) * P * brins);
      } else {
        EXPECT_EQ(pairs, uint64_t(T) * P);
        EXPECT_GE(uint64_t(w.slice_rows) * (w.dispatches.back().slice + 1), across);
      }
    }
}

// The panel's figures and the watchdog (issue 13) on fields whose answers are known.
TEST(MachiningStats, VolumeDepthRoughnessAndTheFirstNonFiniteBrin) {
  Stock s;
  s.nx = 8, s.ny = 4, s.d = 0.5f, s.top = 2.0f;
  std::vector<float> h(32, 2.0f);
  h[3] = 1.0f, h[9] = 1.5f, h[20] = 2.25f;  // two cuts and a brin above the top (not a cut)
  auto c = cut_stats(s, h);
  EXPECT_DOUBLE_EQ(c.removed, 1.5 * 0.25);
  EXPECT_DOUBLE_EQ(c.max_depth, 1.0);
  EXPECT_EQ(c.non_finite, -1);
  std::vector<float> start(32, 3.0f);  // a raised starting surface: every brin cut by 1 more
  EXPECT_DOUBLE_EQ(cut_stats(s, h, start).removed, (32 * 1.0 + 1.5 - 0.25) * 0.25);
  h[11] = std::nanf(""), h[17] = INFINITY;
  c = cut_stats(s, h);
  EXPECT_EQ(c.non_finite, 11);
  EXPECT_DOUBLE_EQ(c.removed, 1.5 * 0.25);  // the finite brins still count

  // a square wave ±a: Ra = a; each fifth holds a peak and a valley: Rz = 2a
  std::vector<float> z(100);
  for (size_t i = 0; i < z.size(); ++i) z[i] = (i / 5) % 2 ? 0.3f : -0.3f;
  auto r = roughness(z);
  EXPECT_NEAR(r.ra, 0.3, 1e-6);
  EXPECT_NEAR(r.rz, 0.6, 1e-6);
  EXPECT_EQ(roughness(std::vector<float>(9, 1.0f)).ra, 0.0);
}

// Seed 003 §6.4.3: the granularity factor and the workgroup size share the work differently and
// change no height (the minimum does not depend on who computes it).
TEST_F(Machining, GranularityAndWorkgroupSizeChangeNoHeight) {
  Stock s;
  s.nx = 48, s.ny = 40, s.d = 0.5f;
  auto tool = make_tool("sphere", 6.0f, 320);
  auto path = generate_path("random", 22.0f, 60, 1.0f, 3);
  Machine m(ctx(), s, tool, path);
  m.run(Engine::Fine);
  const auto ref = m.heights();
  for (Engine e : {Engine::PerPosition, Engine::PerTriangle, Engine::Fine, Engine::Persistent, Engine::PerBrin})
    for (auto [g, group] : {std::pair{3u, 64u}, {7u, 32u}, {1u, 256u}, {500u, 128u}}) {
      Machine k(ctx(), s, tool, path);
      k.set_granularity(g);
      k.set_workgroup(group);
      k.run(e, 3000);
      EXPECT_EQ(k.heights(), ref) << engine_names()[size_t(e)] << ", G " << g << ", workgroup " << group;
    }
  EXPECT_THROW(m.set_workgroup(48), std::invalid_argument);
}
