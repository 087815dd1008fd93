// GMlib's per-slot corner index (its "voyeurs"): the place a vertex has in each element of its
// ball, the local edge an edge is of each element of its shell (LXVoy in a kernel); an array
// field's one element read through a ball (LXF[k][c]); the tables as the GPU reads them; and the
// workgroup size a kernel's first launches tune (GMlib's calibration).
#include "compute/mesh/generate.h"
#include "compute/mesh/io/kernel_words.h"
#include "compute/mesh/renumber.h"
#include "tests/mesh/helpers.h"

#include <random>

using namespace mesh;

namespace {

// A cube of tetrahedra numbered by degree (the mirrored cube: balls of 16 and 48, so several
// classes and a kernel of several parts), or in the generator's order.
Mesh tetrahedra(bool by_degree) {
  Mesh m = cube(4, Kind::Tetrahedra, 0.2, true);
  if (by_degree) renumber_hilbert(m, Kind::Tetrahedra);
  return m;
}

}  // namespace

// Every slot of every ball and shell: its member holds the target at its corner, and the packed
// word the GPU reads is member << corner_bits | corner (UINT32_MAX in the unused slots).
TEST(MeshCorners, EverySlotKnowsItsCorner) {
  Mesh m = tetrahedra(true);
  const Elements& t = *m.find(Kind::Tetrahedra);
  Ball b = ball(t, m.vertices());
  EXPECT_EQ(b.corner_bits, 2u);
  auto packed = b.packed();
  ASSERT_EQ(packed.size(), b.members.size());
  for (uint32_t v = 0; v < m.vertices(); ++v)
    for (uint32_t k = 0; k < b.class_of(v).width; ++k) {
      uint32_t e = b.member(v, k), c = b.corner(v, k);
      if (k >= b.degree[v]) {
        ASSERT_EQ(e, UINT32_MAX);
        continue;
      }
      ASSERT_EQ(t.v[4 * e + c], v) << "vertex " << v << " slot " << k;
    }
  for (size_t s = 0; s < packed.size(); ++s)
    ASSERT_EQ(packed[s], b.members[s] == UINT32_MAX ? UINT32_MAX : b.members[s] << 2 | b.corners[s]);
  EdgeSet es = extract_edges(m);
  Ball shell = upward(es.edges_of.at(Kind::Tetrahedra), 6, es.count());
  EXPECT_EQ(shell.corner_bits, 3u);
  for (uint32_t x = 0; x < es.count(); ++x)
    for (uint32_t k = 0; k < shell.degree[x]; ++k)
      ASSERT_EQ(es.edges_of.at(Kind::Tetrahedra)[6 * shell.member(x, k) + shell.corner(x, k)], x) << "edge " << x;
}

