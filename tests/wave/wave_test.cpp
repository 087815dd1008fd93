// compute/wave: the implicit wave step against a CPU reference, both matrix storages,
// stability, symmetry, wave speed, and energy (lost at the predicted rate by the seed's
// scheme, kept by Newmark's).
#include "compute/wave/wave.h"
#include "compute/gpu/profiler.h"
#include "tests/helpers.h"

#include <algorithm>
#include <cmath>

using namespace wave;

namespace {

class Wave : public GpuTest {
 protected:
  // Runs n steps in submissions of at most 100; returns the stats of every step.
  std::vector<StepStats> run(Simulation& sim, uint32_t n) {
    std::vector<StepStats> out;
    for (uint32_t done = 0; done < n;) {
      uint32_t k = std::min(done == 0 ? 1u : 100u, n - done);  // the first alone: it sets the budget
      ctx().submit_now([&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, k); });
      for (uint64_t s = sim.steps() - k + 1; s <= sim.steps(); ++s) out.push_back(sim.stats(s));
      EXPECT_EQ(sim.observe(), 0u) << "steps ran out of CG iterations";
      done += k;
    }
    return out;
  }
  // 20 steps from a drop not at rest (h⁻ differs from h) equal the CPU reference (warm-started,
  // to the same tolerance) within the tolerance's reach, every step converged, and the energy
  // the GPU reports is that of the heights.
  void expect_twenty_steps_match_the_cpu(const Config& c, const std::string& what) {
    std::vector<float> h0(c.n(), 0.0f), p0(c.n(), 0.0f);
    disturb_cpu(c, h0, Shape::Drop, 11.3f, 9.6f, 3.0f, 1.0f);
    disturb_cpu(c, p0, Shape::Drop, 11.0f, 9.0f, 2.5f, 1.0f);
    Simulation sim(ctx(), c);
    sim.set_state(h0, p0);
    auto stats = run(sim, 20);
    std::vector<double> h(h0.begin(), h0.end()), p(p0.begin(), p0.end());
    for (int i = 0; i < 20; ++i) step_cpu(c, h, p);
    auto got = sim.height(), prev = sim.previous();
    double scale = 0;
    for (double v : h) scale = std::max(scale, std::fabs(v));
    for (size_t i = 0; i < h.size(); ++i) {
      ASSERT_NEAR(got[i], h[i], 2e-5 * scale) << what << " cell " << i;
      ASSERT_NEAR(prev[i], p[i], 2e-5 * scale) << what << " previous, cell " << i;
    }
    for (auto& st : stats) {
      EXPECT_TRUE(st.converged) << what;
      EXPECT_LE(st.residual, 1e-6f) << what;
      EXPECT_GT(st.iterations, 0u) << what;
    }
    EXPECT_NEAR(stats.back().energy, energy_cpu(c, got, prev), 1e-4 * energy_cpu(c, got, prev)) << what;
  }
  static float max_abs(const std::vector<float>& f) {
    float m = 0;
    for (float v : f) m = std::max(m, std::fabs(v));
    return m;
  }
};

Config small(Scheme s, Storage st, float courant) {
  Config c;
  c.width = 32;
  c.height = 24;
  c.c = courant;
  c.scheme = s;
  c.storage = st;
  c.tolerance = 1e-6f;
  c.max_iterations = 200;
  return c;
}

std::vector<float> drop(const Config& c, float x, float y, float radius = 3.0f) {
  std::vector<float> f(c.n(), 0.0f);
  disturb_cpu(c, f, Shape::Drop, x, y, radius, 1.0f);
  return f;
}

TEST_F(Wave, TwentyStepsMatchTheCpuReference) {
  for (Scheme s : {Scheme::Seed, Scheme::Newmark})
    for (Storage st : {Storage::Stencil, Storage::Banded})
      for (bool damped : {false, true}) {
        auto c = small(s, st, 1.5f);
        if (damped) c.damping = 0.05f, c.sponge = 5, c.sponge_damping = 0.3f;
        expect_twenty_steps_match_the_cpu(
            c,
            std::string(scheme_name(s)) + (st == Storage::Banded ? " banded" : " stencil") + (damped ? " damped" : ""));
      }
}

