// Every example the mesh lab offers, compiled from its very text as the editor holds it,
// run once on the mesh it is meant for, against a CPU loop of the same computation.
#include "compute/mesh/generate.h"
#include "compute/mesh/kernel_text.h"
#include "tests/helpers.h"

#include <glm/glm.hpp>

#include <algorithm>
#include <cmath>

using namespace mesh;

namespace {

class MeshExamples : public GpuTest {
 public:
  // Builds the example's mesh, compiles its text, runs each kernel once.
  void run(const std::string& name) {
    const Example& ex = mesh_examples().at(name);
    m_ = ex.mesh == "surface" ? bumpy_grid(9)
                              : cube(3, ex.mesh == "tetrahedra" ? Kind::Tetrahedra : Kind::Hexahedra, 0.2);
    g_ = std::make_unique<GpuMesh>(ctx(), m_);
    if (g_->count(Kind::Triangles)) g_->add_link("Opp", Kind::Edges, Kind::Vertices, 2, facing_vertices(*g_));
    auto kernels = compile_text(*g_, ex.text);
    ctx().submit_now([&](VkCommandBuffer cmd) {
      for (auto& k : kernels) g_->record(cmd, *k);
    });
  }
  GpuMesh& g() { return *g_; }
  const Mesh& m() const { return m_; }
  glm::dvec3 P(uint32_t v) const { return {float(m_.xyz[3 * v]), float(m_.xyz[3 * v + 1]), float(m_.xyz[3 * v + 2])}; }
  const Elements& E(Kind k) const { return g_->elements(k); }
  glm::dvec3 centre(Kind k, size_t i) const {
    uint32_t n = nodes_of(k);
    glm::dvec3 s(0.0);
    for (uint32_t c = 0; c < n; ++c) s += P(E(k).v[i * n + c]);
    return s / double(n);
  }
  double area(size_t t) const {
    const auto& v = E(Kind::Triangles).v;
    return 0.5 * glm::length(glm::cross(P(v[3 * t + 1]) - P(v[3 * t]), P(v[3 * t + 2]) - P(v[3 * t])));
  }
  std::vector<double> field(const std::string& n) const { return g_->download(n); }

