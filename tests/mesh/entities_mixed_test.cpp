// Kernels over the mixed entity kinds (pyramids, prisms), references through the links,
// write-only fields, reductions recorded with the kernels, and every listed name declared
// (seed 004, §2), each against a CPU loop or geometry.
#include "compute/mesh/generate.h"
#include "compute/mesh/gpu_mesh.h"
#include "tests/mesh/helpers.h"

#include <glm/glm.hpp>

#include <cmath>
#include <random>

using namespace mesh;

namespace {

// Pyramids and prisms, whose facets mix triangles and quadrilaterals: the unit cube cut into
// 6 pyramids (a face each, apex at the centre) and a triangulated square extruded into 2
// layers of prisms. Volumes add up to the cube's and the slab's; neighbours are where
// they must be.
TEST_F(MeshEntities, PyramidsAndPrisms) {
  Mesh m;
  for (int b = 0; b < 8; ++b) m.xyz.insert(m.xyz.end(), {double(b & 1), double(b >> 1 & 1), double(b >> 2 & 1)});
  m.xyz.insert(m.xyz.end(), {0.5, 0.5, 0.5});
  m.vref.assign(9, 0);
  // the six faces, seen from outside counter-clockwise, so the base turns away from the apex
  Elements pyr{Kind::Pyramids,
               {0, 1, 3, 2, 8, 4, 6, 7, 5, 8, 0, 4, 5, 1, 8, 2, 3, 7, 6, 8, 0, 2, 6, 4, 8, 1, 5, 7, 3, 8},
               {1, 1, 1, 1, 1, 1}};
  // prisms over the triangles (0 1 2) and (1 3 2) of the square z = 2..4, two layers
  for (int z = 0; z < 3; ++z)
    for (int b = 0; b < 4; ++b)
      m.xyz.insert(m.xyz.end(), {double(b & 1), double(b >> 1), 2.0 + z}), m.vref.push_back(0);
  Elements pri{Kind::Prisms, {}, {}};
  for (uint32_t z = 0; z < 2; ++z)
    for (auto t : {std::array<uint32_t, 3>{0, 1, 2}, std::array<uint32_t, 3>{1, 3, 2}}) {
      uint32_t lo = 9 + 4 * z, hi = lo + 4;
      pri.v.insert(pri.v.end(), {lo + t[0], lo + t[1], lo + t[2], hi + t[0], hi + t[1], hi + t[2]});
      pri.ref.push_back(2);
    }
  m.elements = {pyr, pri};
  GpuMesh g(ctx(), m);
  g.add_field("Vol", Kind::Pyramids, {Scalar::Float, 2});
  g.add_field("Vol", Kind::Prisms, {Scalar::Float, 2});  // replaces the pyramids' one
  EXPECT_EQ(g.field_at("Vol"), Kind::Prisms);
  g.add_field("Cone", Kind::Pyramids, {Scalar::Float, 2});
  // a pyramid: base area x height / 3; height from the apex to the base plane
  auto pk = g.compile(Kind::Pyramids,
                      "vec3 n = cross(PyrVerCrd[2] - PyrVerCrd[0], PyrVerCrd[3] - PyrVerCrd[1]);\n"
                      "float h = abs(dot(PyrVerCrd[4] - PyrVerCrd[0], normalize(n)));\n"
                      "int c = 0;\nfor (int f = 0; f < 5; ++f) c += PyrPyr[f] != 0xffffffffu ? 1 : 0;\n"
                      "PyrCone = vec2(0.5 * length(n) * h / 3.0, float(c));");
  // a right prism: triangle area x height
  auto qk = g.compile(Kind::Prisms,
                      "float a = 0.5 * length(cross(PriVerCrd[1] - PriVerCrd[0], PriVerCrd[2] - PriVerCrd[0]));\n"
                      "int c = 0;\nfor (int f = 0; f < 5; ++f) c += PriPri[f] != 0xffffffffu ? 1 : 0;\n"
                      "PriVol = vec2(a * (PriVerCrd[3].z - PriVerCrd[0].z), float(c));");
  ctx().submit_now([&](VkCommandBuffer cmd) {
    g.record(cmd, *pk);
    g.record(cmd, *qk);
  });
  auto cone = g.download("Cone"), vol = g.download("Vol");
  double pyr_total = 0, pri_total = 0;
  for (int i = 0; i < 6; ++i) {
    pyr_total += cone[2 * i];
    EXPECT_EQ(cone[2 * i + 1], 4) << "pyramid " << i << ": a neighbour across each triangle, none under the base";
  }
  for (int i = 0; i < 4; ++i) {
    pri_total += vol[2 * i];
    EXPECT_EQ(vol[2 * i + 1], 2) << "prism " << i << ": one beside it across the diagonal, one above or below";
  }
  EXPECT_NEAR(pyr_total, 1.0, 1e-6) << "the pyramids fill the cube";
  EXPECT_NEAR(pri_total, 2.0, 1e-6) << "the prisms fill the 1 x 1 x 2 slab";
  EXPECT_EQ(g.upward(Kind::Vertices, Kind::Pyramids).degree[8], 6u) << "the centre is every pyramid's apex";
  // GmlExtractFaces over mixed facets: each face once, the boundary outwards (the closed
  // boundaries enclose the cube's 1 and the slab's 2 by the divergence theorem)
  FaceSet faces = extract_faces(m);
  EXPECT_EQ(faces.triangles.count(), 12u + 4 + 2) << "between pyramids; the slab's ends; between its layers";
  EXPECT_EQ(faces.quadrilaterals.count(), 6u + 8 + 2) << "pyramid bases; the slab's sides; its diagonals";
  double enclosed = 0;
  auto add = [&](uint32_t a, uint32_t b, uint32_t c) {
    enclosed += glm::dot(vertex(m, a), glm::cross(vertex(m, b), vertex(m, c))) / 6;
  };
  Elements bt = faces.boundary(Kind::Triangles), bq = faces.boundary(Kind::Quadrilaterals);
  EXPECT_EQ(bt.count(), 4u);
  EXPECT_EQ(bq.count(), 14u);
  for (size_t f = 0; f < bt.count(); ++f) add(bt.v[3 * f], bt.v[3 * f + 1], bt.v[3 * f + 2]);
  for (size_t f = 0; f < bq.count(); ++f)
    add(bq.v[4 * f], bq.v[4 * f + 1], bq.v[4 * f + 2]), add(bq.v[4 * f], bq.v[4 * f + 2], bq.v[4 * f + 3]);
  EXPECT_NEAR(enclosed, 3.0, 1e-12);
  EXPECT_EQ(g.count(Kind::Edges), 12u + 8 + 3 * 5 + 2 * 4)
      << "the cube's 12 and 8 to the centre; the slab's 3 squares with a diagonal and 2 x 4 uprights";
}

}  // namespace