TEST_F(Wave, UnconditionallyStableAtCourantFive) {
  for (Scheme s : {Scheme::Seed, Scheme::Newmark}) {
    auto c = small(s, Storage::Stencil, 5.0f);
    // float CG stalls just above 1e-6 once the seed scheme has damped the drop (an H100:
    // 6 steps in 500 at 1.1–1.6e-6); stability, not the solver's floor, is tested here
    c.tolerance = 1e-5f;
    auto h0 = drop(c, 16, 12);
    Simulation sim(ctx(), c);
    sim.set_state(h0, h0);
    auto stats = run(sim, 500);
    auto h = sim.height();
    for (float v : h) ASSERT_TRUE(std::isfinite(v));
    EXPECT_LE(max_abs(h), 1.0f) << "heights grew past the initial drop's";
    for (auto& st : stats) ASSERT_TRUE(st.converged);
  }
}

TEST_F(Wave, CentredDropKeepsTheSquaresEightSymmetries) {
  Config c = small(Scheme::Newmark, Storage::Stencil, 2.0f);
  c.height = 32;
  auto h0 = drop(c, 15.5f, 15.5f, 4.0f);
  Simulation sim(ctx(), c);
  sim.set_state(h0, h0);
  run(sim, 60);
  auto h = sim.height();
  float scale = max_abs(h);
  ASSERT_GT(scale, 0.01f);
  auto at = [&](uint32_t x, uint32_t y) { return h[size_t(y) * 32 + x]; };
  for (uint32_t y = 0; y < 32; ++y)
    for (uint32_t x = 0; x < 32; ++x) {
      float v = at(x, y);
      for (float w : {at(31 - x, y), at(x, 31 - y), at(31 - x, 31 - y), at(y, x), at(31 - y, x), at(y, 31 - x),
                      at(31 - y, 31 - x)})
        ASSERT_NEAR(v, w, 1e-5f * scale) << "at " << x << "," << y;
    }
}

// A drop's ring travels at c: its peak along a ray from the centre sits at radius c·t.
TEST_F(Wave, WavefrontTravelsAtTheWaveSpeed) {
  Config c;
  c.width = c.height = 128;
  c.c = 1.0f;
  c.dt = 0.25f;
  c.dx = 1.0f;
  auto h0 = drop(c, 64, 64, 2.5f);
  Simulation sim(ctx(), c);
  sim.set_state(h0, h0);
  for (uint32_t steps : {120u, 200u}) {  // t = 30, 50
    run(sim, steps - uint32_t(sim.steps()));
    auto h = sim.height();
    float best = -1;
    uint32_t at = 0;
    for (uint32_t x = 64; x < 128; ++x)
      if (h[64 * 128 + x] > best) best = h[64 * 128 + x], at = x;
    double radius = at - 64.0, expected = c.c * c.dt * steps;
    EXPECT_NEAR(radius, expected, 0.05 * expected) << "after " << steps << " steps";
  }
}

// Newmark: E is an invariant of the scheme; float32 and CG to 1e-6 leave a drift we bound
// at 1e-4 of E over 1000 steps (measured on lavapipe: 9e-7 at courant 1, 6e-6 at 5).
TEST_F(Wave, NewmarkKeepsItsEnergy) {
  for (float courant : {1.0f, 5.0f}) {
    auto c = small(Scheme::Newmark, Storage::Stencil, courant);
    auto h0 = drop(c, 10, 8);
    Simulation sim(ctx(), c);
    sim.set_state(h0, h0);
    double e0 = energy_cpu(c, h0, h0);
    auto stats = run(sim, 1000);
    double worst = 0;
    for (auto& s : stats) worst = std::max(worst, std::fabs(s.energy - e0) / e0);
    EXPECT_LE(worst, 1e-4) << "courant " << courant;
    std::printf("newmark courant %.0f: max |E - E0|/E0 over 1000 steps = %.2e\n", courant, worst);
  }
}

