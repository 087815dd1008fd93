// The thesis's Jacobi correction (Bleton 2005, §4.1.1 and Annex II.6; Config::correction):
// the CPU twin against the formula itself, the kernels and the shift path against the twin on
// random non-zero inputs, every particle checked, and the instability §4.1.2.2 warns of: the
// thesis's drape blows up at stiffness 1 where the scaled correction holds.
#include "compute/cloth/cloth.h"
#include "tests/helpers.h"

#include <cmath>
#include <cstring>

using namespace cloth;

namespace {

class ClothCorrection : public GpuTest {
 protected:
  // The thesis's setup on a small grid, positions jittered off the grid by up to ±30 % of the
  // rest length on every axis (every spring off its rest length), a velocity on every free
  // particle, a few particles pinned (w = 0) and the others of random inverse mass in [0.5, 2].
  static Config small(uint32_t w, uint32_t h) {
    Config c = Config::thesis();
    c.width = w, c.height = h;
    return c;
  }
  static void randomise(const Config& c, std::vector<glm::vec4>& x, std::vector<glm::vec4>& prev, uint32_t seed) {
    x = initial_positions(c, "hang");
    auto jitter = random_floats(3 * x.size(), -0.3f, 0.3f, seed);
    auto speed = random_floats(3 * x.size(), -0.2f, 0.2f, seed + 1);
    auto mass = random_floats(x.size(), 0.5f, 2.0f, seed + 2);
    prev.resize(x.size());
    float r = c.rest();
    for (size_t i = 0; i < x.size(); ++i) {
      for (int k = 0; k < 3; ++k) x[i][k] += r * jitter[3 * i + k];
      x[i].w = i % 7 == 3 ? 0.0f : mass[i];
      prev[i] = x[i];
      if (x[i].w != 0.0f)
        for (int k = 0; k < 3; ++k) prev[i][k] -= r * speed[3 * i + k];
    }
  }
};

// One relaxation without damping or gravity (Verlet then leaves x as it is): every free
// particle moves by stiffness · Σ ½·AB·(|AB| − l)/|AB| over its in-grid structural neighbours,
// ½ whatever the neighbour's mass (§4.1.1, Annex II.6), evaluated here from the formula in
// double; pinned particles stay. The scaled correction on the same input moves by its own
// formula, which differs.
TEST_F(ClothCorrection, CpuTwinMovesByHalfTheGapASpringTimesStiffness) {
  Config c = small(12, 9);
  c.damping = 0.0f;
  c.gravity = glm::vec3(0.0f);
  c.sphere_on = c.ground_on = false;
  c.iterations = 1;
  c.stiffness = 0.8f;
  std::vector<glm::vec4> x, prev;
  randomise(c, x, prev, 11);
  auto expected = [&](Correction k) {
    std::vector<glm::dvec3> out(x.size());
    double families = 1.0;  // structural springs only
    for (int y = 0; y < int(c.height); ++y)
      for (int i = 0; i < int(c.width); ++i) {
        size_t a = size_t(y) * c.width + size_t(i);
        glm::dvec3 pa(x[a]), move(0.0);
        for (auto [dx, dy] : {std::pair{-1, 0}, {1, 0}, {0, -1}, {0, 1}}) {
          int bx = i + dx, by = y + dy;
          if (bx < 0 || by < 0 || bx >= int(c.width) || by >= int(c.height)) continue;
          size_t b = size_t(by) * c.width + size_t(bx);
          glm::dvec3 ab = glm::dvec3(x[b]) - pa;
          double len = glm::length(ab), share = k == Correction::Thesis ? 0.5 : x[a].w / (x[a].w + x[b].w);
          move += share * ab * (len - c.rest()) / len;
        }
        double scale = k == Correction::Thesis ? c.stiffness : c.stiffness * 0.5 / families;
        out[a] = x[a].w == 0.0f ? pa : pa + scale * move;
      }
    return out;
  };
  for (Correction k : {Correction::Thesis, Correction::Scaled}) {
    c.correction = k;
    auto got = x, before = prev;
    substep_cpu(c, got, before);
    auto want = expected(k), other = expected(k == Correction::Thesis ? Correction::Scaled : Correction::Thesis);
    double apart = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      for (int d = 0; d < 3; ++d)
        ASSERT_NEAR(got[i][d], want[i][d], 2e-6 * (1 + std::fabs(want[i][d])))
            << (k == Correction::Thesis ? "thesis" : "scaled") << " particle " << i << "." << d;
      ASSERT_EQ(got[i].w, x[i].w);
      apart = std::max(apart, glm::length(want[i] - other[i]));
    }
    EXPECT_GT(apart, 0.05 * c.rest()) << "the two corrections should move the particles differently";
  }
}

