// compute/cloth: Verlet + constraint relaxation against the CPU, sub-streams against the
// branching kernel (bit for bit), convergence in n_iter, rest, and the sphere and ground.
#include "compute/cloth/cloth.h"
#include "tests/helpers.h"

#include <cmath>
#include <cstring>

using namespace cloth;

namespace {

class Cloth : public GpuTest {
 protected:
  // Hanging at two pinned top corners.
  static std::vector<glm::vec4> hanging(const Config& c) {
    auto p = initial_positions(c, "hang");
    p[corner_index(c, 0)].w = 0.0f;
    p[corner_index(c, 1)].w = 0.0f;
    return p;
  }
  // The thesis's setup with the lab's scaled correction, which holds at stiffness 1: these
  // tests are about the relaxation's other parts (correction_test.cpp has the thesis's).
  static Config small() {
    Config c = Config::thesis();
    c.correction = Correction::Scaled;
    c.stiffness = 1.0f;
    c.width = c.height = 24;
    c.sphere_on = false;
    c.ground_on = false;
    return c;
  }
  Stats run(Simulation& sim, uint32_t steps) {
    ctx().submit_now([&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, steps); });
    return sim.last_stats();
  }
};

// Gauss–Seidel on both its paths: the colours as kernels and the tiles (one workgroup here).
TEST_F(Cloth, FewStepsMatchTheCpuReference) {
  for (auto [o, m] : {std::pair{Order::Jacobi, Method::Kernels}, std::pair{Order::GaussSeidel, Method::Kernels},
                      std::pair{Order::GaussSeidel, Method::Tiles}})
    for (bool springs : {false, true}) {
      Config c = small();
      c.order = o;
      c.method = m;
      c.shear = c.bend = springs;
      if (springs) {  // and the lab's contacts, attachments and substeps
        c.friction = 0.6f, c.thickness = 0.02f, c.attachments = true, c.substeps = 2;
      }
      c.sphere_on = c.ground_on = true;
      c.sphere = {0.1f, 0.0f, 0.55f, 0.5f};  // the hanging cloth swings into it
      c.iterations = 4;
      auto p = hanging(c);
      auto prev = p;
      for (auto& q : prev) q.z -= 0.01f * (q.w);  // moving towards the sphere
      Simulation sim(ctx(), c);
      sim.set_state(p, prev);
      run(sim, 5);
      for (int i = 0; i < 5; ++i) step_cpu(c, p, prev);
      auto got = sim.positions();
      for (size_t i = 0; i < p.size(); ++i)
        for (int k = 0; k < 4; ++k)
          // 1e-4 with friction: its min(·, 1) branch amplifies length()'s last-bit differences
          ASSERT_NEAR(got[i][k], p[i][k], springs ? 1e-4f : 2e-5f)
              << (o == Order::Jacobi ? "jacobi" : "gauss-seidel") << (m == Method::Tiles ? " tiles" : "")
              << (springs ? " +springs" : "") << " particle " << i << "." << k;
    }
}

// Jacobi is where the sub-streams apply; Gauss–Seidel runs its edge kernel either way (the
// flag must not change it).
TEST_F(Cloth, SubStreamsAndBranchingGiveIdenticalPositions) {
  for (Order o : {Order::Jacobi, Order::GaussSeidel})
    for (bool springs : {false, true}) {
      Config c = small();
      c.order = o;
      c.shear = c.bend = springs;
      c.sphere_on = c.ground_on = true;
      c.iterations = 5;
      std::vector<std::vector<glm::vec4>> out;
      for (Branching b : {Branching::SubStreams, Branching::Branching}) {
        c.branching = b;
        Simulation sim(ctx(), c);
        auto p = hanging(c);
        sim.set_state(p, p);
        run(sim, 50);
        out.push_back(sim.positions());
      }
      ASSERT_EQ(std::memcmp(out[0].data(), out[1].data(), out[0].size() * sizeof(glm::vec4)), 0)
          << (o == Order::Jacobi ? "jacobi" : "gauss-seidel") << (springs ? " +springs" : "");
    }
}

