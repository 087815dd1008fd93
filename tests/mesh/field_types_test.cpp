// Fields beyond float vectors (manual §2.2, §4.19): bytes and 16-bit ints, vectors of 8 and 16,
// and arrays of them an entity (NmbDat), through kernels, links, transfers and reductions; and
// GmlExtractFaces with the inner faces (§4.6).
#include "compute/mesh/generate.h"
#include "compute/mesh/kernel_text.h"
#include "tests/mesh/helpers.h"

#include <numeric>
#include <random>
#include <set>

using namespace mesh;

namespace {

TEST(MeshFieldTypes, NamesAndStd430Strides) {
  for (std::string t : {"float", "vec3", "int8_t", "i8vec3", "int16_t", "i16vec4", "vec8", "ivec16", "dvec8", "i8vec16",
                        "vec4[2]", "float[3]", "vec3[5]", "i16vec2[64]", "vec8[2]"})
    EXPECT_EQ(glsl_type(parse_field_type(t)), t);
  for (std::string bad : {"vec5", "int8", "vec4[0]", "vec4[65]", "vec4[x]", "i8vec32", "vec4[2][2]"})
    EXPECT_THROW(parse_field_type(bad), std::invalid_argument) << bad;
  EXPECT_EQ(field_stride(parse_field_type("int8_t")), 1u);
  EXPECT_EQ(field_stride(parse_field_type("i8vec3")), 4u);  // aligned as a 4-vector
  EXPECT_EQ(field_stride(parse_field_type("i16vec3")), 8u);
  EXPECT_EQ(field_stride(parse_field_type("vec8")), 32u);     // 8 floats
  EXPECT_EQ(field_stride(parse_field_type("vec3[2]")), 32u);  // two 16-byte vec3s
  EXPECT_EQ(field_stride(parse_field_type("dvec16")), 128u);
  EXPECT_EQ(field_values(parse_field_type("vec8[2]")), 16u);
  EXPECT_EQ(field_offset(parse_field_type("vec3[2]"), 4), 20u);  // element 1, component y
  EXPECT_EQ(field_offset(parse_field_type("i16vec16"), 5), 10u);
}

class MeshFieldKernels : public MeshEntities {
 protected:
  std::vector<double> random(size_t n, double lo, double hi, uint32_t seed, bool integer) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<double> v(n);
    for (auto& x : v) x = integer ? std::floor(u(rng)) : float(u(rng));
    return v;
  }
};

