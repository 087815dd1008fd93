// The wave lab's scheme knob: `scheme=auto` (the default) runs the thesis's Crank–Nicolson
// (seed) on the thesis's solver path and Newmark on the modern one; a scheme named runs on
// either. Checked on the heights: the lab's thesis path equals the CPU reference of the seed
// scheme, which a Newmark step would miss by far more than the tolerance.
#include "app/core/lab.h"
#include "app/core/registry.h"
#include "compute/gpu/profiler.h"
#include "compute/io/npy.h"
#include "compute/wave/wave.h"
#include "tests/helpers.h"

#include <cmath>

namespace {

class WaveLab : public GpuTest {
 protected:
  // The lab at 32², one drop in the middle, CG to 1e-6, `steps` steps; returns its dump.
  nlohmann::json run(const std::string& solver, const std::string& scheme, uint32_t steps, std::vector<float>& h) {
    auto lab = make_lab("wave");
    lab->params().set("size", "32");
    lab->params().set("preset", "drop");
    lab->params().set("tolerance", "1e-6");
    lab->params().set("solver", solver);
    if (!scheme.empty()) lab->params().set("scheme", scheme);
    lab->build(ctx());
    gpu::Profiler prof(ctx());
    for (uint32_t s = 0; s < steps; ++s) {
      lab->problem();  // reads the last frame back, as the window does
      ctx().submit_now([&](VkCommandBuffer cmd) {
        prof.begin_frame(cmd);
        lab->step(cmd, prof, 1);
      });
      prof.resolve();
    }
    EXPECT_EQ(lab->problem(), "");
    auto dir = scratch("wave-lab-" + solver + "-" + scheme);
    auto j = lab->dump(dir);
    h = read_npy(dir / "height.npy");
    return j;
  }
  // The lab's drop (its defaults: c = 4, dt = 1/60, dx = 1/16, radius 5, height 3) stepped on the CPU.
  static std::vector<double> cpu(wave::Scheme scheme, uint32_t steps) {
    wave::Config c;
    c.width = c.height = 32;
    c.c = 4.0f, c.dt = 1.0f / 60, c.dx = 1.0f / 16;
    c.scheme = scheme;
    c.tolerance = 1e-6f;
    c.max_iterations = 200;
    std::vector<float> h0(c.n(), 0.0f);
    wave::disturb_cpu(c, h0, wave::Shape::Drop, 15.5f, 15.5f, 5.0f, 3.0f);
    std::vector<double> h(h0.begin(), h0.end()), p = h;
    for (uint32_t i = 0; i < steps; ++i) wave::step_cpu(c, h, p);
    return h;
  }
  static double largest_gap(const std::vector<float>& a, const std::vector<double>& b) {
    double worst = 0;
    for (size_t i = 0; i < b.size(); ++i) worst = std::max(worst, std::fabs(double(a[i]) - b[i]));
    return worst;
  }
};

TEST_F(WaveLab, TheThesisPathRunsTheThesisSchemeUnlessAnotherIsNamed) {
  const uint32_t steps = 12;
  auto seed = cpu(wave::Scheme::Seed, steps), newmark = cpu(wave::Scheme::Newmark, steps);
  double scale = 0, apart = 0;
  for (size_t i = 0; i < seed.size(); ++i)
    scale = std::max(scale, std::fabs(seed[i])), apart = std::max(apart, std::fabs(seed[i] - newmark[i]));
  ASSERT_GT(apart, 1e-2 * scale) << "the two schemes should move the drop apart";
  struct Case {
    const char *solver, *scheme, *runs;
    const std::vector<double>* want;
  };
  for (Case k : {Case{"thesis", "", "seed", &seed}, Case{"thesis", "newmark", "newmark", &newmark},
                 Case{"modern", "", "newmark", &newmark}, Case{"modern", "seed", "seed", &seed}}) {
    SCOPED_TRACE(std::string("solver ") + k.solver + ", scheme " + (*k.scheme ? k.scheme : "(default)"));
    std::vector<float> h;
    auto j = run(k.solver, k.scheme, steps, h);
    EXPECT_EQ(j["scheme"], k.runs);
    ASSERT_EQ(h.size(), seed.size());
    EXPECT_LT(largest_gap(h, *k.want), 2e-5 * scale);
  }
}

}  // namespace