TEST_F(Cloth, StretchFallsAsRelaxationsGrow) {
  for (auto [o, m] : {std::pair{Order::Jacobi, Method::Kernels}, std::pair{Order::GaussSeidel, Method::Kernels},
                      std::pair{Order::GaussSeidel, Method::Tiles}}) {
    float last = INFINITY;
    for (uint32_t n : {1u, 4u, 16u, 64u}) {  // tiles: 64 relaxations in 2 dispatches of 32
      Config c = small();
      c.order = o;
      c.method = m;
      c.iterations = n;
      Simulation sim(ctx(), c);
      auto p = hanging(c);
      sim.set_state(p, p);
      auto s = run(sim, 40);
      EXPECT_LT(s.rms_stretch, 0.8f * last) << "n_iter " << n << (m == Method::Tiles ? " tiles" : "");
      EXPECT_LE(s.rms_stretch, s.max_stretch);
      last = s.rms_stretch;
    }
  }
}

// Pinned at two corners with damping d = 0.98 the cloth stops swinging: after 600 steps
// (10 s) its kinetic energy is below 1e-5 J for the 1 kg cloth (rms speed ~4 mm/s; the
// slow Jacobi relaxation keeps it creeping: 1.8e-6 J measured on lavapipe).
TEST_F(Cloth, PinnedClothComesToRest) {
  Config c = small();
  c.damping = 0.98f;
  c.iterations = 8;
  c.shear = true;
  Simulation sim(ctx(), c);
  auto p = hanging(c);
  auto prev = p;
  for (auto& q : prev) q.x -= 0.02f * q.w;  // a push sideways
  sim.set_state(p, prev);
  auto early = run(sim, 10);
  EXPECT_GT(early.kinetic, 1e-3f);
  auto s = run(sim, 590);
  EXPECT_EQ(s.non_finite, 0u);
  EXPECT_LT(s.kinetic, 1e-5f);
  for (auto& q : sim.positions()) ASSERT_TRUE(std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z));
  auto cpu = stats_cpu(c, sim.positions(), sim.previous());
  EXPECT_NEAR(s.kinetic, cpu.kinetic, 1e-3f * cpu.kinetic + 1e-12f);
  EXPECT_NEAR(s.rms_stretch, cpu.rms_stretch, 1e-4f);
}

TEST_F(Cloth, NoParticleEndsAStepInsideTheSphereOrUnderTheGround) {
  for (auto [o, m] : {std::pair{Order::Jacobi, Method::Kernels}, std::pair{Order::GaussSeidel, Method::Kernels},
                      std::pair{Order::GaussSeidel, Method::Tiles}}) {
    Config c = small();
    c.order = o;
    c.method = m;
    c.tile = m == Method::Tiles ? 10 : 0;  // 3 x 3 tiles with their halos
    c.sphere_on = c.ground_on = true;
    c.sphere = {0.0f, 0.0f, 0.0f, 0.5f};
    c.ground = -0.6f;  // the drape falls past the sphere onto the ground
    c.iterations = 6;
    Simulation sim(ctx(), c);
    auto p = initial_positions(c, "drape");
    sim.set_state(p, p);
    float lowest = INFINITY;
    for (int step = 0; step < 90; ++step) {
      run(sim, 1);
      for (auto& q : sim.positions()) {
        ASSERT_GE(glm::length(glm::vec3(q) - glm::vec3(c.sphere)), c.sphere.w * (1 - 1e-6f)) << "step " << step;
        ASSERT_GE(q.y, c.ground) << "step " << step;
        lowest = std::min(lowest, q.y);
      }
      auto s = sim.last_stats();
      ASSERT_GE(s.min_sphere_gap, -1e-6f);
      ASSERT_GE(s.min_y, c.ground);
    }
    EXPECT_LT(lowest, c.ground + 0.01f) << "the cloth should have reached the ground";
  }
}

