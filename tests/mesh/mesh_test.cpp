// compute/mesh on the GPU: the seed's example kernels against the CPU, compile errors, exact
// reductions, scatter with atomics, Hilbert renumbering, neighbour loops.
#include "compute/mesh/gpu_mesh.h"
#include "tests/helpers.h"

#include <glm/glm.hpp>
#include "compute/mesh/io/meshb.h"
#include "compute/mesh/links.h"
#include "compute/mesh/renumber.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

using namespace mesh;
namespace fs = std::filesystem;

namespace {

// A w x h grid of vertices, two triangles a square, z bumpy.
Mesh grid_surface(uint32_t w, uint32_t h) {
  Mesh m;
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      m.xyz.insert(m.xyz.end(), {double(x) + 0.1 * (y % 3), double(y), 0.25 * std::sin(0.7 * x + 0.3 * y) + 1.0});
      m.vref.push_back(0);
    }
  Elements t{Kind::Triangles, {}, {}};
  for (uint32_t y = 0; y + 1 < h; ++y)
    for (uint32_t x = 0; x + 1 < w; ++x) {
      uint32_t a = y * w + x, b = a + 1, c = a + w, d = c + 1;
      t.v.insert(t.v.end(), {a, b, c, b, d, c});
      t.ref.insert(t.ref.end(), {1, 2});
    }
  m.elements.push_back(t);
  return m;
}

// The seed's examples as loop bodies, each against a CPU loop: triangle barycentres
// (direct + indirect down), vertex smoothing through the ball (indirect up: the mean of
// the barycentres around each vertex), and the scatter of triangle areas to vertices by
// gathering. A body that does not compile reports the user's own line numbers.
class MeshKernels : public GpuTest {};

TEST_F(MeshKernels, ExampleKernelsMatchTheCpu) {
  Mesh m = grid_surface(13, 9);
  GpuMesh g(ctx(), m);
  g.add_field("Bar", Kind::Triangles);
  g.add_field("Area", Kind::Triangles);
  g.add_field("Smooth", Kind::Vertices);
  g.add_field("Star", Kind::Vertices);
  auto bar = g.compile(Kind::Triangles,
                       "TriBar.xyz = (TriVerCrd[0] + TriVerCrd[1] + TriVerCrd[2]) / 3.0;\n"
                       "TriArea.x = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], TriVerCrd[2] - TriVerCrd[0]));");
  EXPECT_EQ(bar->writes, (std::vector<std::string>{"Area", "Bar"}));
  auto smooth = g.compile(Kind::Vertices,
                          "vec3 s = vec3(0.0);\nfor (uint k = 0u; k < VerTriDeg; ++k) s += VerTriBar[k].xyz;\n"
                          "VerSmooth.xyz = s / float(VerTriDeg);\n"
                          "float a = 0.0;\nfor (uint k = 0u; k < VerTriDeg; ++k) a += VerTriArea[k].x;\n"
                          "VerStar.x = a;");
  ctx().submit_now([&](VkCommandBuffer cmd) {
    g.record(cmd, *bar);
    g.record(cmd, *smooth);
  });
  auto gb = g.download("Bar"), ga = g.download("Area"), gs = g.download("Smooth"), gst = g.download("Star");
  const auto& t = m.elements[0];
  std::vector<glm::dvec3> cbar(t.count());
  std::vector<double> carea(t.count());
  auto P = [&](uint32_t v) {
    return glm::dvec3(float(m.xyz[3 * v]), float(m.xyz[3 * v + 1]), float(m.xyz[3 * v + 2]));
  };
  for (size_t f = 0; f < t.count(); ++f) {
    glm::dvec3 a = P(t.v[3 * f]), b = P(t.v[3 * f + 1]), c = P(t.v[3 * f + 2]);
    cbar[f] = (a + b + c) / 3.0;
    carea[f] = 0.5 * glm::length(glm::cross(b - a, c - a));
    for (int k = 0; k < 3; ++k) ASSERT_NEAR(gb[4 * f + k], cbar[f][k], 1e-5) << "barycentre " << f;
    ASSERT_NEAR(ga[4 * f], carea[f], 1e-5) << "area " << f;
  }
  auto b = ball(t, m.vertices());
  for (size_t v = 0; v < m.vertices(); ++v) {
    glm::dvec3 s(0);
    double a = 0;
    for (uint32_t k = 0; k < b.degree[v]; ++k)
      s += cbar[b.member(uint32_t(v), k)], a += carea[b.member(uint32_t(v), k)];
    s /= double(b.degree[v]);
    for (int k = 0; k < 3; ++k) ASSERT_NEAR(gs[4 * v + k], s[k], 1e-5) << "smoothed vertex " << v;
    ASSERT_NEAR(gst[4 * v], a, 1e-5) << "star area of vertex " << v;
  }
  double total = 0;
  for (double a : carea) total += a;
  double stars = 0;
  for (size_t v = 0; v < m.vertices(); ++v) stars += gst[4 * v];
  EXPECT_NEAR(stars, 3 * total, 1e-3) << "each triangle counted at its 3 vertices";
}