// Every type round-trips through upload and download, and a kernel that copies each value
// into a float array (through the local the generator loads) reads exactly what was sent.
TEST_F(MeshFieldKernels, EveryTypeTravelsAndLoads) {
  GpuMesh g(ctx(), bumpy_grid(6));
  size_t n = g.count(Kind::Triangles);
  for (std::string t : {"int8_t", "i8vec3", "int16_t", "i16vec4", "vec8", "ivec16", "vec4[2]", "float[3]", "vec3[2]",
                        "i8vec2[3]", "vec8[2]", "double", "dvec8"}) {
    FieldType ft = parse_field_type(t);
    if (ft.scalar == Scalar::Double && !ctx().info.fp64) continue;
    if ((ft.scalar == Scalar::Int8 && !ctx().int8) || (ft.scalar == Scalar::Int16 && !ctx().int16)) continue;
    bool integer = ft.scalar != Scalar::Float && ft.scalar != Scalar::Double;
    double lo = ft.scalar == Scalar::Int8 ? -128 : ft.scalar == Scalar::Int16 ? -32768 : -1000;
    double hi = ft.scalar == Scalar::Int8 ? 128 : ft.scalar == Scalar::Int16 ? 32768 : 1000;
    uint32_t per = field_values(ft);
    g.add_field("In", Kind::Triangles, ft);
    g.add_field("Out", Kind::Triangles, parse_field_type("float[" + std::to_string(std::min(per, 64u)) + "]"));
    std::string to = per == 1 ? "TriOut" : "TriOut[j++]";
    auto in = random(n * per, lo, hi, per, integer);
    g.upload("In", in);
    EXPECT_EQ(g.download("In"), in) << t;
    // a flat walk over the local: elements, then their components
    uint32_t elems = field_elements(ft), comps = ft.components > 4 ? 1 : ft.components;
    std::string body = "uint j = 0u;\nfor (uint e = 0u; e < " + std::to_string(elems) + "u; ++e)\n";
    body += comps == 1
                ? (field_is_array(ft) ? "  " + to + " = float(TriIn[e]);\n" : "  " + to + " = float(TriIn);\n")
                : (field_is_array(ft)
                       ? "  for (int c = 0; c < " + std::to_string(comps) + "; ++c) " + to + " = float(TriIn[e][c]);\n"
                       : "  for (int c = 0; c < " + std::to_string(comps) + "; ++c) " + to + " = float(TriIn[c]);\n");
    if (per > 64) continue;
    auto k = g.compile(Kind::Triangles, body);
    ctx().submit_now([&](VkCommandBuffer cmd) { g.record(cmd, *k); });
    auto out = g.download("Out");
    for (size_t i = 0; i < in.size(); ++i) ASSERT_EQ(out[i], float(in[i])) << t << " value " << i;
    // and the reduction of the last component, on the GPU
    std::vector<double> last;
    for (size_t e = 0; e < n; ++e) last.push_back(in[e * per + per - 1]);
    auto r = g.reduce("In", per - 1);
    EXPECT_EQ(r.min, *std::min_element(last.begin(), last.end())) << t;
    EXPECT_EQ(r.max, *std::max_element(last.begin(), last.end())) << t;
    if (integer) {
      EXPECT_EQ(r.sum, std::accumulate(last.begin(), last.end(), 0.0)) << t;
    }
    EXPECT_THROW(g.reduce("In", per), std::invalid_argument);
  }
}

// Kernels write the new types, and read them through the links: downward (a triangle's
// vertices), transverse (its neighbours) and upward (a vertex's ball, read slot by slot).
TEST_F(MeshFieldKernels, KernelsWriteThemAndReadThemThroughLinks) {
  if (!ctx().int8 || !ctx().int16) GTEST_SKIP() << "no 8- or 16-bit storage on this device";
  Mesh m = bumpy_grid(8);
  GpuMesh g(ctx(), m);
  std::string text =
      "// field: B int8_t Ver\n// field: S i16vec2 Ver\n// field: W vec8 Ver\n// field: P vec4[2] Tri\n"
      "// field: Sum float[4] Tri\n// field: Ball float Ver\n"
      "// loop: Ver\n"
      "VerB = int8_t(int(i % 200u) - 100);\n"
      "VerS = i16vec2(int16_t(int(i) * 3 - 500), int16_t(-int(i)));\n"
      "for (int k = 0; k < 8; ++k) VerW[k] = float(i * 8u) + float(k);\n"
      "---\n"
      "// loop: Tri\n"
      "TriP[0] = vec4(float(i));\n"
      "TriP[1] = vec4(float(TriVerB[0]), float(TriVerS[1].x), TriVerW[2][7], 1.0);\n"
      "---\n"
      "// loop: Tri\n"
      "float n = 0.0;\n"
      "for (int k = 0; k < 3; ++k) n += TriTriP[k][0].x;  // zero across the boundary\n"
      "TriSum[0] = n;\n"
      "TriSum[1] = TriP[1].x + TriP[1].y + TriP[1].z;\n"
      "---\n"
      "// loop: Ver\n"
      "float s = 0.0;\n"
      "for (uint k = 0u; k < VerTriDeg; ++k) s += VerTriP[k][1].w + VerTriSum[k][0];\n"
      "VerBall = s;\n";
  auto kernels = compile_text(g, text);
  ctx().submit_now([&](VkCommandBuffer cmd) {
    for (auto& k : kernels) g.record(cmd, *k);
  });
  auto B = g.download("B"), S = g.download("S"), W = g.download("W"), P = g.download("P"), Sum = g.download("Sum"),
       Ball = g.download("Ball");
  size_t nv = m.vertices(), nt = g.count(Kind::Triangles);
  for (size_t v = 0; v < nv; ++v) {
    ASSERT_EQ(B[v], double(int(v % 200) - 100));
    ASSERT_EQ(S[2 * v], double(int(v) * 3 - 500));
    ASSERT_EQ(S[2 * v + 1], -double(v));
    for (int k = 0; k < 8; ++k) ASSERT_EQ(W[8 * v + k], double(v * 8 + k));
  }
  const Elements& t = g.elements(Kind::Triangles);
  auto across = g.neighbours(Kind::Triangles);
  std::vector<double> sum0(nt);
  for (size_t f = 0; f < nt; ++f) {
    uint32_t a = t.v[3 * f], b = t.v[3 * f + 1], c = t.v[3 * f + 2];
    for (int k = 0; k < 4; ++k) ASSERT_EQ(P[8 * f + k], double(f));
    ASSERT_EQ(P[8 * f + 4], B[a]);
    ASSERT_EQ(P[8 * f + 5], S[2 * b]);
    ASSERT_EQ(P[8 * f + 6], W[8 * c + 7]);
    ASSERT_EQ(P[8 * f + 7], 1.0);
    double n = 0;
    for (int k = 0; k < 3; ++k) n += across[3 * f + k] == UINT32_MAX ? 0.0 : double(across[3 * f + k]);
    sum0[f] = n;
    ASSERT_EQ(Sum[4 * f], n) << "triangle " << f;
    ASSERT_FLOAT_EQ(Sum[4 * f + 1], float(B[a] + S[2 * b] + W[8 * c + 7])) << "triangle " << f;
  }
  const auto& ball = g.upward(Kind::Vertices, Kind::Triangles);
  for (size_t v = 0; v < nv; ++v) {
    double s = 0;
    for (uint32_t k = 0; k < ball.degree[v]; ++k) s += 1.0 + sum0[ball.member(uint32_t(v), k)];
    ASSERT_FLOAT_EQ(Ball[v], float(s)) << "vertex " << v;
  }
}