// The mouse's corner: held at a point it stays there, its neighbours follow; released it
// falls again. Wind along +z pushes a hanging cloth that way.
TEST_F(Cloth, HeldCornerFollowsAndWindPushes) {
  Config c = small();
  c.iterations = 8;
  Simulation sim(ctx(), c);
  auto p = hanging(c);
  sim.set_state(p, p);
  uint32_t corner = corner_index(c, 2);  // bottom left, free
  glm::vec3 target(-1.5f, 0.5f, 1.5f);
  for (int i = 0; i < 60; ++i)
    ctx().submit_now([&](VkCommandBuffer cmd) {
      sim.record_hold(cmd, corner, target);
      sim.record_steps(cmd, nullptr, 1);
    });
  auto x = sim.positions();
  EXPECT_EQ(glm::vec3(x[corner]), target);
  EXPECT_EQ(x[corner].w, 0.0f);
  EXPECT_LT(glm::length(glm::vec3(x[corner + 1]) - target), 3 * c.rest()) << "its neighbour should follow";
  ctx().submit_now([&](VkCommandBuffer cmd) {
    sim.record_pin(cmd, corner, false);
    sim.record_steps(cmd, nullptr, 30);
  });
  x = sim.positions();
  EXPECT_EQ(x[corner].w, 1.0f);
  EXPECT_LT(x[corner].y, target.y - 0.1f) << "released, it falls";

  auto mean_z = [](const std::vector<glm::vec4>& v) {
    double z = 0;
    for (auto& q : v) z += q.z;
    return z / v.size();
  };
  double still = 0, windy = 0;
  for (float wind : {0.0f, 20.0f}) {
    Config w = small();
    w.wind = {0.0f, 0.0f, wind};
    Simulation s2(ctx(), w);
    auto q = hanging(w);
    s2.set_state(q, q);
    run(s2, 60);
    (wind == 0 ? still : windy) = mean_z(s2.positions());
  }
  EXPECT_GT(windy, still + 0.1) << "wind along +z should push the cloth along +z";
}

// 'VERLET SUR GPU' as the thesis wrote it (shift matrices and the linear algebra operators,
// compute/cloth/shift.h) moves the particles as the kernels do, within float rounding: a
// hanging cloth swinging into the sphere, and a drape onto it with a corner held and let go.
TEST_F(Cloth, ShiftMatricesGiveTheKernelsPositions) {
  for (Branching b : {Branching::Branching, Branching::SubStreams})
    for (const char* pose : {"hang", "drape"}) {
      Config c = small();
      c.branching = b;
      c.sphere_on = c.ground_on = true;
      c.sphere = {0.1f, 0.0f, 0.55f, 0.5f};
      auto p = std::string(pose) == "hang" ? hanging(c) : initial_positions(c, pose);
      auto prev = p;
      for (auto& q : prev) q.z -= 0.01f * q.w;
      Simulation kernels(ctx(), c);
      c.method = Method::ShiftMatrices;
      Simulation shift(ctx(), c);
      std::string what = std::string(pose) + (b == Branching::SubStreams ? " substreams" : " branching");
      // The hanging cloth's hem reaches the ground by step 15, where 3 Jacobi relaxations leave
      // a zigzag that contacts amplify ~8 times a step (in either path): compared before that.
      bool hang = std::string(pose) == "hang";
      for (Simulation* s : {&kernels, &shift}) {
        s->set_state(p, prev);
        run(*s, hang ? 12 : 10);
        if (hang) continue;  // drape: a corner held up for 10 steps, then let go
        ctx().submit_now([&](VkCommandBuffer cmd) { s->record_hold(cmd, corner_index(c, 0), {-1.0f, 1.2f, -1.0f}); });
        run(*s, 10);
        ctx().submit_now([&](VkCommandBuffer cmd) { s->record_pin(cmd, corner_index(c, 0), false); });
        run(*s, 20);
      }
      auto a = kernels.positions(), g = shift.positions();
      float worst = 0;
      for (size_t i = 0; i < a.size(); ++i)
        for (int k = 0; k < 4; ++k) worst = std::max(worst, std::fabs(a[i][k] - g[i][k]));
      // float rounding (the axpbys round (1+d)·x − d·x* + a in two steps, the kernel in one), grown
      // by the contacts: measured 1.9e-6 m hanging, 7e-5 m on the sphere after 40 steps
      EXPECT_LT(worst, hang ? 1e-5f : 2e-4f) << what;
      float moved = 0;
      for (size_t i = 0; i < g.size(); ++i) moved = std::max(moved, glm::length(glm::vec3(g[i]) - glm::vec3(p[i])));
      EXPECT_GT(moved, 0.1f) << what << ": the cloth should have moved";
      EXPECT_EQ(shift.last_stats().non_finite, 0u) << what;
      EXPECT_GT(shift.last_stats().kinetic, 0.0f) << what;
      std::printf("%s: shift matrices vs kernels after %llu steps, largest difference %.2e m\n", what.c_str(),
                  (unsigned long long)shift.steps(), worst);
    }
  Config bad = small();
  bad.method = Method::ShiftMatrices;
  bad.shear = true;
  EXPECT_THROW(check(bad), std::invalid_argument);
  bad = small(), bad.method = Method::ShiftMatrices, bad.order = Order::GaussSeidel;
  EXPECT_THROW(check(bad), std::invalid_argument);
}

