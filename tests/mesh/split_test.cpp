// GMlib's several instances (compute/mesh/split.h): a mesh's vertices split along its longest axis,
// each part on a device context of its own with the halo it reads; every vertex owned once, every
// halo vertex a neighbour owned elsewhere; smoothed on 1, 2 and 3 contexts with the halos carried
// by the host, the values equal the CPU twin's bit for bit, step after step.
#include "compute/mesh/split.h"
#include "app/core/registry.h"
#include "app/core/session.h"
#include "compute/mesh/generate.h"
#include "tests/helpers.h"

#include <random>
#include <set>

class SplitMesh : public GpuTest {};

namespace {
std::vector<float> random_values(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = u(rng);
  return v;
}
}  // namespace

TEST(SplitVertices, EachVertexOwnedOnceAndEveryHaloANeighbourOwnedElsewhere) {
  auto m = mesh::cube(6, mesh::Kind::Tetrahedra, 0.2);
  auto g = mesh::vertex_graph(m);
  ASSERT_EQ(g.vertices(), m.vertices());
  for (size_t v = 0; v < g.vertices(); ++v)
    for (uint32_t k = g.start[v]; k < g.start[v + 1]; ++k) {  // symmetric, no self loop
      uint32_t w = g.next[k];
      ASSERT_NE(w, v);
      EXPECT_TRUE(std::binary_search(g.next.begin() + g.start[w], g.next.begin() + g.start[w + 1], uint32_t(v)));
    }
  for (uint32_t count : {1u, 2u, 3u}) {
    auto parts = mesh::split_vertices(m, g, count);
    ASSERT_EQ(parts.size(), count);
    std::vector<int> owner(m.vertices(), -1);
    for (uint32_t p = 0; p < count; ++p)
      for (uint32_t v : parts[p].owned) {
        EXPECT_EQ(owner[v], -1) << "vertex " << v << " owned twice";
        owner[v] = int(p);
      }
    for (int o : owner) ASSERT_GE(o, 0);
    size_t halo = 0;
    for (uint32_t p = 0; p < count; ++p) {
      const auto& part = parts[p];
      EXPECT_EQ(part.start.size(), part.owned.size() + 1);
      std::set<uint32_t> read;  // the neighbours the owned vertices read, owned elsewhere
      for (size_t i = 0; i < part.owned.size(); ++i) {
        uint32_t v = part.owned[i];
        ASSERT_EQ(part.start[i + 1] - part.start[i], g.start[v + 1] - g.start[v]);
        for (uint32_t k = 0; k < g.start[v + 1] - g.start[v]; ++k) {  // the same neighbours, in the same order
          uint32_t local = part.next[part.start[i] + k], w = g.next[g.start[v] + k];
          uint32_t global = local < part.owned.size() ? part.owned[local] : part.halo[local - part.owned.size()];
          ASSERT_EQ(global, w);
          if (owner[w] != int(p)) read.insert(w);
        }
      }
      EXPECT_EQ(std::set<uint32_t>(part.halo.begin(), part.halo.end()), read);
      EXPECT_EQ(part.halo.size(), read.size());
      halo += part.halo.size();
      for (uint32_t q = 0; q < count; ++q) {  // q sends p exactly p's segment from q
        ASSERT_EQ(parts[q].sends[p].size(), part.halo_count[q]);
        for (uint32_t k = 0; k < part.halo_count[q]; ++k)
          EXPECT_EQ(parts[q].owned[parts[q].sends[p][k]], part.halo[part.halo_from[q] + k]);
      }
    }
    if (count == 1) {
      EXPECT_EQ(halo, 0u);
    } else {
      EXPECT_GT(halo, 0u);
    }
  }
  EXPECT_THROW(mesh::split_vertices(m, g, 0), std::invalid_argument);
}

TEST_F(SplitMesh, OneTwoAndThreeDevicesSmoothAsTheCpuBitForBit) {
  auto m = mesh::cube(5, mesh::Kind::Tetrahedra, 0.2);
  auto u0 = random_values(m.vertices(), 5);
  auto g = mesh::vertex_graph(m);
  for (uint32_t steps : {1u, 7u}) {
    auto want = mesh::smooth_cpu(g, u0, steps);
    ASSERT_NE(want, u0);
    for (uint32_t n : {1u, 2u, 3u}) {
      SCOPED_TRACE(std::to_string(n) + " devices, " + std::to_string(steps) + " steps");
      auto contexts = mesh::split_contexts(ctx(), n);
      auto run = mesh::smooth_split(contexts.all(), m, u0, steps);
      EXPECT_EQ(run.parts, n);
      EXPECT_EQ(run.u, want);
      EXPECT_EQ(run.halo_values > 0, n > 1);
      for (auto* c : contexts.all()) EXPECT_EQ(c->validation_count(), 0u);
    }
  }
  // a triangle mesh too, and the lab's own context as one of the parts
  auto tri = mesh::bumpy_grid(20);
  auto v0 = random_values(tri.vertices(), 9);
  auto other = mesh::split_contexts(ctx(), 1);
  auto run = mesh::smooth_split({&ctx(), other.all()[0]}, tri, v0, 5);
  EXPECT_EQ(run.u, mesh::smooth_cpu(mesh::vertex_graph(tri), v0, 5));
}

// The mesh lab with split_devices = 2: the split run's figures in its dump, equal to one device's and
// the CPU's, a halo carried; with 1, nothing run.
TEST(MeshSplit, TheLabSplitsItsMeshAndSaysSo) {
  Session s(validated_options(), make_lab("mesh"), Session::Parts{false, false});
  EXPECT_TRUE(s.lab().dump(std::filesystem::temp_directory_path())["split"].is_null());
  s.lab().params().set("split_devices", "2");
  s.lab().params().set("split_steps", "5");
  s.apply_rebuild();
  ASSERT_TRUE(s.error.empty()) << s.error;
  auto j = s.lab().dump(std::filesystem::temp_directory_path())["split"];
  ASSERT_FALSE(j.is_null());
  EXPECT_EQ(j["devices"], 2);
  EXPECT_TRUE(j["equal_to_one_device"]);
  EXPECT_TRUE(j["one_device_equal_to_cpu"]);
  EXPECT_GT(j["split"]["halo_values"].get<uint64_t>(), 0u);
  std::vector<size_t> owned = j["split"]["owned"];
  EXPECT_EQ(owned.size(), 2u);
  EXPECT_EQ(owned[0] + owned[1], s.lab().dump(std::filesystem::temp_directory_path())["vertices"].get<size_t>());
  EXPECT_NE(s.lab().headless_report().find("split over 2 instances of 1 device"), std::string::npos);
  EXPECT_EQ(s.ctx().validation_count(), 0u);
}
