// compute/diffusion: GPU steps against the CPU reference, conservation, an analytic
// eigenmode decay, painting and the statistics reduction.
#include "compute/diffusion/diffusion.h"
#include "tests/helpers.h"

#include <cfloat>
#include <cmath>
#include <numeric>

using namespace diffusion;
using Diffusion = GpuTest;

namespace {

Config grid(uint32_t w, uint32_t h, float cd, Boundary b) {
  Config c;
  c.width = w;
  c.height = h;
  c.cd = cd;
  c.boundary = b;
  return c;
}

std::vector<float> run_gpu(gpu::Context& ctx, const Config& c, const std::vector<float>& start, uint32_t steps) {
  Simulation sim(ctx, c);
  sim.upload(start);
  ctx.submit_now([&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, steps); });
  return sim.download();
}

double sum(const std::vector<float>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

}  // namespace

// Add and multiply are correctly rounded in Vulkan and the shader keeps the reference's
// operation order (`precise`), so the only allowed difference is denormal flushing:
// at most FLT_MIN per operation, 8 operations a step. Both kernels: a cell an invocation
// (width 70) and a quad an invocation (width 68, a multiple of 4).
TEST_F(Diffusion, StepsMatchCpuReference) {
  for (auto [b, w] : {std::pair{Boundary::Insulated, 70u},
                      {Boundary::FixedZero, 70u},
                      {Boundary::Insulated, 68u},
                      {Boundary::FixedZero, 68u}}) {
    auto c = grid(w, 45, 0.9f, b);
    auto start = random_floats(size_t(c.width) * c.height, 0.1f, 1.0f, 11);
    const uint32_t steps = 60;
    auto gpu = run_gpu(ctx(), c, start, steps);
    auto cpu = start;
    steps_cpu(c, cpu, steps);
    const float tol = steps * 8 * FLT_MIN;
    for (size_t i = 0; i < cpu.size(); ++i)
      ASSERT_NEAR(gpu[i], cpu[i], tol) << "cell " << i % c.width << "," << i / c.width << " boundary " << int(b)
                                       << " width " << w;
  }
}

// The quad kernel at every shape the bench sweeps (Simulation::set_step_shape): several rows a
// column an invocation (a height not a multiple of them: the last column stops at the grid's
// edge), wide and tall workgroups; the same cells as the CPU reference, both borders.
TEST_F(Diffusion, EveryStepShapeMatchesCpuReference) {
  for (StepShape shape : std::vector<StepShape>{{64, 2, 8}, {128, 1, 32}, {32, 8, 4}, {256, 1, 1}})
    for (Boundary b : {Boundary::Insulated, Boundary::FixedZero}) {
      auto c = grid(136, 45, 0.9f, b);
      auto start = random_floats(size_t(c.width) * c.height, 0.1f, 1.0f, 12);
      Simulation sim(ctx(), c);
      sim.set_step_shape(shape);
      sim.upload(start);
      ctx().submit_now([&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, 30); });
      auto gpu = sim.download();
      auto cpu = start;
      steps_cpu(c, cpu, 30);
      for (size_t i = 0; i < cpu.size(); ++i)
        ASSERT_NEAR(gpu[i], cpu[i], 30 * 8 * FLT_MIN) << "cell " << i % c.width << "," << i / c.width << " shape "
                                                      << shape.across << "x" << shape.down << "x" << shape.rows;
    }
}

// With insulated borders every flux leaving one cell enters its neighbour: the total is
// conserved up to rounding, at most ~3 ulp of the largest value per cell and step.
TEST_F(Diffusion, InsulatedBordersConserveHeat) {
  auto c = grid(64, 64, 1.0f, Boundary::Insulated);
  auto start = random_floats(size_t(c.width) * c.height, 0.1f, 1.0f, 12);
  const uint32_t steps = 100;
  auto end = run_gpu(ctx(), c, start, steps);
  double bound = double(steps) * start.size() * 3 * FLT_EPSILON * 1.0;
  EXPECT_NEAR(sum(end), sum(start), bound);
  // and it did diffuse: the field flattened towards its mean
  auto spread = [](const std::vector<float>& v) {
    auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    return *hi - *lo;
  };
  EXPECT_LT(spread(end), 0.5f * spread(start));
}

TEST_F(Diffusion, FixedZeroBordersLoseHeatEveryStep) {
  auto c = grid(40, 40, 0.8f, Boundary::FixedZero);
  auto field = random_floats(size_t(c.width) * c.height, 0.1f, 1.0f, 13);
  Simulation sim(ctx(), c);
  sim.upload(field);
  double last = sum(field);
  for (int i = 0; i < 5; ++i) {
    ctx().submit_now([&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, 10); });
    double now = sum(sim.download());
    EXPECT_LT(now, last) << "after " << (i + 1) * 10 << " steps";
    last = now;
  }
}