  Mesh m_;
  std::unique_ptr<GpuMesh> g_;
};

TEST_F(MeshExamples, EveryExampleIsTestedHere) {
  EXPECT_EQ(example_names(), (std::vector<std::string>{"GMlib: gpu bandwidth",      "GMlib: mesh quality",
                                                       "GMlib: node smoothing",     "areas",
                                                       "diagonals (user link)",     "drift (direct)",
                                                       "hexahedra: neighbours",     "laplacian smoothing",
                                                       "mean height per triangle",  "neighbour distance",
                                                       "scatter/gather pair",       "smoothing",
                                                       "smoothing with parameters", "star areas",
                                                       "star areas (atomics)",      "star areas (colouring)",
                                                       "tetrahedra: padded ball",   "tetrahedra: shells",
                                                       "tetrahedra: volumes",       "tetrahedra: volumes (colouring)",
                                                       "valence (int atomics)"}))
      << "a new example needs its test below";
}

// The manual's smoothing (§2.4): Relaxed = 0.8·Relaxed + 0.2·(sum over the padded ball of the
// barycentres, w included)/degree, from zero; the coordinates do not move. Twice: 0.36·mean.
TEST_F(MeshExamples, SmoothingAsTheManualPrintsIt) {
  run("smoothing");
  auto kernels = compile_text(*g_, mesh_examples().at("smoothing").text);
  ctx().submit_now([&](VkCommandBuffer cmd) {
    for (auto& k : kernels) g_->record(cmd, *k);
  });
  auto relaxed = field("Relaxed");
  auto crd = g_->coordinates();
  const Ball& b = g_->upward(Kind::Vertices, Kind::Triangles);
  for (size_t v = 0; v < m_.vertices(); ++v) {
    glm::dvec3 s(0.0);
    for (uint32_t k = 0; k < b.degree[v]; ++k) s += centre(Kind::Triangles, b.member(uint32_t(v), k));
    glm::dvec3 want = (1 - 0.8 * 0.8) * s / double(b.degree[v]);  // 0.2·m, then 0.8·0.2·m + 0.2·m
    for (int c = 0; c < 3; ++c) ASSERT_NEAR(relaxed[4 * v + c], want[c], 1e-6) << "vertex " << v;
    ASSERT_EQ(relaxed[4 * v + 3], 0.0) << "the barycentres' w is zero";
    for (int c = 0; c < 3; ++c) ASSERT_EQ(crd[4 * v + c], float(P(uint32_t(v))[c])) << "the manual moves no vertex";
  }
}

// Each vertex moves `weight` of the way to the mean barycentre of its ball; Move says how far
// the laplacian example would go (weight 0.5 there), scaled by the weight with parameters.
void expect_moved_towards_the_ball(MeshExamples& t, const std::vector<double>& move, const std::vector<float>& crd,
                                   double weight, double move_scale) {
  const Ball& b = t.g().upward(Kind::Vertices, Kind::Triangles);
  for (size_t v = 0; v < t.m().vertices(); ++v) {
    glm::dvec3 s(0.0);
    for (uint32_t k = 0; k < b.degree[v]; ++k) s += t.centre(Kind::Triangles, b.member(uint32_t(v), k));
    glm::dvec3 target = s / double(b.degree[v]);
    ASSERT_NEAR(move[4 * v], move_scale * glm::distance(target, t.P(uint32_t(v))), 1e-6) << "vertex " << v;
    glm::dvec3 moved = t.P(uint32_t(v)) + weight * (target - t.P(uint32_t(v)));
    for (int c = 0; c < 3; ++c) ASSERT_NEAR(crd[4 * v + c], moved[c], 1e-6) << "vertex " << v;
  }
}

TEST_F(MeshExamples, LaplacianSmoothing) {
  run("laplacian smoothing");
  expect_moved_towards_the_ball(*this, field("Move"), g_->coordinates(), 0.5, 1.0);
}

// Its parameters at the text's values (Weight 0.5); setting them and reading them back:
// mesh_parameters_test.cpp.
TEST_F(MeshExamples, SmoothingWithParameters) {
  run("smoothing with parameters");
  expect_moved_towards_the_ball(*this, field("Move"), g_->coordinates(), 0.5, 0.5);
}

TEST_F(MeshExamples, ScatterGatherPair) {
  run("scatter/gather pair");
  auto avg = field("Avg");
  const Ball& b = g_->upward(Kind::Vertices, Kind::Triangles);
  for (size_t v = 0; v < m_.vertices(); ++v) {
    glm::dvec3 s(0.0);
    for (uint32_t k = 0; k < b.degree[v]; ++k) s += centre(Kind::Triangles, b.member(uint32_t(v), k));
    for (int c = 0; c < 3; ++c) ASSERT_NEAR(avg[4 * v + c], s[c] / b.degree[v], 1e-6) << "vertex " << v;
  }
}

TEST_F(MeshExamples, DriftDirect) {
  run("drift (direct)");
  auto crd = g_->coordinates();
  auto speed = field("Vitesse"), dir = field("Direction");
  for (uint32_t v = 0; v < m_.vertices(); ++v) {
    uint32_t h = v * 2654435761u;
    double s = 0.002f * float(h >> 16) / 65536.0f;
    glm::dvec3 d = glm::normalize(glm::dvec3(double(h & 255u), double((h >> 8) & 255u), double(h >> 24)) - 127.5);
    ASSERT_NEAR(speed[v], s, 1e-9) << "vertex " << v;
    for (int c = 0; c < 3; ++c) {
      ASSERT_NEAR(dir[4 * v + c], d[c], 1e-6) << "vertex " << v;
      ASSERT_NEAR(crd[4 * v + c], P(v)[c] + s * d[c], 1e-6) << "vertex " << v;
    }
  }
}

TEST_F(MeshExamples, Areas) {
  run("areas");
  auto a = field("Area");
  for (size_t t = 0; t < g_->count(Kind::Triangles); ++t) ASSERT_NEAR(a[4 * t], area(t), 1e-7) << "triangle " << t;
}

void expect_stars(const std::vector<double>& star, const Elements& tri, size_t nv,
                  const std::function<double(size_t)>& area) {
  std::vector<double> cpu(nv, 0.0);
  for (size_t t = 0; t < tri.count(); ++t)
    for (int c = 0; c < 3; ++c) cpu[tri.v[3 * t + c]] += area(t);
  for (size_t v = 0; v < nv; ++v) ASSERT_NEAR(star[4 * v], cpu[v], 1e-6) << "vertex " << v;
}

TEST_F(MeshExamples, StarAreas) {
  run("star areas");
  expect_stars(field("Star"), E(Kind::Triangles), m_.vertices(), [&](size_t t) { return area(t); });
}

TEST_F(MeshExamples, StarAreasWithAtomics) {
  if (!ctx().atomic_float_add) {
    EXPECT_THROW(run("star areas (atomics)"), KernelError) << "atomicAdd on floats needs the extension";
    return;
  }
  run("star areas (atomics)");
  expect_stars(field("Star"), E(Kind::Triangles), m_.vertices(), [&](size_t t) { return area(t); });
}

// GMlib manual §2.5's first way: the triangles in colours that share no vertex, a plain +=.
TEST_F(MeshExamples, StarAreasWithColouring) {
  run("star areas (colouring)");
  expect_stars(field("Star"), E(Kind::Triangles), m_.vertices(), [&](size_t t) { return area(t); });
}

TEST_F(MeshExamples, MeanHeightPerTriangle) {
  run("mean height per triangle");
  auto mean = field("Mean");
  for (size_t t = 0; t < g_->count(Kind::Triangles); ++t) ASSERT_NEAR(mean[4 * t], centre(Kind::Triangles, t).z, 1e-7);
}

// The manual's distance (§2.4): the smallest of the three distances to the neighbours'
// barycentres, a missing neighbour read as zero (the origin), as its code does.
TEST_F(MeshExamples, NeighbourDistanceAsTheManualPrintsIt) {
  run("neighbour distance");
  auto dist = field("Dist");
  auto across = g_->neighbours(Kind::Triangles);
  size_t boundary = 0;
  for (size_t t = 0; t < g_->count(Kind::Triangles); ++t) {
    double d = 1e300;
    for (int k = 0; k < 3; ++k) {
      uint32_t n = across[3 * t + k];
      glm::dvec3 other = n == UINT32_MAX ? glm::dvec3(0.0) : centre(Kind::Triangles, n);
      boundary += n == UINT32_MAX;
      d = std::min(d, glm::distance(centre(Kind::Triangles, t), other));
    }
    ASSERT_NEAR(dist[4 * t], d, 1e-6) << "triangle " << t;
  }
  EXPECT_GT(boundary, 0u) << "the grid has a boundary: the origin case is exercised";
}

TEST_F(MeshExamples, ValenceWithIntAtomics) {
  run("valence (int atomics)");
  EXPECT_EQ(g_->field_type("Valence"), (FieldType{Scalar::Int, 1}));
  auto val = field("Valence");
  std::vector<double> cpu(m_.vertices(), 0);
  for (uint32_t v : E(Kind::Triangles).v) cpu[v] += 1;
  EXPECT_EQ(val, cpu);
}

TEST_F(MeshExamples, DiagonalsThroughTheUserLink) {
  run("diagonals (user link)");
  auto diag = field("Diag"), ratio = field("Ratio");
  auto opp = facing_vertices(*g_);
  const Elements& e = E(Kind::Edges);
  std::vector<double> cpu(e.count(), 0.0);
  for (size_t i = 0; i < e.count(); ++i) {
    if (opp[2 * i + 1] != UINT32_MAX)
      cpu[i] = glm::distance(P(opp[2 * i]), P(opp[2 * i + 1])) / glm::distance(P(e.v[2 * i]), P(e.v[2 * i + 1]));
    ASSERT_NEAR(diag[i], cpu[i], 1e-5) << "edge " << i;
  }
  std::vector<double> most(m_.vertices(), 0.0);
  for (size_t i = 0; i < e.count(); ++i)
    for (int c = 0; c < 2; ++c) most[e.v[2 * i + c]] = std::max(most[e.v[2 * i + c]], cpu[i]);
  for (size_t v = 0; v < m_.vertices(); ++v) ASSERT_NEAR(ratio[v], most[v], 1e-5) << "vertex " << v;
}

TEST_F(MeshExamples, TetrahedraVolumes) {
  run("tetrahedra: volumes");
  auto vol = field("Vol"), dual = field("Dual");
  const Elements& t = E(Kind::Tetrahedra);
  std::vector<double> cpu(t.count()), quarter(m_.vertices(), 0.0);
  for (size_t i = 0; i < t.count(); ++i) {
    glm::dvec3 a = P(t.v[4 * i]);
    cpu[i] = glm::dot(P(t.v[4 * i + 1]) - a, glm::cross(P(t.v[4 * i + 2]) - a, P(t.v[4 * i + 3]) - a)) / 6;
    ASSERT_NEAR(vol[i], cpu[i], 1e-7) << "tetrahedron " << i;
    for (int c = 0; c < 4; ++c) quarter[t.v[4 * i + c]] += cpu[i] / 4;
  }
  double total = 0;
  for (size_t v = 0; v < m_.vertices(); ++v) {
    ASSERT_NEAR(dual[v], quarter[v], 1e-7) << "vertex " << v;
    total += dual[v];
  }
  EXPECT_NEAR(total, 1.0, 1e-5) << "the dual cells fill the cube";
}

// The same sums over the padded ball (VerTetDegMax slots, the empty ones reading 0) as over the
// true degree: adding 0.0 changes no sum, so the two loops agree to the bit (GMlib manual §2.4's
// padded loop; the bench rows mesh.up and mesh.up padded time both).
TEST_F(MeshExamples, TetrahedraPaddedBallSumsAsTheRunTimeLoop) {
  run("tetrahedra: volumes");
  auto dual = field("Dual");
  run("tetrahedra: padded ball");
  auto padded = field("Dual");
  EXPECT_EQ(padded, dual);
  double total = 0;
  for (double d : padded) total += d;
  EXPECT_NEAR(total, 1.0, 1e-5) << "the dual cells fill the cube";
  const Ball& b = g().upward(Kind::Vertices, Kind::Tetrahedra);
  uint32_t most = *std::max_element(b.degree.begin(), b.degree.end());
  EXPECT_LT(*std::min_element(b.degree.begin(), b.degree.end()), most) << "degrees vary: padding is read";
}

TEST_F(MeshExamples, TetrahedraVolumesWithColouring) {
  run("tetrahedra: volumes (colouring)");
  auto vol = field("Vol"), dual = field("Dual");
  const Elements& t = E(Kind::Tetrahedra);
  std::vector<double> quarter(m_.vertices(), 0.0);
  for (size_t i = 0; i < t.count(); ++i) {
    glm::dvec3 a = P(t.v[4 * i]);
    double v = glm::dot(P(t.v[4 * i + 1]) - a, glm::cross(P(t.v[4 * i + 2]) - a, P(t.v[4 * i + 3]) - a)) / 6;
    ASSERT_NEAR(vol[i], v, 1e-7) << "tetrahedron " << i;
    for (int c = 0; c < 4; ++c) quarter[t.v[4 * i + c]] += v / 4;
  }
  double total = 0;
  for (size_t v = 0; v < m_.vertices(); ++v) {
    ASSERT_NEAR(dual[v], quarter[v], 1e-7) << "vertex " << v;
    total += dual[v];
  }
  EXPECT_NEAR(total, 1.0, 1e-5) << "the dual cells fill the cube";
}

TEST_F(MeshExamples, TetrahedraShells) {
  run("tetrahedra: shells");
  auto len = field("Len"), around = field("Around"), longest = field("Longest");
  const Elements& e = E(Kind::Edges);
  const auto& te = g_->edges().edges_of.at(Kind::Tetrahedra);
  std::vector<double> shell(e.count(), 0);
  for (uint32_t x : te) shell[x] += 1;
  for (size_t i = 0; i < e.count(); ++i) {
    ASSERT_NEAR(len[i], glm::distance(P(e.v[2 * i]), P(e.v[2 * i + 1])), 1e-6) << "edge " << i;
    ASSERT_EQ(around[i], shell[i]) << "edge " << i;
  }
  for (size_t t = 0; t < E(Kind::Tetrahedra).count(); ++t) {
    double l = 0;
    for (int k = 0; k < 6; ++k)
      l = std::max(l, glm::distance(P(e.v[2 * te[6 * t + k]]), P(e.v[2 * te[6 * t + k] + 1])));
    ASSERT_NEAR(longest[t], l, 1e-6) << "tetrahedron " << t;
  }
}

TEST_F(MeshExamples, HexahedraNeighbours) {
  run("hexahedra: neighbours");
  auto height = field("Height"), smooth = field("Smooth");
  auto across = g_->neighbours(Kind::Hexahedra);
  for (size_t h = 0; h < E(Kind::Hexahedra).count(); ++h) {
    ASSERT_NEAR(height[h], centre(Kind::Hexahedra, h).z, 1e-6);
    double s = centre(Kind::Hexahedra, h).z, n = 1;
    for (int f = 0; f < 6; ++f)
      if (across[6 * h + f] != UINT32_MAX) s += centre(Kind::Hexahedra, across[6 * h + f]).z, n += 1;
    ASSERT_NEAR(smooth[h], s / n, 1e-6) << "hexahedron " << h;
  }
}

}  // namespace