namespace {

// References travel with the entities: a vertex's (VerRef, TriVerRef[3]) and an element's
// (TriRef, VerTriRef[k] through the ball, TriTriRef[3] across the edges).
TEST_F(MeshEntities, ReferencesTravelThroughTheLinks) {
  Mesh m = bumpy_grid(6);
  for (size_t v = 0; v < m.vertices(); ++v) m.vref[v] = int64_t(v % 7);
  auto& tri = m.elements[0];
  for (size_t t = 0; t < tri.count(); ++t) tri.ref[t] = int64_t(t % 5 + 1);
  GpuMesh g(ctx(), m);
  g.add_field("R", Kind::Triangles, {Scalar::Int, 3});
  g.add_field("S", Kind::Vertices, {Scalar::Int, 2});
  auto k1 = g.compile(Kind::Triangles,
                      "int across = 0;\nfor (int k = 0; k < 3; ++k) across += TriTriRef[k];\n"
                      "TriR = ivec3(TriVerRef[0] + 10 * TriVerRef[1] + 100 * TriVerRef[2], TriRef, across);");
  auto k2 = g.compile(Kind::Vertices,
                      "int s = 0;\nfor (uint k = 0u; k < VerTriDeg; ++k) s += VerTriRef[k];\nVerS = ivec2(VerRef, s);");
  ctx().submit_now([&](VkCommandBuffer cmd) {
    g.record(cmd, *k1);
    g.record(cmd, *k2);
  });
  auto r = g.download("R"), s = g.download("S");
  auto across = g.neighbours(Kind::Triangles);
  for (size_t t = 0; t < tri.count(); ++t) {
    const uint32_t* v = &tri.v[3 * t];
    ASSERT_EQ(r[3 * t], m.vref[v[0]] + 10 * m.vref[v[1]] + 100 * m.vref[v[2]]) << "triangle " << t;
    ASSERT_EQ(r[3 * t + 1], tri.ref[t]);
    double a = 0;
    for (int k = 0; k < 3; ++k) a += across[3 * t + k] == UINT32_MAX ? 0 : tri.ref[across[3 * t + k]];
    ASSERT_EQ(r[3 * t + 2], a) << "zero across the border";
  }
  std::vector<double> ball(m.vertices(), 0);
  for (size_t t = 0; t < tri.count(); ++t)
    for (int c = 0; c < 3; ++c) ball[tri.v[3 * t + c]] += double(tri.ref[t]);
  for (size_t v = 0; v < m.vertices(); ++v) {
    ASSERT_EQ(s[2 * v], m.vref[v]);
    ASSERT_EQ(s[2 * v + 1], ball[v]) << "vertex " << v;
  }
}

}  // namespace

