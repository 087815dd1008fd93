// compute/mesh: the libMeshb GMF reader and writer — exact round trips ASCII <-> binary in
// every version, a big-endian file, solutions, and a catalogue of malformed files.
#include "helpers.h"
#include "mesh/gpu_mesh.h"

#include <glm/glm.hpp>
#include "mesh/links.h"
#include "mesh/renumber.h"
#include "mesh/meshb.h"

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
  add(Kind::Hexahedra, {id(1, 1, 1), id(2, 1, 1), id(2, 2, 1), id(1, 2, 1), id(1, 1, 2), id(2, 1, 2), id(2, 2, 2),
                        id(1, 2, 2)}, -8);
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
  be(int32_t(1)), be(int32_t(2));                             // code, version 2
  be(int32_t(3)), be(int32_t(20)), be(int32_t(2));            // Dimension 2, next at 20
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
  for (auto& [name, c] : ascii) {
    std::ofstream(dir / name) << c.first;
    try {
      read_mesh(dir / name);
      ADD_FAILURE() << name << " was accepted";
    } catch (const std::runtime_error& e) {
      std::string what = e.what();
      EXPECT_NE(what.find(name), std::string::npos) << what;
      EXPECT_NE(what.find(c.second), std::string::npos) << name << ": " << what;
    }
  }
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
  for (auto& [name, c] : binary) {
    std::ofstream(dir / name, std::ios::binary) << c.first;
    try {
      read_mesh(dir / name);
      ADD_FAILURE() << name << " was accepted";
    } catch (const std::runtime_error& e) {
      std::string what = e.what();
      EXPECT_NE(what.find(name), std::string::npos) << what;
      EXPECT_NE(what.find(c.second), std::string::npos) << name << ": " << what;
      EXPECT_NE(what.find("offset"), std::string::npos) << name << ": " << what;
    }
  }
  fs::remove_all(dir);
}

}  // namespace

