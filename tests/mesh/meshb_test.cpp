// compute/mesh: the libMeshb GMF reader and writer — exact round trips ASCII <-> binary in
// every version, a big-endian file, solutions, and a catalogue of malformed files.
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

// A 3 x 3 x 3 block of vertices, jittered, with every element kind on it.
Mesh sample_mesh() {
  Mesh m;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-0.2, 0.2);
  auto id = [](int x, int y, int z) { return uint32_t(x + 3 * y + 9 * z); };
  for (int z = 0; z < 3; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 3; ++x) {
        m.xyz.insert(m.xyz.end(), {x + u(rng), y + u(rng), z + u(rng) + 1e-17});
        m.vref.push_back(x + y);
      }
  auto add = [&](Kind k, std::vector<uint32_t> v, int64_t ref) {
    auto it = std::find_if(m.elements.begin(), m.elements.end(), [&](auto& e) { return e.kind == k; });
    if (it == m.elements.end()) m.elements.push_back({k, {}, {}}), it = m.elements.end() - 1;
    it->v.insert(it->v.end(), v.begin(), v.end());
    it->ref.push_back(ref);
  };
  add(Kind::Edges, {id(0, 0, 0), id(1, 0, 0)}, 1);
  add(Kind::Triangles, {id(0, 0, 0), id(1, 0, 0), id(0, 1, 0)}, 2);
  add(Kind::Triangles, {id(1, 1, 0), id(2, 1, 0), id(1, 2, 0)}, 3);
  add(Kind::Quadrilaterals, {id(0, 0, 2), id(1, 0, 2), id(1, 1, 2), id(0, 1, 2)}, 4);
  add(Kind::Tetrahedra, {id(0, 0, 0), id(1, 0, 0), id(0, 1, 0), id(0, 0, 1)}, 5);
  add(Kind::Pyramids, {id(0, 0, 1), id(1, 0, 1), id(1, 1, 1), id(0, 1, 1), id(0, 0, 2)}, 6);
  add(Kind::Prisms, {id(1, 0, 0), id(2, 0, 0), id(1, 1, 0), id(1, 0, 1), id(2, 0, 1), id(1, 1, 1)}, 7);
  add(Kind::Hexahedra,
      {id(1, 1, 1), id(2, 1, 1), id(2, 2, 1), id(1, 2, 1), id(1, 1, 2), id(2, 1, 2), id(2, 2, 2), id(1, 2, 2)}, -8);
  return m;
}

void expect_same(const Mesh& a, const Mesh& b, bool float_coordinates, const std::string& what) {
  ASSERT_EQ(a.dim, b.dim) << what;
  ASSERT_EQ(a.vertices(), b.vertices()) << what;
  for (size_t i = 0; i < a.xyz.size(); ++i)
    ASSERT_EQ(float_coordinates ? double(float(a.xyz[i])) : a.xyz[i], b.xyz[i]) << what << " coordinate " << i;
  EXPECT_EQ(a.vref, b.vref) << what;
  ASSERT_EQ(a.elements.size(), b.elements.size()) << what;
  for (size_t k = 0; k < a.elements.size(); ++k) {
    EXPECT_EQ(a.elements[k].kind, b.elements[k].kind) << what;
    EXPECT_EQ(a.elements[k].v, b.elements[k].v) << what << " " << kind_name(a.elements[k].kind);
    EXPECT_EQ(a.elements[k].ref, b.elements[k].ref) << what;
  }
}