// Seed scheme: one Dirichlet eigenmode stays one mode, its amplitude follows
// (1+αλ)·a' = (2−αλ)·a − a⁻, and E shrinks by 1/(1+αλ) a step on average.
TEST_F(Wave, SeedSchemeLosesEnergyAtThePredictedRate) {
  auto c = small(Scheme::Seed, Storage::Stencil, 1.0f);
  const uint32_t kx = 3, ky = 2;
  double lambda = mode_eigenvalue(c, kx, ky), alpha = c.r() / 2;
  auto phi = mode_field(c, kx, ky, 1.0f);
  Simulation sim(ctx(), c);
  sim.set_state(phi, phi);
  auto stats = run(sim, 100);
  double norm2 = 0;
  for (float v : phi) norm2 += double(v) * v;
  double a = 1, ap = 1;
  for (uint32_t t = 0; t < 100; ++t) {
    double an = ((2 - alpha * lambda) * a - ap) / (1 + alpha * lambda);
    ap = a, a = an;
    double e = ((a - ap) * (a - ap) + c.r() * lambda * 0.25 * (a + ap) * (a + ap)) * norm2;
    ASSERT_NEAR(stats[t].energy, e, 1e-3 * stats[0].energy + 1e-4 * e) << "step " << t + 1;
  }
  // Per step the modal quadratic form shrinks by exactly 1/(1+αλ): over 100 steps ...
  double predicted = std::pow(1 + alpha * lambda, -100.0);
  EXPECT_LT(stats[99].energy / stats[0].energy, 20 * predicted);
  // and a Gaussian drop at α = 0.5 on 64² loses over 99% of its energy in 200 steps.
  Config g = c;
  g.width = g.height = 64;
  auto h0 = drop(g, 32, 32, 3.0f);
  Simulation gs(ctx(), g);
  gs.set_state(h0, h0);
  auto gstats = run(gs, 200);
  EXPECT_LT(gstats.back().energy, 0.01 * energy_cpu(g, h0, h0));
  std::printf("seed scheme, Gaussian drop on 64², alpha 0.5: E(200)/E(0) = %.3g\n",
              gstats.back().energy / energy_cpu(g, h0, h0));
}

// The thesis's path ('SIMULATION D'ONDES 2D' through textures, multi-pass dots and 'MGC SUR
// GPU' from x0 = b, stopped by reading the residual back) solves the same steps: it equals
// the CPU reference (warm-started, to the same tolerance) within the tolerance's reach.
TEST_F(Wave, TheThesisPathMatchesTheCpuReference) {
  for (Scheme s : {Scheme::Seed, Scheme::Newmark, Scheme::PrintedB})
    for (bool damped : {false, true}) {
      auto c = small(s, Storage::Stencil, 1.5f);
      c.solver = Solver::Thesis;
      if (damped) c.damping = 0.05f, c.sponge = 5, c.sponge_damping = 0.3f;
      expect_twenty_steps_match_the_cpu(c, std::string("thesis path, ") + scheme_name(s) + (damped ? " damped" : ""));
    }
}

// Every scheme keeps a Dirichlet eigenmode a mode; its amplitude follows the scalar recurrence
// of coefficients(), (a0 + a1·s)·x' = (p0 + p1·s)·x + (q0 + q1·s)·x⁻ with s = 4 − λ. That is
// what each of the thesis's misprints does to the water: printed-a drains the smoothest mode,
// printed-b turns it by about 60° a step, printed-m makes it grow.
TEST_F(Wave, EverySchemeMovesAModeAsItsRecurrenceSays) {
  const uint32_t kx = 1, ky = 1;
  for (Scheme sc : {Scheme::Newmark, Scheme::Seed, Scheme::PrintedA, Scheme::PrintedB, Scheme::PrintedM}) {
    auto c = small(sc, Storage::Stencil, 0.5f);
    auto k = coefficients(c);
    // the matrices as printed: A = (8α+1)I − αS; b = αS·h + (1−4α)h − h⁻; M = 2I + αS
    float alpha = c.r() / 2;
    if (sc == Scheme::PrintedA) {
      EXPECT_FLOAT_EQ(k.a0, 8 * alpha + 1);
    }
    if (sc == Scheme::PrintedB) {
      EXPECT_FLOAT_EQ(k.p0, 1 - 4 * alpha);
    }
    if (sc == Scheme::PrintedM) {
      EXPECT_FLOAT_EQ(k.p0, 2.0f);
    }
    if (sc != Scheme::Newmark) {
      EXPECT_FLOAT_EQ(k.p1, alpha) << scheme_name(sc);
    }
    double s = 4 - mode_eigenvalue(c, kx, ky);
    auto phi = mode_field(c, kx, ky, 1.0f);
    double norm2 = 0;
    for (float v : phi) norm2 += double(v) * v;
    Simulation sim(ctx(), c);
    sim.set_state(phi, phi);
    double x = 1, xp = 1, largest = 1;
    const int steps = 40;
    for (int t = 1; t <= steps; ++t) {
      run(sim, 1);
      double xn = ((k.p0 + k.p1 * s) * x + (k.q0 + k.q1 * s) * xp) / (k.a0 + k.a1 * s);
      xp = x, x = xn, largest = std::max(largest, std::fabs(x));
      auto h = sim.height();
      double amp = 0;
      for (size_t i = 0; i < h.size(); ++i) amp += double(h[i]) * phi[i];
      amp /= norm2;
      ASSERT_NEAR(amp, x, 1e-4 * largest) << scheme_name(sc) << " step " << t;
    }
    if (sc == Scheme::PrintedA) {
      EXPECT_LT(std::fabs(x), 1e-3) << "printed-a drains the water";
    } else if (sc == Scheme::PrintedM) {
      EXPECT_GT(std::fabs(x), 10.0) << "printed-m grows";
    } else if (sc == Scheme::Seed) {
      EXPECT_LE(largest, 1.0 + 1e-6);
    }
    std::printf("%s: amplitude of mode (1,1) after %d steps %.4g (most %.4g)\n", scheme_name(sc), steps, x, largest);
  }
}