namespace {

// An error in the second section names the line as the editor counts it (line 5 here);
// fields a failed text declared stay usable, and the text can be fixed and compiled.
// GMlib's MeshQuality kernel as its sample prints it (the surface of two faces), in doubles.
double gmlib_quality(const glm::dvec3 p[4]) {
  double len = 0;
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) len = std::max(len, glm::dot(p[a] - p[b], p[a] - p[b]));
  double srf =
      0.5 * glm::length(glm::cross(p[2] - p[0], p[1] - p[0])) + 0.5 * glm::length(glm::cross(p[3] - p[0], p[1] - p[0]));
  double vol = 0.166666 * glm::dot(glm::cross(p[1] - p[0], p[2] - p[0]), p[3] - p[0]);
  return 7.348469 * vol / (srf * std::sqrt(len));
}

TEST_F(MeshExamples, GmlibMeshQuality) {
  run("GMlib: mesh quality");
  auto q = field("Qal");
  const Elements& t = E(Kind::Tetrahedra);
  for (size_t i = 0; i < t.count(); ++i) {
    glm::dvec3 p[4];
    for (int c = 0; c < 4; ++c) p[c] = P(t.v[4 * i + c]);
    ASSERT_NEAR(q[i], gmlib_quality(p), 1e-5) << "tetrahedron " << i;
  }
}

