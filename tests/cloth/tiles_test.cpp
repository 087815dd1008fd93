// compute/cloth/tiles.h: the tiles' plan (CPU), and the tiles' positions against the kernels'
// and the CPU twin's, every particle, on a cloth in one workgroup and cut into tiles with
// halos of one and two relaxations, springs, contacts, friction, attachments, pins, uneven
// masses, wind and a held corner.
#include "compute/cloth/tiles.h"
#include "compute/cloth/cloth.h"
#include "tests/helpers.h"

#include <cmath>
#include <random>

using namespace cloth;

namespace {

TEST(ClothTilePlan, CoversTheClothWithHalosThatFit) {
  Config c;  // shear springs: a relaxation carries a correction 6 cells (2 a family along each axis)
  EXPECT_EQ(reach_per_relaxation(c), 6u);
  c.shear = false;
  EXPECT_EQ(reach_per_relaxation(c), 2u);
  c.bend = true;  // + 4 colours of 2 cells
  EXPECT_EQ(reach_per_relaxation(c), 10u);
  c.shear = true;
  EXPECT_EQ(reach_per_relaxation(c), 14u);

  // Shared memory of 48, 32 and 16 KiB: 1753, 1168 and 582 particles (28 bytes each, and the
  // corners): square regions of 41, 34 and 24 cells.
  c = Config{};
  c.width = c.height = 32;
  auto whole = plan_tiles(c, 1753);  // one workgroup, a dispatch a substep
  EXPECT_TRUE(whole.whole());
  EXPECT_EQ(whole.halo, 0u);
  EXPECT_EQ(whole.relaxations, c.iterations);
  EXPECT_EQ(whole.dispatches_per_substep(c.iterations), 1u);
  c.iterations = 70;  // at most kMaxTileRelaxations a dispatch
  EXPECT_EQ(plan_tiles(c, 1753).dispatches_per_substep(70), 3u);

  // Chosen for you: the largest tiles beside a halo of one relaxation; where they leave fewer
  // than 64 workgroups on a GPU, 2 relaxations a dispatch and tiles down to 8 cells until there
  // are 64 (9: 8 x 8), or, with bend springs (a halo of 28 leaves no room), smaller tiles alone.
  struct Expected {
    uint32_t capacity, groups;
    bool bend;
    uint32_t relaxations, halo, tile;
  };
  for (Expected e :
       {Expected{1753, 1, false, 1, 6, 29}, Expected{1168, 1, false, 1, 6, 22}, Expected{582, 1, false, 1, 6, 12},
        Expected{1753, 1, true, 1, 14, 13}, Expected{1168, 1, true, 1, 14, 6}, Expected{1753, 64, false, 2, 12, 9},
        Expected{1753, 64, true, 1, 14, 9}, Expected{1168, 64, false, 2, 12, 9}}) {
    c = Config{};  // 64² needs tiles in every one
    c.bend = e.bend;
    auto p = plan_tiles(c, e.capacity, e.groups);
    EXPECT_EQ(p.relaxations, e.relaxations) << e.capacity << (e.bend ? " bend" : "");
    EXPECT_EQ(p.halo, e.halo) << e.capacity << (e.bend ? " bend" : "");
    EXPECT_EQ(p.tile_w, e.tile) << e.capacity << (e.bend ? " bend" : "");
    EXPECT_EQ(p.groups_x, (64 + e.tile - 1) / e.tile) << e.capacity << (e.bend ? " bend" : "");
  }

  int refused = 0;
  for (uint32_t capacity : {582u, 1168u, 1753u})
    for (uint32_t size : {42u, 100u, 256u})
      for (uint32_t k : {0u, 1u, 2u})
        for (bool bend : {false, true}) {
          c = Config{};
          c.width = c.height = size;
          c.bend = bend;
          c.tile_relaxations = k;
          std::string what = std::to_string(size) + "² in " + std::to_string(capacity) + ", k " + std::to_string(k) +
                             (bend ? " bend" : "");
          TilePlan p;
          try {
            p = plan_tiles(c, capacity);
          } catch (const std::invalid_argument& e) {
            ++refused;  // where the halo leaves no room for a tile (below)
            continue;
          }
          EXPECT_FALSE(p.whole()) << what;
          EXPECT_EQ(p.relaxations, k ? k : 1u) << what;  // chosen for you with one workgroup wanted: one
          EXPECT_EQ(p.halo, p.relaxations * reach_per_relaxation(c)) << what;
          uint32_t region = p.tile_w + 2 * p.halo;
          EXPECT_LE(region * region, capacity) << what;
          EXPECT_GT((region + 1) * (region + 1), capacity) << what << ": the largest tile that fits";
          EXPECT_GE(p.groups_x * p.tile_w, size) << what;
          EXPECT_LT((p.groups_x - 1) * p.tile_w, size) << what;
          EXPECT_EQ(p.groups_x, p.groups_y) << what;
        }
  // 24 cells hold no halo of 12 or more around a tile (2 relaxations, bend springs whatever the
  // relaxations), 34 and 41 no halo of 28 (2 relaxations with bend springs)
  EXPECT_EQ(refused, 3 * (4 + 1 + 1));
  c = Config{};  // 256² on a GPU: the largest tiles already make 81 workgroups
  c.width = c.height = 256;
  auto wide = plan_tiles(c, 1753, 64);
  EXPECT_EQ(wide.relaxations, 1u);
  EXPECT_EQ(wide.tile_w, 29u);
  EXPECT_EQ(wide.groups_x * wide.groups_y, 81u);

  c = Config{};
  c.tile = 22;  // asked for: 22 + 2·6 = 34 fits 1168 with 1 relaxation a dispatch, not with 2 (46²)
  c.tile_relaxations = 1;
  EXPECT_EQ(plan_tiles(c, 1168).groups_x, 3u);
  c.tile_relaxations = 2;
  EXPECT_THROW(plan_tiles(c, 1168), std::invalid_argument);
  c = Config{};
  c.tile = 64;  // the whole cloth asked for, where it does not fit
  EXPECT_THROW(plan_tiles(c, 1753), std::invalid_argument);
  c.tile_relaxations = 40;
  EXPECT_THROW(check(c), std::invalid_argument);
}

class ClothTiles : public GpuTest {
 protected:
  // A 24² cloth at the lab's settings (Gauss–Seidel, shear springs, friction, thickness,
  // attachments) with 2 substeps of 4 relaxations, swinging into the sphere and the ground.
  static Config scene() {
    Config c;
    c.width = c.height = 24;
    c.substeps = 2, c.iterations = 4;
    c.sphere = {0.1f, 0.0f, 0.55f, 0.5f};
    c.ground = -0.6f;
    return c;
  }
  // Hanging, its top corners and two particles pinned, every particle moved off the grid and
  // given its own inverse mass and velocity (a fixed seed).
  static void random_state(const Config& c, std::vector<glm::vec4>& x, std::vector<glm::vec4>& prev) {
    std::mt19937 rng(36);
    std::uniform_real_distribution<float> jitter(-0.1f, 0.1f), mass(0.5f, 1.5f), speed(-0.02f, 0.02f);
    x = initial_positions(c, "hang");
    for (auto& p : x) p += glm::vec4(jitter(rng), jitter(rng), jitter(rng), 0.0f) * c.rest(), p.w = mass(rng);
    for (uint32_t i : {corner_index(c, 0), corner_index(c, 1), c.width * 5 + 7, c.width * 17 + 11}) x[i].w = 0.0f;
    prev = x;
    for (auto& p : prev)
      if (p.w > 0) p -= glm::vec4(speed(rng), speed(rng), 0.03f + speed(rng), 0.0f);  // towards the sphere
  }
  static float worst(const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b) {
    float w = 0;
    for (size_t i = 0; i < a.size(); ++i)
      for (int k = 0; k < 4; ++k) w = std::max(w, std::fabs(a[i][k] - b[i][k]));
    return w;
  }
};

// Every particle: after 2 steps against the CPU twin (the tolerance of
// Cloth.FewStepsMatchTheCpuReference with friction; later, contacts amplify the CPU's and the
// GPU's last-bit differences of length()), after 6 against the kernels: the same GPU arithmetic
// (equal bits on lavapipe; 5e-6 m leaves room for a compiler that fuses differently, and a halo
// one cell short moves particles by 2.6e-5 m or more).
TEST_F(ClothTiles, MatchTheKernelsAndTheCpuOnTilesAndHalos) {
  struct Case {
    const char* what;
    uint32_t tile, relaxations;
    bool bend;
  };
  for (Case k :
       {Case{"one workgroup", 0, 0, false}, Case{"tiles of 8, halo 6", 8, 1, false},
        Case{"tiles of 5, 2 relaxations a dispatch, halo 12", 5, 2, false},
        Case{"bend springs, tiles of 6, halo 14", 6, 1, true}, Case{"bend springs, one workgroup", 0, 0, true}}) {
    Config c = scene();
    c.bend = k.bend;
    c.tile = k.tile, c.tile_relaxations = k.relaxations;
    std::vector<glm::vec4> x, prev;
    random_state(c, x, prev);
    auto cpu = x, cpu_prev = prev;
    for (int s = 0; s < 2; ++s) step_cpu(c, cpu, cpu_prev);
    std::vector<glm::vec4> early, late[2];
    Stats stats;
    for (Method m : {Method::Kernels, Method::Tiles}) {
      c.method = m;
      Simulation sim(ctx(), c);
      if (m == Method::Tiles) {  // the tiles asked for
        auto plan = sim.tile_plan();
        EXPECT_EQ(plan.whole(), k.tile == 0) << k.what;
        EXPECT_EQ(plan.groups_x, k.tile ? (c.width + k.tile - 1) / k.tile : 1u) << k.what;
        EXPECT_EQ(plan.halo, k.tile ? k.relaxations * reach_per_relaxation(c) : 0u) << k.what;
      }
      sim.set_state(x, prev);
      ctx().submit_now([&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, 2); });
      if (m == Method::Tiles) early = sim.positions();
      ctx().submit_now([&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, 4); });
      late[m == Method::Tiles] = sim.positions();
      stats = sim.last_stats();
    }
    const auto &tiles = late[1], &kernels = late[0];
    float moved = 0;
    for (size_t i = 0; i < tiles.size(); ++i) {
      for (int j = 0; j < 4; ++j) {
        ASSERT_NEAR(early[i][j], cpu[i][j], 1e-4f) << k.what << ": particle " << i << "." << j << " vs the CPU";
        ASSERT_NEAR(tiles[i][j], kernels[i][j], 5e-6f) << k.what << ": particle " << i << "." << j << " vs kernels";
      }
      moved = std::max(moved, glm::length(glm::vec3(tiles[i]) - glm::vec3(x[i])));
    }
    EXPECT_GT(moved, 0.05f) << k.what << ": the cloth should have moved";
    EXPECT_EQ(stats.non_finite, 0u) << k.what;
    std::printf("%s: after 2 steps vs the CPU %.2e, after 6 vs the kernels %.2e (moved up to %.3f m)\n", k.what,
                worst(early, cpu), worst(tiles, kernels), moved);
  }
}