namespace {

// gmsh's own ASCII MSH 2 of the same mesh: nodes, and elements by gmsh type.
struct Msh2 {
  std::vector<double> xyz;
  std::map<int, std::vector<std::vector<uint32_t>>> elements;  // type -> node lists (0-based)
};
Msh2 read_msh2(const fs::path& p) {
  Msh2 m;
  std::ifstream f(p);
  std::string line;
  while (std::getline(f, line)) {
    if (line == "$Nodes") {
      size_t n;
      f >> n;
      m.xyz.assign(3 * n, NAN);
      for (size_t i = 0; i < n; ++i) {  // nodes by their id (gmsh need not list them in order)
        size_t id;
        double x, y, z;
        f >> id >> x >> y >> z;
        if (id >= 1 && id <= n) m.xyz[3 * (id - 1)] = x, m.xyz[3 * (id - 1) + 1] = y, m.xyz[3 * (id - 1) + 2] = z;
      }
    } else if (line == "$Elements") {
      size_t n;
      f >> n;
      std::getline(f, line);
      for (size_t i = 0; i < n; ++i) {
        std::getline(f, line);
        std::istringstream in(line);
        int id, type, ntags;
        in >> id >> type >> ntags;
        for (int t = 0; t < ntags; ++t) in >> id;
        std::vector<uint32_t> nodes;
        uint32_t v;
        while (in >> v) nodes.push_back(v - 1);
        std::sort(nodes.begin(), nodes.end());
        m.elements[type].push_back(nodes);
      }
    }
  }
  return m;
}

std::vector<std::vector<uint32_t>> sorted_lists(const Elements& e) {
  std::vector<std::vector<uint32_t>> out;
  uint32_t k = nodes_of(e.kind);
  for (size_t l = 0; l < e.count(); ++l) {
    std::vector<uint32_t> n(e.v.begin() + long(l * k), e.v.begin() + long((l + 1) * k));
    std::sort(n.begin(), n.end());
    out.push_back(n);
  }
  return out;
}

// A cube meshed by Debian's gmsh (-3, tetrahedra): our reader agrees with gmsh's own MSH 2
// output of the same file on every count, coordinate and element; gmsh reads what we write.
TEST(Meshb, ReadsWhatGmshWritesAndGmshReadsWhatWeWrite) {
  if (std::system("command -v gmsh > /dev/null 2>&1") != 0) GTEST_SKIP() << "gmsh is not installed";
  auto dir = scratch("gmsh");
  std::ofstream(dir / "cube.geo") << "SetFactory(\"OpenCASCADE\");\nBox(1) = {0, 0, 0, 1, 1, 1};\nMesh.MeshSizeMax = 0.3;\n";
  auto run = [&](const std::string& args) {
    auto r = run_process("cd " + dir.string() + " && gmsh " + args);
    ASSERT_EQ(r.code, 0) << args << "\n" << r.out << r.err;
  };
  run("-3 cube.geo -format mesh -o cube.mesh");
  run("cube.mesh -0 -format msh2 -o cube.msh");
  auto ours = read_mesh(dir / "cube.mesh");
  auto theirs = read_msh2(dir / "cube.msh");
  ASSERT_EQ(ours.dim, 3);
  ASSERT_EQ(ours.xyz.size(), theirs.xyz.size());
  // gmsh renumbers the vertices when it reads the file back: match them by position
  auto key = [](const std::vector<double>& xyz, size_t i) {
    return std::array<long long, 3>{std::llround(xyz[3 * i] * 1e9), std::llround(xyz[3 * i + 1] * 1e9),
                                    std::llround(xyz[3 * i + 2] * 1e9)};
  };
  std::map<std::array<long long, 3>, uint32_t> ours_at;
  for (size_t i = 0; i < ours.vertices(); ++i) ours_at[key(ours.xyz, i)] = uint32_t(i);
  ASSERT_EQ(ours_at.size(), ours.vertices()) << "distinct vertices";
  std::vector<uint32_t> to_ours(ours.vertices());
  for (size_t i = 0; i < ours.vertices(); ++i) {
    auto it = ours_at.find(key(theirs.xyz, i));
    ASSERT_NE(it, ours_at.end()) << "gmsh's vertex " << i << " is not one of ours";
    to_ours[i] = it->second;
  }
  const std::pair<Kind, int> kinds[] = {{Kind::Edges, 1}, {Kind::Triangles, 2}, {Kind::Tetrahedra, 4}};
  for (auto [kind, type] : kinds) {
    ASSERT_NE(ours.find(kind), nullptr) << kind_name(kind);
    auto a = sorted_lists(*ours.find(kind));
    auto b = theirs.elements[type];
    for (auto& nodes : b) {
      for (auto& v : nodes) v = to_ours[v];
      std::sort(nodes.begin(), nodes.end());
    }
    ASSERT_EQ(a.size(), b.size()) << kind_name(kind);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    EXPECT_EQ(a, b) << kind_name(kind);
  }
  EXPECT_GT(ours.find(Kind::Tetrahedra)->count(), 500u);
  // and back: gmsh reads our ASCII file and finds the same counts
  write_mesh(dir / "ours.mesh", ours, 2);
  run("ours.mesh -0 -format msh2 -o ours.msh");
  auto again = read_msh2(dir / "ours.msh");
  EXPECT_EQ(again.xyz.size(), theirs.xyz.size());
  EXPECT_EQ(again.elements[4].size(), theirs.elements[4].size());
  EXPECT_EQ(again.elements[2].size(), theirs.elements[2].size());
  fs::remove_all(dir);
}

}  // namespace