// GpuBandwidth's four kernels, each checked after its own launch.
TEST_F(MeshExamples, GmlibGpuBandwidth) {
  m_ = cube(3, Kind::Tetrahedra, 0.2);
  g_ = std::make_unique<GpuMesh>(ctx(), m_);
  auto k = compile_text(*g_, mesh_examples().at("GMlib: gpu bandwidth").text);
  ASSERT_EQ(k.size(), 4u);
  const Elements& t = E(Kind::Tetrahedra);
  size_t nv = m_.vertices(), nt = t.count();
  auto launch = [&](size_t i) { ctx().submit_now([&](VkCommandBuffer cmd) { g_->record(cmd, *k[i]); }); };
  launch(0);
  auto dat = field("Dat");
  for (size_t v = 0; v < nv; ++v)
    for (int c = 0; c < 4; ++c) ASSERT_EQ(dat[4 * v + c], c < 3 ? P(uint32_t(v))[c] : 0.0) << "vertex " << v;
  launch(1);
  auto data = field("Data");
  for (size_t i = 0; i < nt; ++i)
    for (int c = 0; c < 4; ++c) ASSERT_EQ(data[4 * i + c], t.v[4 * i + c]) << "tetrahedron " << i;
  launch(2);
  data = field("Data");
  std::vector<glm::dvec3> sum(nt, glm::dvec3(0.0)), ball(nv, glm::dvec3(0.0));
  for (size_t i = 0; i < nt; ++i) {
    for (int c = 0; c < 4; ++c) sum[i] += P(t.v[4 * i + c]);
    for (int c = 0; c < 4; ++c) ASSERT_NEAR(data[4 * i + c], c < 3 ? sum[i][c] : 0.0, 1e-6) << "tetrahedron " << i;
    for (int c = 0; c < 4; ++c) ball[t.v[4 * i + c]] += sum[i];
  }
  launch(3);
  dat = field("Dat");
  for (size_t v = 0; v < nv; ++v)
    for (int c = 0; c < 4; ++c) ASSERT_NEAR(dat[4 * v + c], c < 3 ? ball[v][c] : 0.0, 1e-5) << "vertex " << v;
}