TEST(Meshb, RoundTripsAsciiAndEveryBinaryVersionExactly) {
  auto dir = scratch("roundtrip");
  Mesh m = sample_mesh();
  write_mesh(dir / "a.mesh", m, 2);
  auto ascii = read_mesh(dir / "a.mesh");
  expect_same(m, ascii, false, "ASCII (17 digits)");
  for (int v = 1; v <= 4; ++v) {
    auto p = dir / ("b" + std::to_string(v) + ".meshb");
    write_mesh(p, ascii, v);
    auto bin = read_mesh(p);
    expect_same(ascii, bin, v == 1, "binary v" + std::to_string(v));
    write_mesh(dir / "back.mesh", bin, 2);  // binary -> ASCII -> the same again
    expect_same(bin, read_mesh(dir / "back.mesh"), false, "back to ASCII from v" + std::to_string(v));
  }
  EXPECT_EQ(fs::file_size(dir / "b4.meshb") > fs::file_size(dir / "b2.meshb"), true) << "v4 has 64-bit integers";
  fs::remove_all(dir);
}

TEST(Meshb, ReadsABigEndianFile) {
  auto dir = scratch("endian");
  std::string b;
  auto be = [&](auto v) {
    char c[sizeof v];
    std::memcpy(c, &v, sizeof v);
    std::reverse(c, c + sizeof v);
    b.append(c, sizeof v);
  };
  be(int32_t(1)), be(int32_t(2));                                 // code, version 2
  be(int32_t(3)), be(int32_t(20)), be(int32_t(2));                // Dimension 2, next at 20
  be(int32_t(4)), be(int32_t(20 + 12 + 3 * 20)), be(int32_t(3));  // 3 vertices: 2 doubles + ref
  for (int i = 0; i < 3; ++i) be(double(i) + 0.5), be(double(-i)), be(int32_t(i + 1));
  int32_t tri_at = int32_t(b.size());
  be(int32_t(6)), be(int32_t(tri_at + 12 + 16)), be(int32_t(1)), be(int32_t(1)), be(int32_t(2)), be(int32_t(3)),
      be(int32_t(9));
  be(int32_t(54)), be(int32_t(0));
  std::ofstream(dir / "be.meshb", std::ios::binary) << b;
  auto m = read_mesh(dir / "be.meshb");
  EXPECT_EQ(m.dim, 2);
  EXPECT_EQ(m.xyz, (std::vector<double>{0.5, 0, 1.5, -1, 2.5, -2}));
  ASSERT_NE(m.find(Kind::Triangles), nullptr);
  EXPECT_EQ(m.find(Kind::Triangles)->v, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(m.find(Kind::Triangles)->ref, (std::vector<int64_t>{9}));
  fs::remove_all(dir);
}

TEST(Meshb, SolutionsRoundTrip) {
  auto dir = scratch("sol");
  Solutions s;
  s.dim = 3;
  Solution at_vertices{Kind::Vertices, {1, 2}, {}};
  for (int i = 0; i < 5 * 4; ++i) at_vertices.values.push_back(0.1 * i - 1.0 / 3.0);
  Solution at_triangles{Kind::Triangles, {1}, {1.5, -2.25, 1e-300}};
  s.fields = {at_vertices, at_triangles};
  for (std::string name : {"s.sol", "s1.solb", "s2.solb", "s3.solb", "s4.solb"}) {
    int version = name == "s.sol" ? 2 : name[1] - '0';
    write_solution(dir / name, s, version);
    auto back = read_solution(dir / name);
    ASSERT_EQ(back.fields.size(), 2u) << name;
    EXPECT_EQ(back.fields[0].count(3), 5u);
    EXPECT_EQ(back.fields[1].at, Kind::Triangles);
    for (size_t f = 0; f < 2; ++f)
      for (size_t i = 0; i < s.fields[f].values.size(); ++i) {
        double want = version == 1 ? double(float(s.fields[f].values[i])) : s.fields[f].values[i];
        ASSERT_EQ(back.fields[f].values[i], want) << name << " field " << f << " value " << i;
      }
  }
  fs::remove_all(dir);
}

// Each malformed file: a message naming it and where (line or byte offset) and what.
TEST(Meshb, MalformedFilesGiveClearMessages) {
  auto dir = scratch("bad");
  const std::string head = "MeshVersionFormatted 2\nDimension 3\n";
  const std::string verts = "Vertices\n3\n0 0 0 0\n1 0 0 0\n0 1 0 0\n";
  std::map<std::string, std::pair<std::string, std::string>> ascii = {
      {"index0.mesh", {head + verts + "Triangles\n1\n0 1 2 0\nEnd\n", "line 10: Triangles 1: vertex 0"}},
      {"index4.mesh", {head + verts + "Triangles\n1\n1 2 4 0\nEnd\n", "not in 1..3"}},
      {"coord.mesh", {head + "Vertices\n1\n0 x 0 0\nEnd\n", "line 5"}},
      {"noend.mesh", {head + verts, "no End"}},
      {"negative.mesh", {head + "Vertices\n-2\nEnd\n", "count -2"}},
      {"dim.mesh", {"MeshVersionFormatted 2\nDimension 4\nEnd\n", "dimension 4"}},
      {"order.mesh", {"MeshVersionFormatted 2\nVertices\n0\nEnd\n", "before Dimension"}},
      {"keyword.mesh", {head + "Banana\n1\nEnd\n", "unknown keyword 'Banana'"}},
      {"short.mesh", {head + "Vertices\n2\n0 0 0 0\n", "does not fit"}},
      {"short2.mesh", {head + "Vertices\n2\n0 0 0 0\n0 0 0\n", "ends where"}},
      {"twice.mesh", {head + verts + verts + "End\n", "second Vertices"}}};
  // each file refused with a message naming it and holding `says` (and `where`, if given)
  auto refused = [&](const std::string& name, const std::string& bytes, const std::string& says,
                     const std::string& where) {
    std::ofstream(dir / name, std::ios::binary) << bytes;
    try {
      read_mesh(dir / name);
      ADD_FAILURE() << name << " was accepted";
    } catch (const std::runtime_error& e) {
      std::string what = e.what();
      EXPECT_NE(what.find(name), std::string::npos) << what;
      EXPECT_NE(what.find(says), std::string::npos) << name << ": " << what;
      EXPECT_NE(what.find(where), std::string::npos) << name << ": " << what;
    }
  };
  for (auto& [name, c] : ascii) refused(name, c.first, c.second, "");
  // binary: a good file, then broken copies
  write_mesh(dir / "good.meshb", sample_mesh(), 2);
  std::string good;
  {
    std::ifstream f(dir / "good.meshb", std::ios::binary);
    good.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  auto patch = [&](size_t at, int32_t v) {
    std::string s = good;
    std::memcpy(&s[at], &v, 4);
    return s;
  };
  // layout v2: code 0, version 4, Dimension kwd 8, next 12, dim 16; Vertices kwd 20, next 24, count 28
  size_t first_tri_index = 0;
  {  // find the Triangles keyword (6) and its first index: kwd, next, count, then indices
    for (size_t at = 20; at + 4 <= good.size(); at += 4) {
      int32_t v;
      std::memcpy(&v, &good[at], 4);
      if (v == 6) {
        first_tri_index = at + 12;
        break;
      }
    }
  }
  ASSERT_GT(first_tri_index, 0u);
  std::map<std::string, std::pair<std::string, std::string>> binary = {
      {"magic.meshb", {patch(0, 7), "offset 0"}},
      {"version.meshb", {patch(4, 9), "version 9"}},
      {"truncated.meshb", {good.substr(0, good.size() / 2), "outside the file"}},
      {"next.meshb", {patch(24, int32_t(good.size() + 100)), "outside the file"}},
      {"count.meshb", {patch(28, 1 << 30), "does not fit"}},
      {"index.meshb", {patch(first_tri_index, 999), "vertex 999"}},
      {"tiny.meshb", {good.substr(0, 5), "too short"}}};
  for (auto& [name, c] : binary) refused(name, c.first, c.second, "offset");
  fs::remove_all(dir);
}

}  // namespace
