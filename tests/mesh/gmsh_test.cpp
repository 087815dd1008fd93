// compute/mesh against Debian's gmsh: our reader agrees with gmsh's own output, gmsh reads
// what we write, and the links (neighbours, balls, faces) satisfy Euler's formula on its meshes.
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
  std::ofstream(dir / "cube.geo")
      << "SetFactory(\"OpenCASCADE\");\nBox(1) = {0, 0, 0, 1, 1, 1};\nMesh.MeshSizeMax = 0.3;\n";
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
  auto r =
      run_process("cd " + dir.string() + " && gmsh -" + std::to_string(dim) + " cube.geo -format mesh -o cube.mesh");
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
      ASSERT_NE(std::find(nb.begin() + long(3 * g), nb.begin() + long(3 * g + 3), uint32_t(f)),
                nb.begin() + long(3 * g + 3))
          << "neighbours point back";
    }
  auto b = ball(tri, m.vertices());
  EXPECT_GE(b.padded, b.max_degree);
  EXPECT_EQ(b.padded & (b.padded - 1), 0u) << "a power of two";
  size_t total = 0;
  for (size_t v = 0; v < m.vertices(); ++v) {
    total += b.degree[v];
    for (uint32_t s = 0; s < b.class_of(uint32_t(v)).width; ++s) {
      uint32_t f = b.member(uint32_t(v), s);
      if (s < b.degree[v]) {
        ASSERT_LT(f, tri.count());
        ASSERT_NE(std::find(tri.v.begin() + long(3 * f), tri.v.begin() + long(3 * f + 3), uint32_t(v)),
                  tri.v.begin() + long(3 * f + 3))
            << "the ball's triangle holds its vertex";
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
  long E = long(extract_edges(faces.triangles).count()), V = long(m.vertices()), F = long(faces.count()),
       T = long(tets.count());
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