namespace {

// A field the body overwrites before reading is not loaded (a whole assignment at the top
// level whose right side does not read it); every other use loads it. Results stay right.
TEST_F(MeshEntities, WriteOnlyFieldsAreNotRead) {
  GpuMesh g(ctx(), bumpy_grid(5));
  g.add_field("A", Kind::Triangles, {Scalar::Float, 1});
  auto loads = [&](const std::string& body) {
    return g.compile(Kind::Triangles, body)->source.find("float TriA = A_[i];") != std::string::npos;
  };
  EXPECT_FALSE(loads("// TriA = TriA + 1 in a comment\nTriA = 2.0;"));
  EXPECT_FALSE(loads("float x = 1.0;\nTriA = x * 3.0;\nTriA += 1.0;"));
  EXPECT_TRUE(loads("TriA = TriA * 2.0;")) << "the right side reads it";
  EXPECT_TRUE(loads("TriA += 1.0;"));
  EXPECT_TRUE(loads("if (TriRef > 0) TriA = 1.0;")) << "not on every path";
  EXPECT_TRUE(loads("if (TriRef > 0) { TriA = 1.0; }"));
  EXPECT_TRUE(loads("float y = TriA;\nTriA = 1.0;")) << "read first";
  g.add_field("B", Kind::Triangles, {Scalar::Float, 4});
  EXPECT_NE(g.compile(Kind::Triangles, "TriB.x = 1.0;")->source.find("vec4 TriB = B_[i];"), std::string::npos)
      << "a component written, the others kept";
  // and the values: A doubled in place keeps its upload, overwritten replaces it
  std::vector<double> in(g.count(Kind::Triangles));
  for (size_t t = 0; t < in.size(); ++t) in[t] = 1.0 + double(t);
  g.upload("A", in);
  auto twice = g.compile(Kind::Triangles, "TriA = TriA * 2.0;");
  auto skip_odd = g.compile(Kind::Triangles, "if ((i & 1u) == 1u) TriA = -1.0;");
  ctx().submit_now([&](VkCommandBuffer cmd) {
    g.record(cmd, *twice);
    g.record(cmd, *skip_odd);
  });
  auto out = g.download("A");
  for (size_t t = 0; t < in.size(); ++t) ASSERT_EQ(out[t], t % 2 ? -1.0 : 2 * in[t]) << "triangle " << t;
}

}  // namespace