// NodeSmoothing's scatter, gather (through the corner index) and quality, one run.
TEST_F(MeshExamples, GmlibNodeSmoothing) {
  Mesh before = cube(3, Kind::Tetrahedra, 0.2);
  run("GMlib: node smoothing");
  auto opt = field("OptCrd"), res = field("Res"), qal = field("Qal");
  auto crd = g_->coordinates();
  const Elements& t = E(Kind::Tetrahedra);
  size_t nv = m_.vertices(), nt = t.count();
  std::vector<glm::dvec3> target(nv, glm::dvec3(0.0));
  std::vector<double> deg(nv, 0.0);
  static const int kFace[4][3] = {{1, 2, 3}, {0, 2, 3}, {1, 0, 3}, {1, 2, 0}};
  for (size_t i = 0; i < nt; ++i) {
    glm::dvec3 p[4];
    for (int c = 0; c < 4; ++c) p[c] = P(t.v[4 * i + c]);
    glm::dvec3 e[6] = {p[0] - p[1], p[0] - p[2], p[0] - p[3], p[1] - p[2], p[1] - p[3], p[2] - p[3]};
    double l[6];
    for (int j = 0; j < 6; ++j) l[j] = glm::dot(e[j], e[j]);
    // each corner: the longest edge of the opposite face, and its normal
    const double longest[4] = {std::max({l[3], l[4], l[5]}), std::max({l[1], l[2], l[5]}), std::max({l[0], l[2], l[4]}),
                               std::max({l[0], l[1], l[3]})};
    const glm::dvec3 normal[4] = {glm::cross(e[4], e[5]), glm::cross(e[5], e[2]), glm::cross(e[2], e[4]),
                                  glm::cross(e[3], e[1])};
    for (int c = 0; c < 4; ++c) {
      glm::dvec3 ctr = (p[kFace[c][0]] + p[kFace[c][1]] + p[kFace[c][2]]) / 3.0;
      glm::dvec3 o = ctr + glm::normalize(normal[c]) * 0.816496 * std::sqrt(longest[c]);
      for (int d = 0; d < 3; ++d) ASSERT_NEAR(opt[16 * i + 4 * c + d], o[d], 1e-5) << "tetrahedron " << i;
      ASSERT_EQ(opt[16 * i + 4 * c + 3], 0.0);
      target[t.v[4 * i + c]] += o;
      deg[t.v[4 * i + c]] += 1;
    }
  }
  for (size_t v = 0; v < nv; ++v) {
    glm::dvec3 p = P(uint32_t(v)), moved = glm::mix(p, target[v] / deg[v], 0.2);
    for (int d = 0; d < 3; ++d) ASSERT_NEAR(crd[4 * v + d], moved[d], 1e-5) << "vertex " << v;
    ASSERT_NEAR(res[v], glm::dot(p - moved, p - moved), 1e-7) << "vertex " << v;
  }
  for (size_t i = 0; i < nt; ++i) {
    glm::dvec3 p[4];
    for (int c = 0; c < 4; ++c)
      p[c] = glm::dvec3(crd[4 * t.v[4 * i + c]], crd[4 * t.v[4 * i + c] + 1], crd[4 * t.v[4 * i + c] + 2]);
    ASSERT_NEAR(qal[i], gmlib_quality(p), 1e-4) << "tetrahedron " << i;
  }
  EXPECT_EQ(before.xyz, m_.xyz) << "the host's mesh stays; the GPU's moved";
}

