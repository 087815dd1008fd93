// The N-buffer's bounding-volume hierarchy (compute/machining/bvh.h, nbuffer_bvh.prec.comp): every
// triangle in one leaf, every box holding its triangles and its children; the kernel that walks it
// gives the brute-force kernel's lengths and the CPU twin's, bit for bit, on every stock, 3-axis
// and 5-axis, in one submission or many.
#include "compute/machining/bvh.h"
#include "compute/machining/nbuffer.h"
#include "compute/machining/surface.h"
#include "tests/helpers.h"

#include <cmath>

using namespace machining;

TEST(MachiningBvh, EveryTriangleInOneLeafAndEveryBoxHoldsWhatIsBelow) {
  for (uint32_t triangles : {1u, 5u, 320u, 1984u}) {
    Mesh tool = make_tool("sphere", 6.0f, triangles);
    auto bvh = build_bvh(tool);
    std::vector<int> seen(tool.triangles(), 0);
    std::vector<int> visits(bvh.nodes.size(), 0);
    std::vector<uint32_t> stack{0};
    while (!stack.empty()) {
      uint32_t k = stack.back();
      stack.pop_back();
      ++visits[k];
      const BvhNode& n = bvh.nodes[k];
      auto inside = [&](glm::vec3 p) {
        return glm::all(glm::greaterThanEqual(p, glm::vec3(n.lo))) && glm::all(glm::lessThanEqual(p, glm::vec3(n.hi)));
      };
      if (bvh_count(n) == 0) {
        for (uint32_t c : {bvh_first(n), bvh_first(n) + 1}) {
          ASSERT_LT(c, bvh.nodes.size());
          EXPECT_TRUE(inside(glm::vec3(bvh.nodes[c].lo)) && inside(glm::vec3(bvh.nodes[c].hi)));
          stack.push_back(c);
        }
      } else {
        EXPECT_LE(bvh_count(n), Bvh::kLeaf);
        for (uint32_t k2 = bvh_first(n); k2 < bvh_first(n) + bvh_count(n); ++k2) {
          uint32_t t = bvh.order.at(k2);
          ++seen.at(t);
          for (int v = 0; v < 3; ++v) EXPECT_TRUE(inside(tool.vertices[3 * t + v]));
        }
      }
    }
    for (int s : seen) EXPECT_EQ(s, 1);
    for (int v : visits) EXPECT_EQ(v, 1);
    EXPECT_LT(bvh.depth, Bvh::kStack);
    EXPECT_EQ(in_bvh_order(tool, bvh).triangles(), tool.triangles());
  }
}

class MachiningBvhGpu : public GpuTest {};

TEST_F(MachiningBvhGpu, TheHierarchyGivesTheBruteForceLengthsBitForBit) {
  Mesh ball = make_tool("sphere", 5.0f, 320);
  for (SurfaceShape shape : {SurfaceShape::Flat, SurfaceShape::Dome})
    for (bool five_axis : {false, true}) {
      Stock s;
      s.nx = 40, s.ny = 36, s.d = 0.5f, s.nbuffer = true;
      s.surface.shape = shape, s.surface.radius = 40.0f, s.surface.centre = {10.0f, 9.0f};
      auto path = finishing_path(s.surface, s.top, float(s.nx - 1) * s.d, 2.5f, 2.0f, 300, 0.6f);
      if (five_axis)
        for (size_t i = 0; i < path.size(); ++i)
          path[i].axis = glm::normalize(glm::vec3(0.4f * std::sin(float(i)), 0.3f * std::cos(float(2 * i)), 1.0f)),
          path[i].omega = 0.05f * float(i);
      SCOPED_TRACE(surface_names()[size_t(shape)] + (five_axis ? ", 5-axis" : ", 3-axis"));
      Machine brute(ctx(), s, ball, path);
      brute.run(Engine::PerBrin, 1e9);
      const auto want = brute.heights();
      std::vector<float> cpu(want.size(), 0.0f);
      mill_nbuffer_cpu(s, cpu, ball, path, 2);
      size_t cut = 0;
      for (double pairs : {1e9, 2000.0}) {
        Machine m(ctx(), s, ball, path);
        m.set_nbuffer_bvh(true);
        m.run(Engine::PerBrin, pairs);
        auto got = m.heights();
        for (size_t b = 0; b < got.size(); ++b) {
          ASSERT_EQ(height_key(got[b]), height_key(want[b])) << "brin " << b << ": " << got[b] << " vs " << want[b];
          if (ctx().info.fp64) {
            ASSERT_EQ(height_key(got[b]), height_key(cpu[b])) << "brin " << b;
          }
          cut += got[b] < -0.1f;
        }
      }
      EXPECT_GT(cut, want.size()) << "the path cuts most of the stock, twice";
    }
}
