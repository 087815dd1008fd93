// GMlib manual §2.5's first way of writing through an indirection (Maréchal 2020): the
// elements cut into colours that share no vertex (compute/mesh/colouring.h), and kernels
// launched colour by colour that add into the vertices with a plain +=, against the CPU.
#include "compute/mesh/colouring.h"
#include "compute/mesh/generate.h"
#include "compute/mesh/gpu_mesh.h"
#include "compute/mesh/kernel_text.h"
#include "compute/mesh/renumber.h"
#include "tests/helpers.h"

#include <algorithm>
#include <cmath>
#include <random>

using namespace mesh;

namespace {

// Checks everything a colouring promises, with its own loops: the order a permutation of the
// elements, the offsets cutting it into non-empty classes of one colour each, no vertex twice
// in a class, at least the largest ball's number of colours, and greedy: each element's every
// smaller colour is taken by an element that shares a vertex with it and comes before it.
void expect_valid_colouring(const std::vector<uint32_t>& v, uint32_t per, size_t vertices, const std::string& what) {
  SCOPED_TRACE(what);
  const size_t n = v.size() / per;
  Colouring c = colour_elements(v, per, vertices);
  ASSERT_EQ(c.order.size(), n);
  ASSERT_EQ(c.colour.size(), n);
  ASSERT_GE(c.offsets.size(), 1u);
  EXPECT_EQ(c.offsets.front(), 0u);
  EXPECT_EQ(c.offsets.back(), n);
  std::vector<int> seen(n, 0);
  for (uint32_t e : c.order) {
    ASSERT_LT(e, n);
    ++seen[e];
  }
  for (size_t e = 0; e < n; ++e) ASSERT_EQ(seen[e], 1) << "element " << e << " in " << seen[e] << " places";
  std::vector<uint32_t> stamp(vertices, UINT32_MAX);
  for (uint32_t k = 0; k < c.colours(); ++k) {
    ASSERT_LT(c.offsets[k], c.offsets[k + 1]) << "colour " << k << " is empty";
    for (uint32_t j = c.offsets[k]; j < c.offsets[k + 1]; ++j) {
      uint32_t e = c.order[j];
      ASSERT_EQ(c.colour[e], k) << "element " << e;
      if (j > c.offsets[k]) {
        ASSERT_LT(c.order[j - 1], e) << "a class keeps the elements' order";
      }
      for (uint32_t a = 0; a < per; ++a) {
        uint32_t x = v[e * per + a];
        bool again = std::find(&v[e * per], &v[e * per] + a, x) != &v[e * per] + a;
        if (!again) {
          ASSERT_NE(stamp[x], k) << "colour " << k << " has two elements at vertex " << x;
        }
        stamp[x] = k;
      }
    }
  }
  uint32_t ball = largest_ball(v, per, vertices);
  EXPECT_GE(c.colours(), ball) << "the elements around one vertex need a colour each";
  EXPECT_LE(c.colours(), (ball - 1) * per + 1) << "greedy: an element meets at most that many others";
  // Greedy: the smaller colours are each taken by an earlier element at one of its vertices.
  std::vector<std::vector<uint32_t>> around(vertices);
  for (size_t e = 0; e < n; ++e)
    for (uint32_t a = 0; a < per; ++a) around[v[e * per + a]].push_back(uint32_t(e));
  for (size_t e = 0; e < n; ++e) {
    std::vector<char> taken(c.colour[e], 0);
    for (uint32_t a = 0; a < per; ++a)
      for (uint32_t f : around[v[e * per + a]])
        if (f < e && c.colour[f] < c.colour[e]) taken[c.colour[f]] = 1;
    ASSERT_TRUE(std::all_of(taken.begin(), taken.end(), [](char t) { return t != 0; }))
        << "element " << e << " could have taken a smaller colour";
  }
}

void expect_valid_colourings(const Mesh& m, const std::string& what) {
  for (const Elements& e : m.elements)
    expect_valid_colouring(e.v, nodes_of(e.kind), m.vertices(), what + " " + kind_name(e.kind));
  EdgeSet edges = extract_edges(m);
  expect_valid_colouring(edges.ev, 2, m.vertices(), what + " extracted edges");
}

}  // namespace