// VerTetVoy and EdgTetVoy read by a kernel, against the CPU's balls: each vertex finds itself
// at its corner of every tetrahedron around it, each edge its two vertices at its local edge;
// and an array field's element at the corner (VerTetOpt[k][VerTetVoy[k]]) read alone.
TEST_F(MeshEntities, KernelsReadTheCornerOfEachSlot) {
  for (bool by_degree : {false, true}) {
    Mesh m = tetrahedra(by_degree);
    GpuMesh g(ctx(), m);
    const Elements& e = g.elements(Kind::Edges);
    size_t nv = g.vertices(), ne = e.count();
    g.add_field("Ids", Kind::Tetrahedra, {Scalar::Int, 4});
    g.add_field("Opt", Kind::Tetrahedra, {Scalar::Float, 4, 4});
    g.add_field("Found", Kind::Vertices, {Scalar::Float, 4});
    g.add_field("Sum", Kind::Vertices, {Scalar::Float, 4});
    g.add_field("Shell", Kind::Edges, {Scalar::Int, 2});
    auto ids = g.compile(Kind::Tetrahedra,
                         "TetIds = ivec4(TetVer);\n"
                         "for (int c = 0; c < 4; ++c) TetOpt[c] = vec4(float(TetVer[c]), float(i), float(c), 1.0);");
    auto found = g.compile(Kind::Vertices,
                           "float bad = 0.0, corners = 0.0;\n"
                           "for (uint k = 0u; k < VerTetDeg; ++k) {\n"
                           "  if (VerTetIds[k][VerTetVoy[k]] != int(i)) bad += 1.0;\n"
                           "  corners += float(VerTetVoy[k]) * float(k + 1u);\n"
                           "}\n"
                           "float past = 0.0;\n"
                           "for (uint k = VerTetDeg; k < VerTetDegMax; ++k) past += float(VerTetVoy[k]);\n"
                           "VerFound = vec4(bad, corners, past, float(VerTetDeg));");
    auto sum = g.compile(Kind::Vertices,
                         "vec4 s = vec4(0.0);\n"
                         "for (uint k = 0u; k < VerTetDegMax; ++k) s += VerTetOpt[k][VerTetVoy[k]];\n"
                         "VerSum = s;");
    auto shell = g.compile(Kind::Edges,
                           "const int a[6] = int[6](0, 0, 0, 1, 1, 2), b[6] = int[6](1, 2, 3, 2, 3, 3);\n"
                           "int bad = 0, places = 0;\n"
                           "for (uint k = 0u; k < EdgTetDeg; ++k) {\n"
                           "  ivec4 v = EdgTetIds[k];\n"
                           "  uint c = EdgTetVoy[k];\n"
                           "  uvec2 p = uvec2(v[a[c]], v[b[c]]);\n"
                           "  if (p != EdgVer && p.yx != EdgVer) ++bad;\n"
                           "  places += int(c) << (3u * (k % 8u));\n"
                           "}\n"
                           "EdgShell = ivec2(bad, places);");
    EXPECT_NE(sum->source.find("VerTetOpt_at(k, VerTetVoy_at(k))"), std::string::npos)
        << "the one element at the corner, read alone";
    EXPECT_NE(ids->source.find("uvec4 TetVer = TetVer_[i];"), std::string::npos) << "a tetrahedron: one uvec4";
    ctx().submit_now([&](VkCommandBuffer cmd) {
      for (auto* k : {ids.get(), found.get(), sum.get(), shell.get()}) g.record(cmd, *k);
    });
    const Ball& ball = g.upward(Kind::Vertices, Kind::Tetrahedra);
    auto f = g.download("Found"), s = g.download("Sum");
    for (uint32_t v = 0; v < nv; ++v) {
      double corners = 0, tets = 0, cs = 0;
      for (uint32_t k = 0; k < ball.degree[v]; ++k) {
        corners += ball.corner(v, k) * (k + 1.0);
        tets += ball.member(v, k);
        cs += ball.corner(v, k);
      }
      ASSERT_EQ(f[4 * v], 0.0) << "vertex " << v << ": a slot whose corner is not the vertex";
      ASSERT_EQ(f[4 * v + 1], corners) << "vertex " << v;
      ASSERT_EQ(f[4 * v + 2], 0.0) << "vertex " << v << ": 0 past the degree";
      ASSERT_EQ(f[4 * v + 3], ball.degree[v]);
      ASSERT_EQ(s[4 * v], double(v) * ball.degree[v]) << "vertex " << v;
      ASSERT_EQ(s[4 * v + 1], tets) << "vertex " << v;
      ASSERT_EQ(s[4 * v + 2], cs) << "vertex " << v;
      ASSERT_EQ(s[4 * v + 3], ball.degree[v]) << "vertex " << v;
    }
    const Ball& sh = g.upward(Kind::Edges, Kind::Tetrahedra);
    auto out = g.download("Shell");
    for (uint32_t x = 0; x < ne; ++x) {
      int places = 0;
      for (uint32_t k = 0; k < sh.degree[x]; ++k) places += int(sh.corner(x, k)) << (3 * (k % 8));
      ASSERT_EQ(out[2 * x], 0.0) << "edge " << x;
      ASSERT_EQ(out[2 * x + 1], places) << "edge " << x;
    }
  }
}

// The names a body may use list the corner index; a field cannot take its name.
TEST_F(MeshEntities, TheCornerIndexIsNamedAndReserved) {
  Mesh m = tetrahedra(false);
  GpuMesh g(ctx(), m);
  bool listed = false;
  for (auto& n : g.names(Kind::Vertices)) listed = listed || n.name == "VerTetVoy";
  EXPECT_TRUE(listed);
  EXPECT_THROW(g.add_field("Voy", Kind::Vertices), std::invalid_argument);
}

TEST(MeshWords, DoubleSubscriptsBecomeCallsOfTwo) {
  std::string code = "x = a[k][b[k]] + a [1] [2u];";
  EXPECT_TRUE(words::subscripts_to_calls(code, "a", "a_at", 2));
  EXPECT_EQ(code, "x = a_at(k, b[k]) + a_at(1, 2u);");
  for (std::string other : {"y = a[k];", "y = a[k] + a[1][2];", "f(a);", "y = a[0][a[1][2]];", "y = a[1][2"}) {
    std::string kept = other;
    EXPECT_FALSE(words::subscripts_to_calls(kept, "a", "a_at", 2)) << other;
    EXPECT_EQ(kept, other);
  }
}