TEST_F(MeshKernels, CompileErrorsNameTheUsersLine) {
  GpuMesh g(ctx(), grid_surface(4, 4));
  g.add_field("Bar", Kind::Triangles);
  try {
    g.compile(Kind::Triangles, "TriBar.x = 1.0;\nTriBar.y = no_such_name;\n");
    ADD_FAILURE() << "compiled";
  } catch (const KernelError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find(":2:"), std::string::npos) << what;
    EXPECT_NE(what.find("no_such_name"), std::string::npos) << what;
  }
  EXPECT_NO_THROW(g.compile(Kind::Triangles, "TriBar.x = 1.0;"));  // the mesh is still usable
  EXPECT_THROW(g.add_field("bad name", Kind::Vertices), std::invalid_argument);
}

}  // namespace

namespace {

// GmlReduceVector on the GPU: exact on integer-valued data (every partial sum stays below 2^24).
TEST_F(MeshKernels, ReductionsAreExactOnIntegerData) {
  Mesh m = grid_surface(64, 64);  // 4096 vertices
  GpuMesh g(ctx(), m);
  g.add_field("Count", Kind::Vertices);
  std::vector<double> v(4 * m.vertices(), 0.0);
  std::mt19937 rng(9);
  double sum = 0, sq = 0, lo = 1e9, hi = -1e9;
  for (size_t i = 0; i < m.vertices(); ++i) {
    double x = int(rng() % 31) - 15;  // -15 .. 15
    v[4 * i + 2] = x;
    sum += x, sq += double(x) * x, lo = std::min<double>(lo, x), hi = std::max<double>(hi, x);
  }
  g.upload("Count", v);
  auto r = g.reduce("Count", 2);
  EXPECT_EQ(r.min, lo);
  EXPECT_EQ(r.max, hi);
  EXPECT_EQ(r.sum, sum);
  EXPECT_EQ(r.l2, std::sqrt(sq)) << "the sum of squares is exact, its root taken in double";
  EXPECT_THROW(g.reduce("Count", 4), std::invalid_argument);
  // the transfer counters saw the upload and the reductions' read-backs
  EXPECT_EQ(g.transfers().at("Count").first, v.size() * 4);
  EXPECT_EQ(g.transfers().at("reductions").second, 16 * 4 * 8u) << "16 groups' partials, 4 values of 2 words";
  EXPECT_EQ(g.transfers().at("VerCrd").first, 16 * m.vertices());
}

}  // namespace

namespace {

// Vertex accumulation both ways: scatter with float atomics and gather through the ball,
// equal to each other and to the CPU to float tolerance.
TEST_F(MeshKernels, ScatterWithAtomicsEqualsGatherEqualsCpu) {
  if (!ctx().atomic_float_add) GTEST_SKIP() << "no float atomic add on this device";
  Mesh m = grid_surface(17, 11);
  GpuMesh g(ctx(), m);
  g.add_field("Area", Kind::Triangles);
  g.add_field("Gathered", Kind::Vertices);
  g.add_field("Scattered", Kind::Vertices);
  auto area = g.compile(Kind::Triangles,
                        "TriArea.x = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], TriVerCrd[2] - TriVerCrd[0]));");
  auto gather =
      g.compile(Kind::Vertices,
                "float a = 0.0;\nfor (uint k = 0u; k < VerTriDeg; ++k) a += VerTriArea[k].x;\nVerGathered.x = a;");
  auto clear = g.compile(Kind::Vertices, "VerScattered.x = 0.0;");
  auto scatter = g.compile(Kind::Triangles,
                           "float a = TriArea.x;\natomicAdd(Scattered_[TriVer.x].x, a);\n"
                           "atomicAdd(Scattered_[TriVer.y].x, a);\natomicAdd(Scattered_[TriVer.z].x, a);");
  ctx().submit_now([&](VkCommandBuffer cmd) {
    for (auto* k : {area.get(), gather.get(), clear.get(), scatter.get()}) g.record(cmd, *k);
  });
  auto ga = g.download("Gathered"), sc = g.download("Scattered");
  const auto& t = m.elements[0];
  std::vector<double> cpu(m.vertices(), 0.0);
  for (size_t f = 0; f < t.count(); ++f) {
    auto P = [&](uint32_t v) {
      return glm::dvec3(float(m.xyz[3 * v]), float(m.xyz[3 * v + 1]), float(m.xyz[3 * v + 2]));
    };
    glm::dvec3 a = P(t.v[3 * f]), b = P(t.v[3 * f + 1]), c = P(t.v[3 * f + 2]);
    double area_f = 0.5 * glm::length(glm::cross(b - a, c - a));
    for (int k = 0; k < 3; ++k) cpu[t.v[3 * f + k]] += area_f;
  }
  for (size_t v = 0; v < m.vertices(); ++v) {
    ASSERT_NEAR(ga[4 * v], cpu[v], 1e-5) << "gather, vertex " << v;
    ASSERT_NEAR(sc[4 * v], cpu[v], 1e-5) << "atomics, vertex " << v;
  }
}

}  // namespace