TEST(MeshColouring, ValidOnTheGeneratedMeshes) {
  expect_valid_colourings(bumpy_grid(17), "bumpy grid");
  expect_valid_colourings(cube(3, Kind::Tetrahedra, 0.2), "cube of tetrahedra");
  expect_valid_colourings(cube(3, Kind::Tetrahedra, 0.2, true), "mirrored cube of tetrahedra");
  expect_valid_colourings(cube(3, Kind::Hexahedra), "cube of hexahedra");
  Mesh shuffled = cube(3, Kind::Tetrahedra);
  shuffle(shuffled, 3);
  expect_valid_colourings(shuffled, "shuffled cube");
}

TEST(MeshColouring, ValidOnTheShippedMeshes) {
  for (const char* name : {"bracket.mesh", "sphere.mesh"})
    expect_valid_colourings(read_mesh(std::string(VKLAB_SOURCE_ASSET_DIR) + "/mesh/" + name), name);
}

// Random elements over few vertices (a vertex in many elements, some elements with a vertex
// twice): still valid, whatever their shape.
TEST(MeshColouring, ValidOnRandomElements) {
  std::mt19937 rng(11);
  for (uint32_t per : {2u, 3u, 4u, 8u}) {
    std::uniform_int_distribution<uint32_t> vertex(0, 29);
    std::vector<uint32_t> v(per * 150);
    for (auto& x : v) x = vertex(rng);
    expect_valid_colouring(v, per, 30, std::to_string(per) + " vertices an element");
  }
  EXPECT_THROW(colour_elements(std::vector<uint32_t>{0, 1, 7}, 3, 5), std::invalid_argument);
  EXPECT_EQ(colour_elements(std::vector<uint32_t>{}, 3, 5).colours(), 0u);
}

// Past 64 colours (one word of colour bits a vertex): 100 triangles at one vertex.
TEST(MeshColouring, ManyColours) {
  std::vector<uint32_t> v;
  for (uint32_t t = 0; t < 100; ++t) v.insert(v.end(), {0u, 1 + t, 101 + t});
  expect_valid_colouring(v, 3, 201, "a fan of 100");
  EXPECT_EQ(colour_elements(v, 3, 201).colours(), 100u);
}

// How many colours the lab's meshes need: at least the largest ball (the bumpy grid's inner
// vertices have 6 triangles, Kuhn's cube's 24 tetrahedra, the mirrored cube's up to 48, a
// hexahedral grid's 8). Greedy in the elements' order reaches it on the hexahedra and the
// mirrored cube; on the grid and Kuhn's cube an element can meet, around its vertices, earlier
// elements of every colour so far, and opens a new one.
TEST(MeshColouring, ColoursAgainstTheLargestBall) {
  struct Case {
    Mesh m;
    Kind k;
    uint32_t ball;
    bool greedy_reaches_it;
  };
  for (const Case& c : {Case{bumpy_grid(17), Kind::Triangles, 6, false},
                        Case{cube(4, Kind::Tetrahedra, 0.2), Kind::Tetrahedra, 24, false},
                        Case{cube(4, Kind::Tetrahedra, 0.2, true), Kind::Tetrahedra, 48, true},
                        Case{cube(4, Kind::Hexahedra), Kind::Hexahedra, 8, true}}) {
    const Elements* e = c.m.find(c.k);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(largest_ball(e->v, nodes_of(c.k), c.m.vertices()), c.ball) << kind_name(c.k);
    uint32_t colours = colour_elements(*e, c.m.vertices()).colours();
    if (c.greedy_reaches_it)
      EXPECT_EQ(colours, c.ball) << kind_name(c.k);
    else
      EXPECT_GT(colours, c.ball) << kind_name(c.k) << ": greedy is not optimal here (else say so above)";
  }
}

class MeshColoured : public GpuTest {};