TEST_F(MeshFieldKernels, UnsupportedSizesAreRefused) {
  GpuMesh g(ctx(), bumpy_grid(4));
  EXPECT_THROW(g.add_field("X", Kind::Vertices, {Scalar::Float, 5}), std::invalid_argument);
  EXPECT_THROW(g.add_field("X", Kind::Vertices, {Scalar::Float, 4, 65}), std::invalid_argument);
  EXPECT_THROW(g.set_parameters({{"A", {Scalar::Int8, 1}, {}}}), std::invalid_argument);
  EXPECT_THROW(g.set_parameters({{"A", {Scalar::Float, 4, 2}, {}}}), std::invalid_argument);
}

}  // namespace

namespace {

// The faces' fast paths (every core; the boundary alone; the neighbours found with the faces)
// give what the whole extraction and neighbours() give, on meshes large enough for several
// threads: the same boundary in the same order, facing the same way, the same element across
// every facet.
TEST(MeshFaces, TheBoundaryAndTheNeighboursFoundWithTheFacesAreTheWholeExtractions) {
  for (Kind cells : {Kind::Tetrahedra, Kind::Hexahedra}) {
    Mesh m = cube(cells == Kind::Tetrahedra ? 24 : 36, cells, 0.2);
    Kind k = cells == Kind::Tetrahedra ? Kind::Triangles : Kind::Quadrilaterals;
    FaceSet whole = extract_faces(m), boundary = extract_faces(m, true);
    Elements want = whole.boundary(k), got = boundary.boundary(k);
    ASSERT_GT(want.count(), 0u);
    EXPECT_EQ(got.v, want.v);
    EXPECT_EQ((k == Kind::Triangles ? boundary.triangles : boundary.quadrilaterals).count(), want.count())
        << "the boundary alone";
    EXPECT_EQ(boundary.volume_kind, cells);
    EXPECT_EQ(boundary.across, neighbours(*m.find(cells), m.vertices()));
    EXPECT_EQ(whole.across, boundary.across);
  }
}

// GmlExtractFaces over a mesh that already has its boundary faces: those come first, as they
// are, then every inner face once (reference 0); each volume facet is some face, inner faces
// twice (4·tetrahedra = 2·inner + boundary). A triangle loop then runs over them all.
TEST_F(MeshFieldKernels, AllFacesKeepTheFilesFirst) {
  for (Kind cells : {Kind::Tetrahedra, Kind::Hexahedra}) {
    Mesh m = cube(3, cells, 0.2);
    Kind k = cells == Kind::Tetrahedra ? Kind::Triangles : Kind::Quadrilaterals;
    FaceSet faces = extract_faces(m);
    Elements file = faces.boundary(k);
    std::fill(file.ref.begin(), file.ref.end(), 7);
    Elements all = all_faces(&file, faces, k);
    uint32_t n = nodes_of(k);
    ASSERT_EQ(all.count(), (k == Kind::Triangles ? faces.triangles : faces.quadrilaterals).count());
    for (size_t i = 0; i < file.count() * n; ++i) ASSERT_EQ(all.v[i], file.v[i]) << "the file's faces first";
    std::set<std::vector<uint32_t>> keys;
    for (size_t f = 0; f < all.count(); ++f) {
      ASSERT_EQ(all.ref[f], f < file.count() ? 7 : 0);
      std::vector<uint32_t> key(all.v.begin() + long(f * n), all.v.begin() + long((f + 1) * n));
      std::sort(key.begin(), key.end());
      ASSERT_TRUE(keys.insert(key).second) << "face " << f << " twice";
    }
    size_t volumes = m.find(cells)->count(), per = cells == Kind::Tetrahedra ? 4 : 6;
    EXPECT_EQ(per * volumes, 2 * (all.count() - file.count()) + file.count());
    EXPECT_EQ(all_faces(nullptr, faces, k).count(), all.count());
    m.elements.push_back(all);
    GpuMesh g(ctx(), m);
    std::string L = short_name(k);
    g.add_field("Inner", k, {Scalar::Int, 1});
    auto kernel = g.compile(k, L + "Inner = " + L + "Ref == 0 ? 1 : 0;");
    ctx().submit_now([&](VkCommandBuffer cmd) { g.record(cmd, *kernel); });
    EXPECT_EQ(g.reduce("Inner").sum, double(all.count() - file.count()));
  }
}

}  // namespace