TEST_F(MeshExamples, ErrorsNameTheEditorsLine) {
  GpuMesh g(ctx(), bumpy_grid(5));
  const std::string bad = "// loop: Tri\nTriA.x = 1.0;\n---\n// loop: Ver\nVerB.x = undefined_thing;\n";
  try {
    compile_text(g, bad);
    ADD_FAILURE() << "compiled";
  } catch (const KernelError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("section starting at line 4"), std::string::npos) << what;
    EXPECT_NE(what.find("kernel:5:"), std::string::npos) << what;
    EXPECT_NE(what.find("undefined_thing"), std::string::npos) << what;
  }
  // The sections compile on threads of their own: the first in the text that fails is said,
  // whether it failed compiling (line 1, here) or before (line 4: a vertex loop by colour).
  for (const char* later :
       {"// loop: Ver\nVerB.x = undefined_thing;\n", "// loop: Ver\n// write: colouring\nVerB.x = 1.0;\n"}) {
    try {
      compile_text(g, "// loop: Tri\nTriA.x = also_undefined;\n---\n" + std::string(later));
      ADD_FAILURE() << "compiled";
    } catch (const KernelError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("section starting at line 1", 0), 0u) << e.what();
    }
  }
  auto fixed = compile_text(g, "// loop: Tri\nTriA.x = 1.0;\n---\n// loop: Ver\nVerB.x = 2.0;\n");
  EXPECT_EQ(fixed.size(), 2u);
  EXPECT_THROW(compile_text(g, "// field: Q vec5 Ver\n// loop: Ver\nVerQ = 1.0;\n"), KernelError)
      << "a bad declaration";
  EXPECT_THROW(compile_text(g, "\n\n"), KernelError) << "nothing to run";
}

}  // namespace