namespace {
// A kernel compiled by colour on each element kind: each element adds its random weight, times
// its corner's number, into its vertices (which start at random values: the += reads them), and
// writes its own index into a field of its own (i is the element, not its place in the
// colours). Every vertex and every element checked against the CPU.
void expect_coloured_sums(gpu::Context& ctx, Mesh m, Kind k, uint32_t seed) {
  SCOPED_TRACE(kind_name(k));
  shuffle(m, seed);
  GpuMesh g(ctx, m);
  const std::string L = short_name(k);
  const uint32_t per = nodes_of(k), n = uint32_t(g.count(k)), nv = uint32_t(g.vertices());
  g.add_field("W", k, {Scalar::Float, 1});
  g.add_field("Me", k, {Scalar::Float, 1});
  g.add_field("Acc", Kind::Vertices, {Scalar::Float, 1});
  auto w = random_floats(n, 0.5f, 2.0f, seed), acc0 = random_floats(nv, -1.0f, 1.0f, seed + 1);
  g.upload("W", std::vector<double>(w.begin(), w.end()));
  g.upload("Acc", std::vector<double>(acc0.begin(), acc0.end()));
  std::string body = L + "Me = float(i);\nfor (uint c = 0u; c < " + std::to_string(per) + "u; ++c) Acc_[" + L +
                     "Ver[c]] += " + L + "W * float(c + 1u);\n";
  auto kernel = g.compile(k, body, 1, true);
  ASSERT_EQ(kernel->colours, g.colouring(k).offsets);
  EXPECT_GE(kernel->colours.size(), 3u) << "more than one colour: the barriers are exercised";
  ctx.submit_now([&](VkCommandBuffer cmd) { g.record(cmd, *kernel); });
  std::vector<double> acc(acc0.begin(), acc0.end());
  double largest = 0;
  const Elements& e = g.elements(k);
  for (uint32_t t = 0; t < n; ++t)
    for (uint32_t c = 0; c < per; ++c) acc[e.v[t * per + c]] += double(w[t]) * (c + 1);
  for (double a : acc) largest = std::max(largest, std::abs(a));
  auto got = g.download("Acc"), me = g.download("Me");
  for (uint32_t x = 0; x < nv; ++x) ASSERT_NEAR(got[x], acc[x], 1e-6 * largest) << "vertex " << x;
  for (uint32_t t = 0; t < n; ++t) ASSERT_EQ(me[t], double(t)) << "element " << t;
}

}  // namespace

TEST_F(MeshColoured, SumsEqualTheCpuOnEveryElementKind) {
  expect_coloured_sums(ctx(), bumpy_grid(24), Kind::Triangles, 5);
  expect_coloured_sums(ctx(), cube(4, Kind::Tetrahedra, 0.2), Kind::Tetrahedra, 6);
  expect_coloured_sums(ctx(), cube(3, Kind::Hexahedra, 0.2), Kind::Hexahedra, 7);
  expect_coloured_sums(ctx(), bumpy_grid(12), Kind::Edges, 8);
}

// The text's "// write: colouring" line asks for it; a vertex loop, or another word, is refused.
TEST_F(MeshColoured, TheTextAsksForIt) {
  GpuMesh g(ctx(), bumpy_grid(6));
  auto kernels = compile_text(g,
                              "// loop: Ver\nVerS = vec4(0.0);\n---\n// loop: Tri\n// write: colouring\n"
                              "for (int c = 0; c < 3; ++c) S_[TriVer[c]].x += 1.0;\n");
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_TRUE(kernels[0]->colours.empty());
  EXPECT_EQ(kernels[1]->colours, colour_elements(g.elements(Kind::Triangles), g.vertices()).offsets);
  ctx().submit_now([&](VkCommandBuffer cmd) {
    for (auto& k : kernels) g.record(cmd, *k);
  });
  auto s = g.download("S");
  std::vector<double> valence(g.vertices(), 0.0);
  for (uint32_t x : g.elements(Kind::Triangles).v) valence[x] += 1;
  for (size_t x = 0; x < g.vertices(); ++x) ASSERT_EQ(s[4 * x], valence[x]) << "vertex " << x;
  EXPECT_THROW(compile_text(g, "// loop: Ver\n// write: colouring\nVerS.x = 1.0;\n"), KernelError);
  EXPECT_THROW(compile_text(g, "// loop: Tri\n// write: atomics\nTriS.x = 1.0;\n"), KernelError);
}