namespace {

// gmsh's unit cube meshed in `dim` dimensions (2: its surface triangles; 3: tetrahedra and
// surface triangles), written in dir/cube.mesh; throws with gmsh's output if it fails.
Mesh gmsh_cube(const fs::path& dir, int dim, double size) {
  std::ofstream(dir / "cube.geo") << "SetFactory(\"OpenCASCADE\");\nBox(1) = {0, 0, 0, 1, 1, 1};\nMesh.MeshSizeMax = "
                                  << size << ";\n";
  auto r = run_process("cd " + dir.string() + " && gmsh -" + std::to_string(dim) + " cube.geo -format mesh -o cube.mesh");
  if (r.code != 0) throw std::runtime_error("gmsh failed: " + r.out + r.err);
  return read_mesh(dir / "cube.mesh");
}

// The boundary of gmsh's meshed cube is a closed genus-0 surface: after edge extraction
// V − E + F = 2; every edge is shared by two triangles (all neighbours found, and they
// point back); the balls hold each triangle under each of its vertices, degrees exact.
TEST(MeshLinks, EulerNeighboursAndBallsOnAClosedSurface) {
  if (std::system("command -v gmsh > /dev/null 2>&1") != 0) GTEST_SKIP() << "gmsh is not installed";
  auto dir = scratch("links");
  Mesh m = gmsh_cube(dir, 2, 0.2);
  const Elements& tri = *m.find(Kind::Triangles);
  // the surface's own vertices (a -2 mesh has no interior ones, but count what triangles use)
  std::vector<bool> used(m.vertices(), false);
  for (uint32_t v : tri.v) used[v] = true;
  long V = long(std::count(used.begin(), used.end(), true)), F = long(tri.count());
  auto edges = extract_edges(tri);
  long E = long(edges.count());
  EXPECT_EQ(V - E + F, 2) << "V " << V << " E " << E << " F " << F;
  EXPECT_EQ(2 * E, 3 * F) << "a closed triangle surface";
  auto nb = neighbours(tri, m.vertices());
  for (size_t f = 0; f < tri.count(); ++f)
    for (int c = 0; c < 3; ++c) {
      uint32_t g = nb[f * 3 + c];
      ASSERT_NE(g, UINT32_MAX) << "triangle " << f << " has no neighbour across edge " << c;
      ASSERT_NE(std::find(nb.begin() + long(3 * g), nb.begin() + long(3 * g + 3), uint32_t(f)), nb.begin() + long(3 * g + 3))
          << "neighbours point back";
    }
  auto b = ball(tri, m.vertices());
  EXPECT_GE(b.padded, b.max_degree);
  EXPECT_EQ(b.padded & (b.padded - 1), 0u) << "a power of two";
  size_t total = 0;
  for (size_t v = 0; v < m.vertices(); ++v) {
    total += b.degree[v];
    for (uint32_t s = 0; s < b.padded; ++s) {
      uint32_t f = b.members[v * b.padded + s];
      if (s < b.degree[v]) {
        ASSERT_LT(f, tri.count());
        ASSERT_NE(std::find(tri.v.begin() + long(3 * f), tri.v.begin() + long(3 * f + 3), uint32_t(v)),
                  tri.v.begin() + long(3 * f + 3)) << "the ball's triangle holds its vertex";
      } else {
        ASSERT_EQ(f, UINT32_MAX) << "padding";
      }
    }
  }
  EXPECT_EQ(total, 3 * tri.count());
  fs::remove_all(dir);
}

}  // namespace

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
  auto bar = g.compile(Kind::Triangles, "TriBar.xyz = (TriVerCrd[0] + TriVerCrd[1] + TriVerCrd[2]) / 3.0;\n"
                                        "TriArea.x = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], TriVerCrd[2] - TriVerCrd[0]));");
  EXPECT_EQ(bar->writes, (std::vector<std::string>{"Area", "Bar"}));
  auto smooth = g.compile(Kind::Vertices, "vec3 s = vec3(0.0);\nfor (uint k = 0u; k < VerTriDeg; ++k) s += VerTriBar[k].xyz;\n"
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
  auto P = [&](uint32_t v) { return glm::dvec3(float(m.xyz[3 * v]), float(m.xyz[3 * v + 1]), float(m.xyz[3 * v + 2])); };
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
    for (uint32_t k = 0; k < b.degree[v]; ++k) s += cbar[b.members[v * b.padded + k]], a += carea[b.members[v * b.padded + k]];
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
  auto area = g.compile(Kind::Triangles, "TriArea.x = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], TriVerCrd[2] - TriVerCrd[0]));");
  auto gather = g.compile(Kind::Vertices, "float a = 0.0;\nfor (uint k = 0u; k < VerTriDeg; ++k) a += VerTriArea[k].x;\nVerGathered.x = a;");
  auto clear = g.compile(Kind::Vertices, "VerScattered.x = 0.0;");
  auto scatter = g.compile(Kind::Triangles, "float a = TriArea.x;\natomicAdd(Scattered_[TriVer.x].x, a);\n"
                                            "atomicAdd(Scattered_[TriVer.y].x, a);\natomicAdd(Scattered_[TriVer.z].x, a);");
  ctx().submit_now([&](VkCommandBuffer cmd) {
    for (auto* k : {area.get(), gather.get(), clear.get(), scatter.get()}) g.record(cmd, *k);
  });
  auto ga = g.download("Gathered"), sc = g.download("Scattered");
  const auto& t = m.elements[0];
  std::vector<double> cpu(m.vertices(), 0.0);
  for (size_t f = 0; f < t.count(); ++f) {
    auto P = [&](uint32_t v) { return glm::dvec3(float(m.xyz[3 * v]), float(m.xyz[3 * v + 1]), float(m.xyz[3 * v + 2])); };
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

// GmlExtractFaces on gmsh's tetrahedral cube: the boundary faces are exactly the triangles
// gmsh wrote on the surface, form a closed genus-0 surface (V − E + F = 2), and the faces
// count as Euler's formula for the volume says (V − E + F − T = 1).
TEST(MeshLinks, FacesOfTetrahedraAndTheirBoundary) {
  if (std::system("command -v gmsh > /dev/null 2>&1") != 0) GTEST_SKIP() << "gmsh is not installed";
  auto dir = scratch("faces");
  Mesh m = gmsh_cube(dir, 3, 0.3);
  const Elements& tets = *m.find(Kind::Tetrahedra);
  auto faces = extract_faces(m);
  Elements outside = faces.boundary(Kind::Triangles);
  EXPECT_EQ(faces.quadrilaterals.count(), 0u);
  auto boundary = sorted_lists(outside), gmsh_surface = sorted_lists(*m.find(Kind::Triangles));
  std::sort(boundary.begin(), boundary.end());
  std::sort(gmsh_surface.begin(), gmsh_surface.end());
  EXPECT_EQ(boundary, gmsh_surface);
  auto edges = extract_edges(outside);
  std::set<uint32_t> on_surface(outside.v.begin(), outside.v.end());
  EXPECT_EQ(long(on_surface.size()) - long(edges.count()) + long(outside.count()), 2);
  // all edges of the volume: through the faces
  long E = long(extract_edges(faces.triangles).count()), V = long(m.vertices()), F = long(faces.count()), T = long(tets.count());
  EXPECT_EQ(V - E + F - T, 1) << "V " << V << " E " << E << " F " << F << " T " << T;
  // outward: the boundary's signed volume (divergence theorem) is the cube's, +1
  double vol = 0;
  for (size_t f = 0; f < outside.count(); ++f) {
    auto P = [&](uint32_t v) { return glm::dvec3(m.xyz[3 * v], m.xyz[3 * v + 1], m.xyz[3 * v + 2]); };
    vol += glm::dot(P(outside.v[3 * f]), glm::cross(P(outside.v[3 * f + 1]), P(outside.v[3 * f + 2]))) / 6;
  }
  EXPECT_NEAR(vol, 1.0, 1e-9);
  fs::remove_all(dir);
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
  auto area = g.compile(Kind::Triangles, "TriArea.x = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], TriVerCrd[2] - TriVerCrd[0]));");
  auto blur = g.compile(Kind::Triangles, "float s = TriArea.x;\nfloat n = 1.0;\n"
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