TEST(ClothConfig, BadValuesAreRefused) {
  Config c;
  c.damping = 1.5f;
  EXPECT_THROW(check(c), std::invalid_argument);
  c = Config{};
  c.width = 4;
  EXPECT_THROW(check(c), std::invalid_argument);
  c = Config{};
  c.stiffness = 0;
  EXPECT_THROW(check(c), std::invalid_argument);
  EXPECT_THROW(initial_positions(Config{}, "float"), std::invalid_argument);
}

}  // namespace

// The lab's first picture (issue 13): at the defaults the drape settles on the sphere and
// stays, the hang hangs still, neither stretches: after 600 steps (10 s) its top rests on
// the sphere's top, nothing is inside the sphere or under the ground (by the thickness),
// mean stretch <= 2 %, max <= 10 %, at rest. Checked on the downloaded positions (CPU) and
// the GPU's statistics alike.
namespace {
struct Settled {
  Stats gpu, cpu;
  std::vector<glm::vec4> x;
};
Settled settle(gpu::Context& ctx, Config c, const std::string& pose, uint32_t steps) {
  Simulation sim(ctx, c);
  auto p = initial_positions(c, pose);
  if (pose == "hang") p[corner_index(c, 0)].w = p[corner_index(c, 1)].w = 0.0f;
  sim.set_state(p, p);
  for (uint32_t done = 0; done < steps; done += 50)
    ctx.submit_now([&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, 50); });
  return {sim.last_stats(), stats_cpu(c, sim.positions(), sim.previous()), sim.positions()};
}
// at_rest: the kinetic energy it must have fallen under (the soaks wait for rest; the quick
// twins stop while the drape is still creeping).
void expect_settled(const Config& c, const Settled& s, const std::string& pose, float at_rest = 1e-4f) {
  SCOPED_TRACE(pose + " " + std::to_string(c.width) + "²");
  EXPECT_EQ(s.cpu.non_finite, 0u);
  EXPECT_LE(s.cpu.mean_stretch, 0.02f);
  EXPECT_LE(s.cpu.max_stretch, 0.10f);
  EXPECT_LT(s.cpu.kinetic, at_rest) << "still moving";
  EXPECT_GE(s.cpu.min_sphere_gap, c.thickness * (1 - 1e-3f)) << "a particle inside the sphere";
  EXPECT_GE(s.cpu.min_y, c.ground + c.thickness * (1 - 1e-3f)) << "a particle under the ground";
  for (auto& q : s.x) ASSERT_GE(q.y, c.ground);
  if (pose == "drape") {
    float top = c.sphere.y + c.sphere.w;
    EXPECT_GE(s.cpu.max_y, top) << "the cloth slid off the sphere";
    EXPECT_LE(s.cpu.max_y, top + 2 * c.thickness);
  } else {
    EXPECT_FLOAT_EQ(s.cpu.max_y, 1.0f) << "the pinned top edge's corners";
  }
  // the GPU's own statistics agree with the CPU's on the same positions
  EXPECT_NEAR(s.gpu.max_stretch, s.cpu.max_stretch, 1e-4f);
  EXPECT_NEAR(s.gpu.mean_stretch, s.cpu.mean_stretch, 1e-4f);
  EXPECT_NEAR(s.gpu.max_y, s.cpu.max_y, 1e-6f);
  EXPECT_NEAR(s.gpu.min_sphere_gap, s.cpu.min_sphere_gap, 1e-5f);
}
}  // namespace