// printed-m grows without bound: the step reports non-finite energy, the lab's cue to stop.
TEST_F(Wave, PrintedMBlowsUpAndSaysSo) {
  auto c = small(Scheme::PrintedM, Storage::Stencil, 2.0f);
  c.tolerance = 1e-5f;
  Simulation sim(ctx(), c);
  sim.set_state(drop(c, 16, 12), drop(c, 16, 12));
  bool blown = false;
  for (int t = 0; t < 400 && !blown; ++t) {
    ctx().submit_now([&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, 1); });
    sim.observe();
    blown = !std::isfinite(sim.stats(sim.steps()).energy);
  }
  EXPECT_TRUE(blown) << "printed-m stayed finite for 400 steps";
}

// The CG pass's line in the Timings table counts the iterations the GPU ran, read once the
// frame is done: the warm start, the solve's start and those iterations, step by step.
TEST_F(Wave, TheCgPassDeclaresTheTrafficOfTheIterationsItRan) {
  for (Storage st : {Storage::Stencil, Storage::Banded}) {
    auto c = small(Scheme::Newmark, st, 3.0f);
    Simulation sim(ctx(), c);
    sim.set_state(drop(c, 11.3f, 9.6f), drop(c, 11.0f, 9.0f, 2.5f));
    gpu::Profiler prof(ctx());
    ctx().submit_now([&](VkCommandBuffer cmd) {
      prof.begin_frame(cmd);
      sim.record_steps(cmd, &prof, 3);
    });
    auto t = prof.resolve();
    auto cg = std::find_if(t.begin(), t.end(), [](auto& p) { return p.name == "wave.cg"; });
    ASSERT_NE(cg, t.end());
    ASSERT_EQ(cg->count, 3u);
    double iterations = 0;
    for (uint64_t k = 1; k <= 3; ++k) iterations += sim.stats(k).iterations;
    ASSERT_GT(iterations, 3.0);
    // One pass over a vector: 4 bytes a cell. The warm start h + (h − h⁻) passes over 3; the
    // solve's start over b (b·b), x and q (q = A·x), b, q, r (r = b − q), r (r·r), and on the
    // banded storage its 5 diagonals and d = r too; an iteration over 10 (the stencil's one
    // dispatch) or over the 5 diagonals, d and q, then x, r, d, q and d, r, d (16).
    double vec = 4.0 * c.n(), start = st == Storage::Stencil ? 7 * vec : 14 * vec;
    double per = st == Storage::Stencil ? 10 * vec : 16 * vec;
    EXPECT_DOUBLE_EQ(cg->bytes, 3 * (3 * vec + start) + iterations * per);
  }
}

TEST(WaveConfig, BadValuesAreRefused) {
  Config c;
  c.width = 30;
  EXPECT_THROW(check(c), std::invalid_argument);
  c = Config{};
  c.dt = 0;
  EXPECT_THROW(check(c), std::invalid_argument);
  c = Config{};
  c.damping = 2;
  EXPECT_THROW(check(c), std::invalid_argument);
  EXPECT_NO_THROW(check(Config{}));
}

}  // namespace