// An array field every element of which the body assigns before reading it is not loaded.
TEST_F(MeshEntities, AnArrayWrittenWholeIsNotLoaded) {
  Mesh m = tetrahedra(false);
  GpuMesh g(ctx(), m);
  g.add_field("Opt", Kind::Tetrahedra, {Scalar::Float, 4, 3});
  auto whole = g.compile(Kind::Tetrahedra, "TetOpt[0] = vec4(1.0);\nTetOpt[2u] = vec4(3.0);\nTetOpt[1] = vec4(2.0);");
  EXPECT_NE(whole->source.find("TetOpt[3] = Opt_read(false, 0u);"), std::string::npos);
  for (const char* part : {"TetOpt[0] = vec4(1.0);\nTetOpt[1] = vec4(2.0);",                          // element 2 kept
                           "TetOpt[0] = vec4(1.0);\nTetOpt[1] = TetOpt[2];\nTetOpt[2] = vec4(0.0);",  // read
                           "if (i > 0u) { TetOpt[0] = vec4(1.0); TetOpt[1] = vec4(1.0); TetOpt[2] = vec4(1.0); }"}) {
    auto k = g.compile(Kind::Tetrahedra, part);
    EXPECT_NE(k->source.find("TetOpt[3] = Opt_read(true, i);"), std::string::npos) << part;
  }
  // and the loaded one keeps what it does not assign
  std::vector<double> before(g.count(Kind::Tetrahedra) * 12);
  for (size_t j = 0; j < before.size(); ++j) before[j] = double(j % 97) + 0.5;
  g.upload("Opt", before);
  auto k = g.compile(Kind::Tetrahedra, "TetOpt[0] = vec4(1.0);\nTetOpt[1] = vec4(2.0);");
  ctx().submit_now([&](VkCommandBuffer cmd) { g.record(cmd, *k); });
  auto after = g.download("Opt");
  for (size_t j = 0; j < after.size(); ++j)
    ASSERT_EQ(after[j], j % 12 < 4 ? 1.0 : j % 12 < 8 ? 2.0 : before[j]) << "value " << j;
}

// GMlib's calibration: the first launches of a kernel run at each size in turn, round after
// round in alternate orders (each launch still covering every entity once), until two rounds
// agree; then at the last round's fastest. On lavapipe turned on by hand.
TEST_F(MeshEntities, TheFirstLaunchesTuneTheWorkgroupSize) {
  Mesh m = cube(8, Kind::Tetrahedra, 0.2);  // 729 vertices: no size divides them
  GpuMesh g(ctx(), m);
  g.set_group_tuning(true);
  g.add_field("Count", Kind::Vertices, {Scalar::Float, 1});
  g.add_field("Vol", Kind::Tetrahedra, {Scalar::Float, 1});
  auto count = g.compile(Kind::Vertices, "VerCount += 1.0;");
  auto vol = g.compile(Kind::Tetrahedra,
                       "TetVol = dot(TetVerCrd[1] - TetVerCrd[0], cross(TetVerCrd[2] - TetVerCrd[0], "
                       "TetVerCrd[3] - TetVerCrd[0])) / 6.0;");
  std::vector<uint32_t> sizes;
  const size_t n = kGroupSizes.size();
  for (int l = 0; !(count->tuning.tuned() && vol->tuning.tuned()); ++l) {
    ASSERT_LT(l, kGroupRounds * int(n) + 2) << "tuned within its rounds";
    sizes.push_back(count->tuning.size());
    ctx().submit_now([&](VkCommandBuffer cmd) {
      g.record(cmd, *count);
      g.record(cmd, *vol);
    });
    auto c = g.download("Count");
    for (size_t v = 0; v < c.size(); ++v) ASSERT_EQ(c[v], l + 1.0) << "launch " << l << " vertex " << v;
  }
  EXPECT_GE(count->tuning.rounds(), 2);
  EXPECT_LE(count->tuning.rounds(), kGroupRounds);
  ASSERT_GE(sizes.size(), 2 * n);
  for (size_t s = 0; s < n; ++s) {
    EXPECT_EQ(sizes[s], kGroupSizes[s]) << "the first round in order";
    EXPECT_EQ(sizes[n + s], kGroupSizes[n - 1 - s]) << "the second the other way";
  }
  EXPECT_EQ(count->tuning.times().size(), n);
  uint32_t best = count->group_size();
  for (auto& [size, ms] : count->tuning.times()) EXPECT_LE(count->tuning.times().at(best), ms) << size;
  EXPECT_EQ(count->tuning.size(), best) << "from then on, the fastest";
  g.retune(*count);  // tried again from the first round (the lab does so once the GPU is warm)
  EXPECT_FALSE(count->tuning.tuned());
  EXPECT_EQ(count->tuning.size(), kGroupSizes[0]);
  const Elements& t = g.elements(Kind::Tetrahedra);
  auto v = g.download("Vol");
  for (size_t i = 0; i < t.count(); ++i) {
    glm::dvec3 a = vertex(m, t.v[4 * i]);
    double ref = glm::dot(vertex(m, t.v[4 * i + 1]) - a,
                          glm::cross(vertex(m, t.v[4 * i + 2]) - a, vertex(m, t.v[4 * i + 3]) - a)) /
                 6;
    ASSERT_NEAR(v[i], ref, 1e-8) << "tetrahedron " << i;
  }
  GpuMesh fixed(ctx(), m);  // not tuning: one size
  fixed.set_group_tuning(false);
  fixed.add_field("Count", Kind::Vertices, {Scalar::Float, 1});
  auto k = fixed.compile(Kind::Vertices, "VerCount += 1.0;");
  EXPECT_TRUE(k->tuning.tuned());
  EXPECT_EQ(k->tuning.size(), kGroupSizes[0]);
}