// sin(π(x+1)/(W+1))·sin(π(y+1)/(H+1)) is an eigenvector of the 5-point Laplacian with zero
// borders, eigenvalue λ = -4[sin²(π/2(W+1)) + sin²(π/2(H+1))]: each step multiplies it by 1 + kλ.
TEST_F(Diffusion, EigenmodeDecaysAtTheAnalyticRate) {
  auto c = grid(48, 32, 1.0f, Boundary::FixedZero);
  const double pi = 3.14159265358979323846;
  std::vector<float> mode(size_t(c.width) * c.height);
  for (uint32_t y = 0; y < c.height; ++y)
    for (uint32_t x = 0; x < c.width; ++x)
      mode[y * c.width + x] = float(std::sin(pi * (x + 1) / (c.width + 1)) * std::sin(pi * (y + 1) / (c.height + 1)));
  double lambda =
      -4 * (std::pow(std::sin(pi / (2 * (c.width + 1))), 2) + std::pow(std::sin(pi / (2 * (c.height + 1))), 2));
  const uint32_t steps = 200;
  double factor = std::pow(1 + c.cd / 4.0 * lambda, steps);
  auto end = run_gpu(ctx(), c, mode, steps);
  // rounding: ~8 ulp a step on values <= 1, plus the starting field's own rounding
  double tol = (8.0 * steps + 2) * FLT_EPSILON;
  for (size_t i = 0; i < mode.size(); ++i) ASSERT_NEAR(end[i], factor * mode[i], tol) << "cell " << i;
}

TEST_F(Diffusion, PaintMatchesCpu) {
  auto c = grid(50, 40, 0.5f, Boundary::Insulated);
  auto field = random_floats(size_t(c.width) * c.height, 0.1f, 1.0f, 14);
  Simulation sim(ctx(), c);
  sim.upload(field);
  struct Stroke {
    float x, y, r, amount;
  };
  std::vector<Stroke> strokes = {{10.3f, 12.7f, 4.0f, 2.5f}, {48.0f, 2.0f, 6.0f, -0.7f}, {-3.0f, 20.0f, 5.0f, 1.0f}};
  ctx().submit_now([&](VkCommandBuffer cmd) {
    for (auto& s : strokes) sim.record_paint(cmd, nullptr, s.x, s.y, s.r, s.amount);
  });
  for (auto& s : strokes) paint_cpu(c, field, s.x, s.y, s.r, s.amount);
  auto gpu = sim.download();
  // exp() in GLSL is within 3 + 2|x| ulp (|x| <= 9 here); the rest is correctly rounded.
  for (size_t i = 0; i < field.size(); ++i)
    ASSERT_NEAR(gpu[i], field[i], 3 * 32 * FLT_EPSILON * (1 + std::fabs(field[i]))) << "cell " << i;
}

TEST_F(Diffusion, StatsMatchCpuAndCountNonFiniteCells) {
  auto c = grid(300, 217, 0.5f, Boundary::Insulated);
  auto field = random_floats(size_t(c.width) * c.height, -3.0f, 5.0f, 15);
  field[17] = NAN;
  field[4000] = INFINITY;
  field[field.size() - 1] = -INFINITY;
  Simulation sim(ctx(), c);
  sim.upload(field);
  Stats gpu = sim.stats(), cpu = stats_cpu(field);
  EXPECT_EQ(gpu.non_finite, 3u);
  EXPECT_EQ(gpu.min, cpu.min);
  EXPECT_EQ(gpu.max, cpu.max);
  // float sums: each thread adds ceil(n/65536) values, then two trees of 8 levels
  double abs_sum = 0;
  for (float v : field)
    if (std::isfinite(v)) abs_sum += std::fabs(v);
  double bound = (std::ceil(field.size() / 65536.0) + 16) * FLT_EPSILON * abs_sum;
  EXPECT_NEAR(gpu.sum, cpu.sum, bound);
}

TEST_F(Diffusion, UnstableCoefficientBlowsUpToNonFinite) {
  auto c = grid(32, 32, 2.0f, Boundary::Insulated);
  Simulation sim(ctx(), c);
  sim.upload(random_floats(32 * 32, 0.1f, 1.0f, 16));
  ctx().submit_now([&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, 400); });
  EXPECT_GT(sim.stats().non_finite, 0u);
}

TEST_F(Diffusion, RejectsGridsTheDeviceCannotHold) {
  EXPECT_THROW(Simulation(ctx(), grid(1, 10, 0.5f, Boundary::Insulated)), std::invalid_argument);
  EXPECT_THROW(Simulation(ctx(), grid(1u << 20, 10, 0.5f, Boundary::Insulated)), std::invalid_argument);
  EXPECT_THROW(Simulation(ctx(), grid(10, diffusion::kMaxSide + 1, 0.5f, Boundary::Insulated)), std::invalid_argument);
}