namespace {

// GmlSetDataLine and GmlGetDataLine (manual §4.22, §4.8): one entity's values written, the rest of
// the field kept, read back as written (rounded to the field's type); GmlFreeData (§4.7): the
// field gone and its name free for another.
class MeshDataLines : public GpuTest {};

TEST_F(MeshDataLines, OneLineWrittenAndReadTheRestKeptAndAFieldFreed) {
  GpuMesh g(ctx(), cube(3, Kind::Tetrahedra));
  for (std::string type : {"float", "vec3", "i16vec3", "int8_t", "vec4[2]"}) {
    SCOPED_TRACE(type);
    g.add_field("F", Kind::Tetrahedra, parse_field_type(type));
    const uint32_t c = field_values(parse_field_type(type));
    const size_t n = g.count(Kind::Tetrahedra);
    std::vector<double> all(n * c);
    for (size_t i = 0; i < all.size(); ++i) all[i] = double(int(i % 97) - 48);
    g.upload("F", all);
    std::vector<double> line(c);
    for (uint32_t k = 0; k < c; ++k) line[k] = 7.0 + k;
    g.set_line("F", 5, line);
    EXPECT_EQ(g.line("F", 5), line);
    auto after = g.download("F");
    for (size_t i = 0; i < n * c; ++i) EXPECT_EQ(after[i], i / c == 5 ? line[i % c] : all[i]) << i;
    EXPECT_THROW(g.set_line("F", n, line), std::invalid_argument);
    EXPECT_THROW(g.set_line("F", 0, std::vector<double>(c + 1, 1.0)), std::invalid_argument);
    g.free_field("F");
    EXPECT_FALSE(g.has_field("F"));
    EXPECT_THROW(g.line("F", 0), std::invalid_argument);
  }
  EXPECT_THROW(g.free_field("F"), std::invalid_argument);
  EXPECT_EQ(ctx().validation_count(), 0u);
}

}  // namespace