// What the CPU twin leaves out, against the kernels: gusting wind (it reads the normals of
// the last step) and a corner held, then let go, between steps.
TEST_F(ClothTiles, MatchTheKernelsWithWindAndAHeldCorner) {
  for (uint32_t tile : {0u, 7u}) {
    Config c = scene();
    c.tile = tile;
    c.wind = {3.0f, 0.0f, 12.0f};
    std::vector<glm::vec4> x, prev;
    random_state(c, x, prev);
    std::vector<glm::vec4> out[2];
    for (Method m : {Method::Kernels, Method::Tiles}) {
      c.method = m;
      Simulation sim(ctx(), c);
      sim.set_state(x, prev);
      uint32_t corner = corner_index(c, 3);
      for (int s = 0; s < 8; ++s)
        ctx().submit_now([&](VkCommandBuffer cmd) {
          if (s < 4) sim.record_hold(cmd, corner, {1.2f, 0.6f, 0.9f});
          if (s == 4) sim.record_pin(cmd, corner, false);
          sim.record_steps(cmd, nullptr, 1);
        });
      out[m == Method::Tiles] = sim.positions();
    }
    float w = worst(out[0], out[1]);
    EXPECT_LT(w, 5e-6f) << "tile " << tile;
    EXPECT_EQ(out[1][corner_index(c, 3)].w, 1.0f) << "let go";
    std::printf("wind and a held corner, tile %u: tiles vs kernels %.2e\n", tile, w);
  }
}

}  // namespace