namespace {

// The Hilbert curve visits the cells of a 2^k cube one neighbour after the other; the
// renumbered mesh is the same mesh (same coordinates for the same triangles) and kernels
// on it give the same per-triangle values.
TEST(MeshRenumber, HilbertCurveAndRenumberedMesh) {
  const int bits = 3;
  std::vector<std::pair<uint64_t, std::array<uint32_t, 3>>> cells;
  for (uint32_t z = 0; z < 8; ++z)
    for (uint32_t y = 0; y < 8; ++y)
      for (uint32_t x = 0; x < 8; ++x) cells.push_back({hilbert_key(x, y, z, bits), {x, y, z}});
  std::sort(cells.begin(), cells.end());
  for (size_t i = 0; i < cells.size(); ++i) ASSERT_EQ(cells[i].first, i) << "keys are a permutation of 0..511";
  for (size_t i = 1; i < cells.size(); ++i) {
    int d = 0;
    for (int c = 0; c < 3; ++c) d += std::abs(int(cells[i].second[c]) - int(cells[i - 1].second[c]));
    ASSERT_EQ(d, 1) << "step " << i;
  }
  Mesh a = grid_surface(20, 15), b = a;
  shuffle(b, 4);
  Mesh c = b;
  renumber_hilbert(c);
  auto triangles_as_points = [](const Mesh& m) {
    std::vector<std::array<double, 9>> t;
    const auto& e = m.elements[0];
    for (size_t f = 0; f < e.count(); ++f) {
      std::array<std::array<double, 3>, 3> p;
      for (int k = 0; k < 3; ++k)
        for (int d = 0; d < 3; ++d) p[k][d] = m.xyz[3 * e.v[3 * f + k] + d];
      std::sort(p.begin(), p.end());
      std::array<double, 9> flat;
      for (int k = 0; k < 9; ++k) flat[k] = p[k / 3][k % 3];
      t.push_back(flat);
    }
    std::sort(t.begin(), t.end());
    return t;
  };
  EXPECT_EQ(triangles_as_points(a), triangles_as_points(b)) << "shuffling keeps the mesh";
  EXPECT_EQ(triangles_as_points(a), triangles_as_points(c)) << "renumbering keeps the mesh";
  // locality: the mean index distance between a triangle's vertices drops well below the shuffled one
  auto spread = [](const Mesh& m) {
    const auto& e = m.elements[0];
    double s = 0;
    for (size_t f = 0; f < e.count(); ++f)
      s += std::abs(double(e.v[3 * f]) - e.v[3 * f + 1]) + std::abs(double(e.v[3 * f + 1]) - e.v[3 * f + 2]);
    return s / e.count();
  };
  EXPECT_LT(spread(c), spread(b) / 5) << "Hilbert " << spread(c) << " against shuffled " << spread(b);
}

}  // namespace

namespace {

// Indirect transverse loops (GmlSetNeighbours): a triangle reads its neighbours across
// its edges; here the mean of its own and its neighbours' areas, against the CPU.
TEST_F(MeshKernels, NeighbourLoopsMatchTheCpu) {
  Mesh m = grid_surface(9, 7);
  GpuMesh g(ctx(), m);
  g.add_field("Area", Kind::Triangles);
  g.add_field("Blur", Kind::Triangles);
  auto area = g.compile(Kind::Triangles,
                        "TriArea.x = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], TriVerCrd[2] - TriVerCrd[0]));");
  auto blur =
      g.compile(Kind::Triangles,
                "float s = TriArea.x;\nfloat n = 1.0;\n"
                "for (int k = 0; k < 3; ++k) if (TriTri[k] != 0xffffffffu) { s += TriTriArea[k].x; n += 1.0; }\n"
                "TriBlur.x = s / n;");
  ctx().submit_now([&](VkCommandBuffer cmd) {
    g.record(cmd, *area);
    g.record(cmd, *blur);
  });
  auto a = g.download("Area"), b = g.download("Blur");
  const auto& t = m.elements[0];
  auto ngb = neighbours(t, m.vertices());
  for (size_t f = 0; f < t.count(); ++f) {
    double s = a[4 * f], n = 1;
    for (int k = 0; k < 3; ++k)
      if (ngb[3 * f + k] != UINT32_MAX) s += a[4 * ngb[3 * f + k]], n += 1;
    ASSERT_NEAR(b[4 * f], s / n, 1e-6) << "triangle " << f;
  }
  size_t boundary = std::count(ngb.begin(), ngb.end(), UINT32_MAX);
  EXPECT_EQ(boundary, size_t(2 * (9 - 1) + 2 * (7 - 1))) << "the grid's border edges";
}

}  // namespace