// The soaks (ctest label `soak`): the lab's own sizes, 600 steps each on lavapipe's slow
// launches (one to five minutes); the suite runs their small twins below.
using ClothSoak = Cloth;

// The lab's defaults, so method = tiles (Cloth.FewStepsMatchTheCpuReference and
// tests/cloth/tiles_test.cpp hold the tiles to the kernels and the CPU twin).
// The quick twins of the soaks: the same checks on a 24² cloth after 300 steps (5 s), where the
// drape has landed and is creeping to rest (kinetic energy under 5 mJ; at rest, under 0.1 mJ).
TEST_F(Cloth, SmallDrapeLandsOnTheSphereAndStays) {
  Config c;
  c.width = c.height = 24;
  expect_settled(c, settle(ctx(), c, "drape", 300), "drape", 5e-3f);
}

TEST_F(Cloth, SmallHangHangsStill) {
  Config c;
  c.width = c.height = 24;
  expect_settled(c, settle(ctx(), c, "hang", 300), "hang");
}

TEST_F(ClothSoak, DefaultsDrapeOnTheSphereAndStay) {
  Config c;  // the lab's defaults
  expect_settled(c, settle(ctx(), c, "drape", 600), "drape");
}

// The defaults but the kernels path: on lavapipe the tiles run a 64² cloth as one workgroup on
// one CPU thread (a step 0.45 s against the kernels' 0.17 s), and the drape above holds the
// tiles for as long; ClothTiles.* hold the two paths to the same positions.
TEST_F(ClothSoak, DefaultsHangStill) {
  Config c;
  c.method = Method::Kernels;
  expect_settled(c, settle(ctx(), c, "hang", 600), "hang");
}

// 128²: Gauss–Seidel's reach per relaxation is a particle, so twice the particles need
// more substeps for the same stretch (measured: 18.8 % max at the 64² defaults).
// On the kernels path: the tiles give the same positions (ClothTiles.*) but are about 5 times
// slower on lavapipe, whose CPU threads take a workgroup's barriers one invocation group after
// another (some 1000 s for these 600 steps, past the soak's limit of 900 s).
TEST_F(ClothSoak, FineClothDrapesWithMoreSubsteps) {
  Config c;
  c.width = c.height = 128;
  c.substeps = 10, c.iterations = 8;
  c.method = Method::Kernels;
  expect_settled(c, settle(ctx(), c, "drape", 600), "drape");
}

// Friction holds it: pushed sideways at 1 m/s once settled it stays on the sphere; without
// friction the same push slides it off. One test a friction (they run side by side); long drapes,
// 14 s each on lavapipe: a soak.
class ClothFrictionSoak : public GpuTest, public testing::WithParamInterface<bool> {};
TEST_P(ClothFrictionSoak, KeepsAPushedDrapeOnTheSphereOrNot) {
  const bool friction = GetParam();
  Config c;
  c.width = c.height = 24;
  Simulation sim(ctx(), c);
  auto p = initial_positions(c, "drape");
  sim.set_state(p, p);
  ctx().submit_now([&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, 150); });
  auto x = sim.positions(), prev = x;
  for (auto& q : prev) q.x -= 1.0f * c.substep_dt();
  c.friction = friction ? Config{}.friction : 0.0f;
  sim.config = c;
  sim.set_state(x, prev);
  ctx().submit_now([&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, 150); });
  auto s = stats_cpu(c, sim.positions(), sim.previous());
  if (friction)
    EXPECT_GE(s.max_y, c.sphere.y + c.sphere.w) << "friction " << c.friction << ": slid off";
  else
    EXPECT_LT(s.max_y, c.sphere.y) << "frictionless: should slide off";
}
INSTANTIATE_TEST_SUITE_P(WithAndWithout, ClothFrictionSoak, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& i) { return i.param ? "friction" : "frictionless"; });
