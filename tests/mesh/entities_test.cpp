// Kernels over every entity kind, typed fields, shells and user links (seed 004, §2), each
// against a CPU loop on the same mesh, and checked against geometry where it says more
// (volumes add up to the cube's, the boundary has the faces it must).
#include "compute/mesh/generate.h"
#include "compute/mesh/gpu_mesh.h"
#include "tests/mesh/helpers.h"

#include <glm/glm.hpp>

#include <cmath>
#include <random>

using namespace mesh;

namespace {

double tet_volume(const Mesh& m, const uint32_t* t) {
  glm::dvec3 a = vertex(m, t[0]);
  return glm::dot(vertex(m, t[1]) - a, glm::cross(vertex(m, t[2]) - a, vertex(m, t[3]) - a)) / 6;
}

// Tetrahedra: volumes (down to vertices), the count of neighbours across faces (transverse,
// into an int field), the ball of tetrahedra around a vertex (up), the shell of
// tetrahedra around an edge, and edge lengths read from a tetrahedron (down to edges).
TEST_F(MeshEntities, TetrahedronLoopsMatchTheCpu) {
  const uint32_t n = 3;
  Mesh m = cube(n, Kind::Tetrahedra, 0.2);
  GpuMesh g(ctx(), m);
  const Elements& tets = g.elements(Kind::Tetrahedra);
  ASSERT_EQ(tets.count(), 6u * n * n * n);
  g.add_field("Vol", Kind::Tetrahedra, {Scalar::Float, 1});
  g.add_field("Ngb", Kind::Tetrahedra, {Scalar::Int, 1});
  g.add_field("Around", Kind::Vertices, {Scalar::Float, 2});
  g.add_field("Len", Kind::Edges, {Scalar::Float, 1});
  g.add_field("Shell", Kind::Edges, {Scalar::Float, 2});
  g.add_field("Wire", Kind::Tetrahedra, {Scalar::Float, 1});
  std::vector<std::unique_ptr<GpuMesh::Kernel>> k;
  k.push_back(g.compile(Kind::Tetrahedra,
                        "TetVol = dot(TetVerCrd[1] - TetVerCrd[0], cross(TetVerCrd[2] - TetVerCrd[0], TetVerCrd[3] - "
                        "TetVerCrd[0])) / 6.0;\n"
                        "int c = 0;\nfor (int f = 0; f < 4; ++f) c += TetTet[f] != 0xffffffffu ? 1 : 0;\nTetNgb = c;"));
  k.push_back(g.compile(Kind::Vertices,
                        "float v = 0.0;\nfor (uint j = 0u; j < VerTetDeg; ++j) v += VerTetVol[j];\n"
                        "VerAround = vec2(v, float(VerTetDeg));"));
  k.push_back(g.compile(Kind::Edges,
                        "EdgLen = distance(EdgVerCrd[0], EdgVerCrd[1]);\n"
                        "float v = 0.0;\nfor (uint j = 0u; j < EdgTetDeg; ++j) v += EdgTetVol[j];\n"
                        "EdgShell = vec2(v, float(EdgTetDeg));"));
  k.push_back(
      g.compile(Kind::Tetrahedra, "float s = 0.0;\nfor (int e = 0; e < 6; ++e) s += TetEdgLen[e];\nTetWire = s;"));
  ctx().submit_now([&](VkCommandBuffer cmd) {
    for (auto& x : k) g.record(cmd, *x);
  });
  auto vol = g.download("Vol"), ngb = g.download("Ngb"), around = g.download("Around"), len = g.download("Len"),
       shell = g.download("Shell"), wire = g.download("Wire");

  std::vector<double> cvol(tets.count());
  double total = 0;
  for (size_t t = 0; t < tets.count(); ++t) {
    cvol[t] = tet_volume(m, &tets.v[4 * t]);
    total += cvol[t];
    ASSERT_NEAR(vol[t], cvol[t], 1e-6) << "tetrahedron " << t;
    ASSERT_GT(cvol[t], 0) << "positively oriented";
  }
  EXPECT_NEAR(total, 1.0, 1e-5) << "the tetrahedra fill the unit cube";
  auto cngb = mesh::neighbours(tets, m.vertices());
  double open = 0;
  for (size_t t = 0; t < tets.count(); ++t) {
    int c = 0;
    for (int f = 0; f < 4; ++f) c += cngb[4 * t + f] != UINT32_MAX;
    ASSERT_EQ(ngb[t], c) << "tetrahedron " << t;
    open += 4 - c;
  }
  EXPECT_EQ(open, 12.0 * n * n) << "boundary faces: 6 sides of n² squares, 2 triangles each";
  std::vector<double> cball(m.vertices(), 0), cdeg(m.vertices(), 0);
  for (size_t t = 0; t < tets.count(); ++t)
    for (int c = 0; c < 4; ++c) cball[tets.v[4 * t + c]] += cvol[t], cdeg[tets.v[4 * t + c]] += 1;
  for (size_t v = 0; v < m.vertices(); ++v) {
    ASSERT_NEAR(around[2 * v], cball[v], 1e-6) << "ball of vertex " << v;
    ASSERT_EQ(around[2 * v + 1], cdeg[v]) << "VerTetDeg of vertex " << v;
  }
  const EdgeSet& edges = g.edges();
  long V = long(m.vertices()), E = long(edges.count()), T = long(tets.count());
  long F = (4 * T + long(open)) / 2;  // each inner face counted twice, each boundary one once
  EXPECT_EQ(V - E + F - T, 1) << "Euler for a ball: V − E + F − T";
  std::vector<double> cshell(edges.count(), 0), cshdeg(edges.count(), 0);
  const auto& te = edges.edges_of.at(Kind::Tetrahedra);
  for (size_t t = 0; t < tets.count(); ++t)
    for (int e = 0; e < 6; ++e) cshell[te[6 * t + e]] += cvol[t], cshdeg[te[6 * t + e]] += 1;
  for (size_t e = 0; e < edges.count(); ++e) {
    double l = glm::distance(vertex(m, edges.ev[2 * e]), vertex(m, edges.ev[2 * e + 1]));
    ASSERT_NEAR(len[e], l, 1e-6) << "edge " << e;
    ASSERT_NEAR(shell[2 * e], cshell[e], 1e-6) << "shell of edge " << e;
    ASSERT_EQ(shell[2 * e + 1], cshdeg[e]) << "EdgTetDeg of edge " << e;
  }
  for (size_t t = 0; t < tets.count(); ++t) {
    double s = 0;
    for (int e = 0; e < 6; ++e)
      s += glm::distance(vertex(m, edges.ev[2 * te[6 * t + e]]), vertex(m, edges.ev[2 * te[6 * t + e] + 1]));
    ASSERT_NEAR(wire[t], s, 1e-5) << "TetEdgLen of tetrahedron " << t;
  }
  const Ball& shells = g.upward(Kind::Edges, Kind::Tetrahedra);
  EXPECT_EQ(shells.padded & (shells.padded - 1), 0u);
  EXPECT_GE(shells.padded, shells.max_degree);
}

// Hexahedra and quadrilaterals: barycentres over 8 vertices (uint[8] past 4) and
// neighbours across quad faces; a quad grid's neighbours across edges.
TEST_F(MeshEntities, HexahedraAndQuadrilaterals) {
  const uint32_t n = 3;
  Mesh m = cube(n, Kind::Hexahedra, 0.2);
  Elements quads{Kind::Quadrilaterals, {}, {}};  // the z = 0 face, as quadrilaterals
  for (uint32_t y = 0; y < n; ++y)
    for (uint32_t x = 0; x < n; ++x) {
      uint32_t a = y * (n + 1) + x;
      quads.v.insert(quads.v.end(), {a, a + 1, a + n + 2, a + n + 1});
      quads.ref.push_back(7);
    }
  m.elements.push_back(quads);
  GpuMesh g(ctx(), m);
  g.add_field("Bar", Kind::Hexahedra, {Scalar::Float, 3});
  g.add_field("Open", Kind::Hexahedra, {Scalar::Int, 1});
  g.add_field("Side", Kind::Quadrilaterals, {Scalar::Int, 2});
  auto hex = g.compile(Kind::Hexahedra,
                       "vec3 s = vec3(0.0);\nfor (int c = 0; c < 8; ++c) s += HexVerCrd[c];\nHexBar = s / 8.0;\n"
                       "int o = 0;\nfor (int f = 0; f < 6; ++f) o += HexHex[f] == 0xffffffffu ? 1 : 0;\nHexOpen = o;");
  auto quad = g.compile(
      Kind::Quadrilaterals,
      "int c = 0;\nfor (int e = 0; e < 4; ++e) c += QuaQua[e] != 0xffffffffu ? 1 : 0;\nQuaSide = ivec2(c, QuaRef);");
  ctx().submit_now([&](VkCommandBuffer cmd) {
    g.record(cmd, *hex);
    g.record(cmd, *quad);
  });
  auto bar = g.download("Bar"), open = g.download("Open"), side = g.download("Side");
  const Elements& h = g.elements(Kind::Hexahedra);
  auto hn = mesh::neighbours(h, m.vertices());
  double faces = 0;
  for (size_t e = 0; e < h.count(); ++e) {
    glm::dvec3 s(0);
    for (int c = 0; c < 8; ++c) s += vertex(m, h.v[8 * e + c]);
    for (int c = 0; c < 3; ++c) ASSERT_NEAR(bar[3 * e + c], s[c] / 8, 1e-6) << "hexahedron " << e;
    int o = 0;
    for (int f = 0; f < 6; ++f) o += hn[6 * e + f] == UINT32_MAX;
    ASSERT_EQ(open[e], o);
    faces += o;
  }
  EXPECT_EQ(faces, 6.0 * n * n) << "the cube's boundary squares";
  for (size_t q = 0; q < quads.count(); ++q) {
    uint32_t x = uint32_t(q % n), y = uint32_t(q / n);
    int inner = (x > 0) + (x + 1 < n) + (y > 0) + (y + 1 < n);
    ASSERT_EQ(side[2 * q], inner) << "quadrilateral " << q;
    ASSERT_EQ(side[2 * q + 1], 7) << "QuaRef";
  }
}

// Int fields take atomics: the number of triangles at each vertex counted by scatter
// equals the ball's degree; the int reduction of it is exact (3 a triangle).
TEST_F(MeshEntities, IntFieldsCountWithAtomicsAndReduceExactly) {
  Mesh m = bumpy_grid(9);
  GpuMesh g(ctx(), m);
  g.add_field("Count", Kind::Vertices, {Scalar::Int, 1});
  g.add_field("Check", Kind::Vertices, {Scalar::Int, 1});
  auto scatter = g.compile(Kind::Triangles, "for (int c = 0; c < 3; ++c) atomicAdd(Count_[TriVer[c]], 1);");
  auto check = g.compile(Kind::Vertices, "VerCheck = VerCount - int(VerTriDeg);");
  ctx().submit_now([&](VkCommandBuffer cmd) {
    g.record(cmd, *scatter);
    g.record(cmd, *check);
  });
  auto count = g.download("Count"), diff = g.download("Check");
  const Ball& b = g.upward(Kind::Vertices, Kind::Triangles);
  for (size_t v = 0; v < m.vertices(); ++v) {
    ASSERT_EQ(count[v], b.degree[v]) << "vertex " << v;
    ASSERT_EQ(diff[v], 0);
  }
  auto r = g.reduce("Count");
  EXPECT_EQ(r.sum, 3.0 * g.count(Kind::Triangles));
  EXPECT_EQ(r.max, b.max_degree);
  EXPECT_EQ(r.min, 1) << "a corner of the grid lies in one triangle";
}

// Double fields keep double precision through the kernel, the transfers and the reduction.
TEST_F(MeshEntities, DoubleFieldsStayDouble) {
  if (!ctx().info.fp64) GTEST_SKIP() << "no fp64 on this device";
  Mesh m = bumpy_grid(8);
  GpuMesh g(ctx(), m);
  g.add_field("D", Kind::Triangles, {Scalar::Double, 2});
  std::vector<double> in(2 * g.count(Kind::Triangles));
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> u(0.5, 2.0);
  for (auto& x : in) x = u(rng);
  g.upload("D", in);
  auto k = g.compile(Kind::Triangles, "TriD = dvec2(TriD.x * TriD.y + 1.0e-12, TriD.x - TriD.y);");
  ctx().submit_now([&](VkCommandBuffer cmd) { g.record(cmd, *k); });
  auto out = g.download("D");
  double sum = 0, lo = INFINITY;
  for (size_t t = 0; t < g.count(Kind::Triangles); ++t) {
    // double arithmetic, rounded as the CPU's: x·y + c in two roundings, or fused in one
    // (an H100 contracts it to an fma); a float anywhere would be off by ~1e-8
    double a = in[2 * t] * in[2 * t + 1] + 1.0e-12, fused = std::fma(in[2 * t], in[2 * t + 1], 1.0e-12);
    ASSERT_TRUE(out[2 * t] == a || out[2 * t] == fused)
        << "triangle " << t << ": " << out[2 * t] << " is neither " << a << " nor " << fused;
    ASSERT_EQ(out[2 * t + 1], in[2 * t] - in[2 * t + 1]);
    sum += a, lo = std::min(lo, a);
  }
  auto r = g.reduce("D", 0);
  EXPECT_EQ(r.min, lo);
  EXPECT_NEAR(r.sum, sum, 1e-12 * sum) << "summed in doubles";
  EXPECT_THROW(g.reduce("D", 2), std::invalid_argument);
}

// GmlNewLinkData: a user's table from edges to the two vertices facing each edge in its two
// triangles; the kernel reads their coordinates through it (zero past a missing slot).
TEST_F(MeshEntities, UserLinksGatherThroughTheUsersTable) {
  Mesh m = bumpy_grid(7);
  GpuMesh g(ctx(), m);
  const Elements& t = g.elements(Kind::Triangles);
  const EdgeSet& e = g.edges();
  std::vector<uint32_t> opp(2 * e.count(), UINT32_MAX);
  const auto& te = e.edges_of.at(Kind::Triangles);
  for (size_t f = 0; f < t.count(); ++f)
    for (int c = 0; c < 3; ++c) {  // edge c joins corners c, c+1; the third faces it
      uint32_t edge = te[3 * f + c], facing = t.v[3 * f + (c + 2) % 3];
      (opp[2 * edge] == UINT32_MAX ? opp[2 * edge] : opp[2 * edge + 1]) = facing;
    }
  g.add_link("Opp", Kind::Edges, Kind::Vertices, 2, opp);
  g.add_field("Diag", Kind::Edges, {Scalar::Float, 1});
  auto k =
      g.compile(Kind::Edges,
                "EdgDiag = EdgOpp[1] != 0xffffffffu ? distance(EdgOppCrd[0], EdgOppCrd[1]) : -length(EdgOppCrd[1]);");
  ctx().submit_now([&](VkCommandBuffer cmd) { g.record(cmd, *k); });
  auto d = g.download("Diag");
  size_t border = 0;
  for (size_t i = 0; i < e.count(); ++i) {
    if (opp[2 * i + 1] == UINT32_MAX) {
      ASSERT_EQ(d[i], 0.0) << "a border edge: the missing slot reads zero";
      ++border;
    } else {
      ASSERT_NEAR(d[i], glm::distance(vertex(m, opp[2 * i]), vertex(m, opp[2 * i + 1])), 1e-6) << "edge " << i;
    }
  }
  EXPECT_EQ(border, 4u * 6) << "the grid's border";
  EXPECT_THROW(g.add_link("Bad", Kind::Edges, Kind::Vertices, 1, std::vector<uint32_t>(e.count(), 999)),
               std::invalid_argument);
  EXPECT_THROW(g.add_link("Short", Kind::Edges, Kind::Vertices, 2, std::vector<uint32_t>(3, 0)), std::invalid_argument);
}

// The file's edges keep their numbers and references; extraction appends the others.
TEST_F(MeshEntities, ExtractedEdgesKeepTheFilesEdges) {
  Mesh m = bumpy_grid(5);
  Elements border{Kind::Edges, {0, 1, 1, 2, 20, 15}, {4, 4, 9}};
  m.elements.push_back(border);  // after the triangles: still numbered first
  EdgeSet e = extract_edges(m);
  EXPECT_EQ(std::vector<uint32_t>(e.ev.begin(), e.ev.begin() + 6), (std::vector<uint32_t>{0, 1, 1, 2, 15, 20}));
  EXPECT_EQ(std::vector<int64_t>(e.ref.begin(), e.ref.begin() + 4), (std::vector<int64_t>{4, 4, 9, 0}));
  long V = 25, F = long(m.find(Kind::Triangles)->count());
  EXPECT_EQ(V - long(e.count()) + F, 1) << "a disc";
}

// Names follow the naming rule; types are checked; a kernel outlives no type change.
TEST_F(MeshEntities, NamesTypesAndStaleKernels) {
  GpuMesh g(ctx(), bumpy_grid(4));
  EXPECT_THROW(g.add_field("Trim", Kind::Vertices), std::invalid_argument) << "reads as Tri + m";
  EXPECT_THROW(g.add_field("Crd", Kind::Vertices), std::invalid_argument);
  EXPECT_THROW(g.add_field("Volume", Kind::Tetrahedra), std::invalid_argument) << "no tetrahedra here";
  EXPECT_THROW(parse_field_type("vec5"), std::invalid_argument);
  EXPECT_EQ(parse_field_type("ivec3"), (FieldType{Scalar::Int, 3}));
  EXPECT_EQ(field_stride({Scalar::Double, 3}), 32u);
  g.add_field("A", Kind::Triangles, {Scalar::Float, 1});
  auto k = g.compile(Kind::Triangles, "TriA = 1.0;");
  g.add_field("A", Kind::Triangles, {Scalar::Int, 1});
  EXPECT_FALSE(g.valid(*k)) << "record() would refuse it";
  EXPECT_THROW(g.compile(Kind::Tetrahedra, "TetA = 1;"), KernelError);
}

}  // namespace
