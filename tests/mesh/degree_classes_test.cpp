// Upward links in degree classes (seed 004, §2.4): the mirrored cube whose balls have two
// degrees, the renumbering by degree, the ball stored class by class, and kernels run one
// part a class, each vertex's gather checked against the CPU.
#include "compute/mesh/generate.h"
#include "compute/mesh/io/kernel_words.h"
#include "compute/mesh/renumber.h"
#include "tests/mesh/helpers.h"

#include <algorithm>
#include <random>
#include <set>

using namespace mesh;

namespace {

double signed_volume(const Mesh& m, const uint32_t* t) {
  glm::dvec3 a = vertex(m, t[0]);
  return glm::dot(vertex(m, t[1]) - a, glm::cross(vertex(m, t[2]) - a, vertex(m, t[3]) - a)) / 6;
}

// The corners of every tetrahedron, by coordinates, in a canonical order: the same set for
// the same mesh numbered otherwise.
std::multiset<std::vector<double>> tetrahedra(const Mesh& m) {
  std::multiset<std::vector<double>> out;
  const Elements& t = *m.find(Kind::Tetrahedra);
  for (size_t e = 0; e < t.count(); ++e) {
    std::vector<std::vector<double>> c;
    for (int k = 0; k < 4; ++k) {
      glm::dvec3 p = vertex(m, t.v[4 * e + k]);
      c.push_back({p.x, p.y, p.z});
    }
    std::sort(c.begin(), c.end());
    std::vector<double> flat;
    for (auto& p : c) flat.insert(flat.end(), p.begin(), p.end());
    out.insert(flat);
  }
  return out;
}

}  // namespace

TEST(MeshClasses, TheMirroredCubeIsConformingWithBallsOf16And48) {
  const uint32_t n = 4, p = n + 1;
  Mesh m = cube(n, Kind::Tetrahedra, 0.0, true);
  const Elements& t = *m.find(Kind::Tetrahedra);
  ASSERT_EQ(t.count(), 6u * n * n * n);
  double total = 0;
  for (size_t e = 0; e < t.count(); ++e) {
    double v = signed_volume(m, &t.v[4 * e]);
    ASSERT_NEAR(v, 1.0 / (6.0 * n * n * n), 1e-9) << "tetrahedron " << e << " positive, a sixth of its cell";
    total += v;
  }
  EXPECT_NEAR(total, 1.0, 1e-9);
  // Conforming: every facet inside has a neighbour; the boundary holds the cube's 12 n² triangles.
  auto nb = neighbours(t, m.vertices());
  EXPECT_EQ(std::count(nb.begin(), nb.end(), UINT32_MAX), long(12 * n * n));
  Ball b = ball(t, m.vertices());
  for (uint32_t z = 1; z < n; ++z)
    for (uint32_t y = 1; y < n; ++y)
      for (uint32_t x = 1; x < n; ++x) {
        bool diagonal_end = (x % 2 == y % 2) && (y % 2 == z % 2);
        ASSERT_EQ(b.degree[(z * p + y) * p + x], diagonal_end ? 48u : 16u) << x << "," << y << "," << z;
      }
  EXPECT_EQ(b.padded, 64u);
  EXPECT_EQ(b.classes.size(), 1u) << "numbered along the grid, the widths go up and down: one class";
}

TEST(MeshClasses, RenumberedByDegreeTheBallIsStoredClassByClass) {
  Mesh m = cube(6, Kind::Tetrahedra, 0.2, true);
  auto before = tetrahedra(m);
  renumber_hilbert(m, Kind::Tetrahedra);
  EXPECT_EQ(tetrahedra(m), before) << "the same tetrahedra, numbered otherwise";
  const Elements& t = *m.find(Kind::Tetrahedra);
  Ball b = ball(t, m.vertices());
  ASSERT_GE(b.classes.size(), 2u);
  size_t slots = 0, next = 0;
  for (size_t c = 0; c < b.classes.size(); ++c) {
    const BallClass& k = b.classes[c];
    EXPECT_EQ(k.first, next) << "classes follow each other";
    EXPECT_EQ(k.offset, slots);
    if (c) {
      EXPECT_GT(k.width, b.classes[c - 1].width) << "widths increase";
    }
    next += k.count, slots += size_t(k.count) * k.width;
  }
  EXPECT_EQ(next, m.vertices());
  EXPECT_EQ(slots, b.members.size());
  EXPECT_LT(b.members.size() * 2, m.vertices() * size_t(b.padded)) << "less than half the padded table";
  for (uint32_t v = 0; v < m.vertices(); ++v) {
    uint32_t w = b.class_of(v).width;
    ASSERT_EQ(w, class_width(b.degree[v], b.padded)) << "vertex " << v;
    std::multiset<uint32_t> members;
    for (uint32_t s = 0; s < w; ++s) {
      uint32_t e = b.member(v, s);
      if (s >= b.degree[v]) {
        ASSERT_EQ(e, UINT32_MAX) << "padding";
        continue;
      }
      ASSERT_LT(e, t.count());
      ASSERT_TRUE(std::count(&t.v[4 * e], &t.v[4 * e + 4], v)) << "the ball's tetrahedron holds its vertex";
      members.insert(e);
    }
    ASSERT_EQ(std::set<uint32_t>(members.begin(), members.end()).size(), b.degree[v]) << "each once";
  }
}