namespace {

// The reduction in two halves, as the lab colours by it: recorded after a kernel in the same
// commands, read once they have run; a blocking reduction of another field in between (as
// the lab does when its colour field changes) does not disturb the one in flight.
TEST_F(MeshEntities, ReductionsRecordedWithTheKernels) {
  GpuMesh g(ctx(), bumpy_grid(7));
  g.add_field("N", Kind::Triangles, {Scalar::Int, 1});
  g.add_field("D", Kind::Vertices, {Scalar::Float, 2});
  auto k = g.compile(Kind::Triangles, "TriN = int(i % 11u) - 5;");
  g.upload("D", std::vector<double>(2 * g.vertices(), 0.25));
  ctx().submit_now([&](VkCommandBuffer cmd) {
    g.record(cmd, *k);
    g.record_reduce(cmd, "N");
  });
  GpuMesh::Reduction other = g.reduce("D", 1);
  auto r = g.read_reduction();
  double sum = 0, lo = 1e9, hi = -1e9;
  for (size_t t = 0; t < g.count(Kind::Triangles); ++t) {
    double x = double(int(t % 11) - 5);
    sum += x, lo = std::min(lo, x), hi = std::max(hi, x);
  }
  EXPECT_EQ(r.min, lo);
  EXPECT_EQ(r.max, hi);
  EXPECT_EQ(r.sum, sum);
  EXPECT_EQ(other.sum, 0.25 * g.vertices());
}

}  // namespace

namespace {

// The names listed for the editor are the names the generator declares, with those types
// and sizes: on a mesh with every entity kind, fields of several types at several kinds and
// a user link, a body that reads every listed name compiles, for every loop.
TEST_F(MeshEntities, EveryListedNameIsDeclared) {
  Mesh m = cube(1, Kind::Hexahedra);
  Mesh t = cube(1, Kind::Tetrahedra);
  uint32_t off = uint32_t(m.vertices());
  for (size_t v = 0; v < t.vertices(); ++v)
    m.xyz.insert(m.xyz.end(), {t.xyz[3 * v] + 2, t.xyz[3 * v + 1], t.xyz[3 * v + 2]});
  m.vref.resize(m.vertices() + t.vertices(), 0);
  Elements tets = t.elements[0];
  for (auto& v : tets.v) v += off;
  m.elements.push_back(tets);
  m.elements.push_back({Kind::Pyramids, {0, 1, 3, 2, off}, {3}});
  m.elements.push_back({Kind::Prisms, {0, 1, 2, 4, 5, 6}, {4}});
  FaceSet faces = extract_faces(m);
  m.elements.push_back(faces.boundary(Kind::Triangles));
  m.elements.push_back(faces.boundary(Kind::Quadrilaterals));
  GpuMesh g(ctx(), m);
  ASSERT_EQ(g.kinds().size(), 8u);
  g.add_field("A", Kind::Vertices, {Scalar::Float, 3});
  g.add_field("B", Kind::Edges, {Scalar::Int, 1});
  g.add_field("C", Kind::Tetrahedra, {Scalar::Float, 4});
  g.add_field("E", Kind::Hexahedra, {Scalar::Float, 2});
  if (ctx().info.fp64) g.add_field("D", Kind::Triangles, {Scalar::Double, 2});
  g.add_link("Up", Kind::Quadrilaterals, Kind::Hexahedra, 2,
             std::vector<uint32_t>(2 * g.count(Kind::Quadrilaterals), 0));
  for (Kind loop : g.kinds()) {
    std::string body;
    for (auto& n : g.names(loop)) {
      std::string type = n.type == "const uint" ? "uint" : n.type;
      if (n.size == "[]")
        body += "{ " + type + " x = " + n.name + "[0]; }\n";
      else if (n.size.empty())
        body += "{ " + type + " x = " + n.name + "; }\n";
      else
        body += "{ " + type + " x[" + n.size + "] = " + n.name + "; }\n";
    }
    try {
      g.compile(loop, body);
    } catch (const KernelError& e) {
      ADD_FAILURE() << short_name(loop) << " loop:\n" << e.what() << "\n" << body;
    }
  }
  auto ver = g.names(Kind::Vertices);
  EXPECT_TRUE(
      std::any_of(ver.begin(), ver.end(), [](auto& n) { return n.name == "VerTetC" && n.size == "VerTetDegMax"; }));
  auto qua = g.names(Kind::Quadrilaterals);
  EXPECT_TRUE(std::any_of(qua.begin(), qua.end(), [](auto& n) { return n.name == "QuaUpE" && n.type == "vec2"; }));
}

}  // namespace