// The kernels (sub-streams and branching, structural springs alone and with shear and bend) and
// the thesis's shift-matrix path against the CPU twin, thesis's correction, sphere and ground
// in reach: every particle after each of 3 steps, each step's CPU twin starting from the GPU's
// state (the overshooting correction amplifies rounding from one step to the next).
TEST_F(ClothCorrection, KernelsAndShiftPathMatchTheCpuTwin) {
  struct Case {
    Method method;
    Branching branching;
    bool springs;
    float tolerance;
  };
  // shift: its axpbys round Verlet in two steps where the kernel and the twin round it in one
  for (Case k : {Case{Method::Kernels, Branching::SubStreams, false, 2e-5f},
                 Case{Method::Kernels, Branching::Branching, false, 2e-5f},
                 Case{Method::Kernels, Branching::Branching, true, 2e-5f},
                 Case{Method::ShiftMatrices, Branching::SubStreams, false, 1e-4f}}) {
    Config c = small(20, 16);
    c.method = k.method, c.branching = k.branching;
    c.shear = c.bend = k.springs;
    c.stiffness = 0.7f;
    c.sphere = {0.05f, 0.45f, 0.62f, 0.3f};  // cuts through the jittered hanging cloth
    c.ground = 0.1f;                         // and so does the ground
    std::vector<glm::vec4> x, prev;
    randomise(c, x, prev, 23);
    const auto start = x;
    std::string what = std::string(k.method == Method::ShiftMatrices ? "shift" : "kernels") +
                       (k.branching == Branching::SubStreams ? " substreams" : " branching") +
                       (k.springs ? " +springs" : "");
    Simulation sim(ctx(), c);
    sim.set_state(x, prev);
    for (int step = 0; step < 3; ++step) {
      ctx().submit_now([&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, 1); });
      step_cpu(c, x, prev);
      auto got = sim.positions();
      for (size_t i = 0; i < x.size(); ++i)
        for (int d = 0; d < 4; ++d)
          ASSERT_NEAR(got[i][d], x[i][d], k.tolerance * (1 + std::fabs(x[i][d])))
              << what << " step " << step << " particle " << i << "." << d;
      x = got, prev = sim.previous();
    }
    size_t moved = 0;
    for (size_t i = 0; i < x.size(); ++i) moved += glm::length(glm::vec3(x[i]) - glm::vec3(start[i])) > 1e-3f;
    EXPECT_GT(moved, x.size() / 2) << what << ": most particles should have moved";
  }
}

// §4.1.2.2: stiffness governs stability. The thesis's drape (3 relaxations, damping 0.99)
// blows up at stiffness 1 as it lands on the sphere; at 0.5 it holds, and moves exactly as the
// scaled correction at stiffness 1 (no pins: both move each free particle by a quarter of the
// gap a spring), which holds too.
TEST_F(ClothCorrection, ThesisDrapeBlowsUpAtStiffnessOneWhereScaledHolds) {
  Config c = small(24, 24);
  auto start = initial_positions(c, "drape");
  auto run = [&](Correction k, float stiffness, uint32_t steps) {
    Config d = c;
    d.correction = k, d.stiffness = stiffness;
    Simulation sim(ctx(), d);
    sim.set_state(start, start);
    for (uint32_t done = 0; done < steps; done += 20)
      ctx().submit_now([&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, 20); });
    return std::pair{sim.last_stats(), sim.positions()};
  };
  Stats blown = run(Correction::Thesis, 1.0f, 80).first;
  EXPECT_GT(blown.non_finite, 0u) << "the thesis's correction at stiffness 1 should blow up within 80 steps";
  auto [thesis, xt] = run(Correction::Thesis, 0.5f, 200);
  auto [scaled, xs] = run(Correction::Scaled, 1.0f, 200);
  for (auto* s : {&thesis, &scaled}) {
    EXPECT_EQ(s->non_finite, 0u);
    EXPECT_LT(s->mean_stretch, 0.01f);
    EXPECT_GE(s->min_sphere_gap, -1e-6f);
  }
  EXPECT_EQ(std::memcmp(xt.data(), xs.data(), xt.size() * sizeof(glm::vec4)), 0);
}

}  // namespace