// A ball read by slot up to LXDegMax (the seed's way, zeros past the degree), by index, and
// through an array the body writes (so not read lazily): one part a class, every vertex.
TEST_F(MeshEntities, KernelsRunOnePartADegreeClass) {
  for (bool by_degree : {false, true}) {
    Mesh m = cube(5, Kind::Tetrahedra, 0.2, true);
    std::optional<Kind> classes;
    if (by_degree) classes = Kind::Tetrahedra;
    renumber_hilbert(m, classes);
    GpuMesh g(ctx(), m);
    size_t nt = g.count(Kind::Tetrahedra), nv = g.vertices();
    g.add_field("Vol", Kind::Tetrahedra, {Scalar::Float, 1});
    g.add_field("Sum", Kind::Vertices, {Scalar::Float, 4});
    g.add_field("Twice", Kind::Vertices, {Scalar::Float, 2});
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(0.5, 2.0);
    std::vector<double> vol(nt);
    for (double& v : vol) v = u(rng);
    g.upload("Vol", vol);
    auto sum = g.compile(Kind::Vertices,
                         "float s = 0.0;\nfor (uint k = 0u; k < VerTetDegMax; ++k) s += VerTetVol[k];\n"
                         "VerSum = vec4(s, float(VerTetDeg), float(VerTetDegMax), float(VerTet[VerTetDeg - 1u]));");
    auto twice = g.compile(Kind::Vertices,
                           "VerTetVol[0] *= 2.0;\nfloat s = 0.0;\nfor (uint k = 0u; k < VerTetDeg; ++k) s += "
                           "VerTetVol[k];\nVerTwice = vec2(s, VerTetVol[VerTetDegMax - 1u]);");
    const Ball& b = g.upward(Kind::Vertices, Kind::Tetrahedra);
    // Traffic for the Timings table: the ball table, the degrees, Vol read; Sum read and written.
    EXPECT_EQ(g.traffic(*sum), 4.0 * b.members.size() + 4.0 * nv + 4.0 * nt + 2 * 16.0 * nv);
    EXPECT_EQ(sum->parts.size(), b.classes.size());
    EXPECT_EQ(sum->parts.size() > 1, by_degree);
    EXPECT_NE(sum->source.find("VerTetVol_at("), std::string::npos) << "read where the body reads it";
    EXPECT_EQ(twice->source.find("VerTetVol_at("), std::string::npos) << "written: an array";
    ctx().submit_now([&](VkCommandBuffer cmd) {
      g.record(cmd, *sum);
      g.record(cmd, *twice);
    });
    auto s = g.download("Sum"), w = g.download("Twice");
    for (uint32_t v = 0; v < nv; ++v) {
      double ref = 0;
      for (uint32_t k = 0; k < b.degree[v]; ++k) ref += float(vol[b.member(v, k)]);
      double first = float(vol[b.member(v, 0)]);
      ASSERT_NEAR(s[4 * v], ref, 1e-4 * ref) << "vertex " << v;
      ASSERT_EQ(s[4 * v + 1], b.degree[v]);
      ASSERT_EQ(s[4 * v + 2], b.class_of(v).width) << "VerTetDegMax: the vertex's class";
      ASSERT_EQ(s[4 * v + 3], float(b.member(v, b.degree[v] - 1)));
      ASSERT_NEAR(w[2 * v], ref + first, 1e-4 * ref) << "vertex " << v;
      uint32_t last = b.class_of(v).width - 1;
      ASSERT_EQ(w[2 * v + 1], last < b.degree[v] ? float(vol[b.member(v, last)]) * (last ? 1 : 2) : 0.0)
          << "zero past the degree";
    }
  }
}

// Bodies the slot reading must not change: one that declares its own i (an error, as a
// redefinition), names count or first, writes into a gathered slot in a way the generator
// does not see (compiled with arrays instead), mentions the ball in a comment.
TEST_F(MeshEntities, SlotReadingKeepsWhatTheBodyMeans) {
  Mesh m = cube(3, Kind::Tetrahedra, 0.2, true);
  renumber_hilbert(m, Kind::Tetrahedra);
  GpuMesh g(ctx(), m);
  size_t nt = g.count(Kind::Tetrahedra), nv = g.vertices();
  g.add_field("Vol", Kind::Tetrahedra, {Scalar::Float, 1});
  g.add_field("Out", Kind::Vertices, {Scalar::Float, 2});
  std::vector<double> vol(nt);
  for (size_t e = 0; e < nt; ++e) vol[e] = 1.0 + double(e % 7);
  g.upload("Vol", vol);
  EXPECT_THROW(g.compile(Kind::Vertices, "int i = 3;\nVerOut.x = float(i);"), KernelError);
  auto k = g.compile(Kind::Vertices,
                     "// VerTetVol: the volumes around; VerTetVol[ in a comment\nuint count = 0u, first = 1u;\n"
                     "VerTetVol[0]++;\nfloat s = 0.0;\nfor (uint k = 0u; k < VerTetDeg; ++k) { s += VerTetVol[k]; "
                     "++count; }\nVerOut = vec2(s, float(count + first));");
  EXPECT_EQ(k->source.find("VerTetVol_at("), std::string::npos) << "VerTetVol[0]++ writes: arrays";
  auto c = g.compile(Kind::Vertices,
                     "/* VerTetVol */ float s = 0.0; // VerTetVol[\nfor (uint k = 0u; k < VerTetDeg; ++k) s += "
                     "VerTetVol[k];\nVerOut = vec2(s, 0.0);");
  EXPECT_NE(c->source.find("VerTetVol_at("), std::string::npos) << "comments do not count";
  const Ball& b = g.upward(Kind::Vertices, Kind::Tetrahedra);
  for (auto* kernel : {k.get(), c.get()}) {
    ctx().submit_now([&](VkCommandBuffer cmd) { g.record(cmd, *kernel); });
    auto out = g.download("Out");
    for (uint32_t v = 0; v < nv; ++v) {
      double ref = kernel == k.get() ? 1.0 : 0.0;
      for (uint32_t j = 0; j < b.degree[v]; ++j) ref += vol[b.member(v, j)];
      ASSERT_EQ(out[2 * v], ref) << "vertex " << v;
      if (kernel == k.get()) {
        ASSERT_EQ(out[2 * v + 1], b.degree[v] + 1.0) << "vertex " << v;
      }
    }
  }
}

TEST(MeshWords, SubscriptsBecomeCalls) {
  std::string code = "x = a[b[1]] + a [2u] * ab[3] + b_a[4];";
  EXPECT_TRUE(words::subscripts_to_calls(code, "a", "a_at"));
  EXPECT_EQ(code, "x = a_at(b[1]) + a_at(2u) * ab[3] + b_a[4];");
  code = "// a[ and a\n/* a */ x = a[1];";
  EXPECT_TRUE(words::subscripts_to_calls(code, "a", "a_at"));
  EXPECT_EQ(code, "// a[ and a\n/* a */ x = a_at(1);") << "comments left as they are";
  for (std::string other : {"n = a.length();", "f(a);", "y = a[a[0]];", "y = a[1"}) {
    std::string kept = other;
    EXPECT_FALSE(words::subscripts_to_calls(kept, "a", "a_at")) << other;
    EXPECT_EQ(kept, other);
  }
}

TEST(MeshClasses, TheLabsNumberingChoiceSortsTheVolumesBalls) {
  Mesh m = cube(4, Kind::Tetrahedra, 0.1, true);
  m.elements.push_back(extract_faces(m).boundary(Kind::Triangles));
  renumber(m, "hilbert by degree");
  EXPECT_GE(ball(*m.find(Kind::Tetrahedra), m.vertices()).classes.size(), 2u) << "the tetrahedra's ball";
  EXPECT_THROW(renumber(m, "by luck"), std::invalid_argument);
}
