// The cloth lab when the thesis's correction blows up (Bleton 2005, §4.1.2.2: stiffness
// governs stability): the lab says so with what to change and stops stepping, Restart at a
// stiffness that holds runs again; headless, the run stops with the message and exit status 3.
#include "app/core/lab.h"
#include "app/core/presets.h"
#include "app/core/registry.h"
#include "compute/gpu/profiler.h"
#include "tests/helpers.h"

namespace {

class ClothLab : public GpuTest {
 protected:
  // One window frame: read the last frame back (as the window does), then a step.
  void frame(Lab& lab, gpu::Profiler& prof) {
    lab.problem();
    ctx().submit_now([&](VkCommandBuffer cmd) {
      prof.begin_frame(cmd);
      lab.step(cmd, prof, 1);
    });
    prof.resolve();
  }
};

TEST_F(ClothLab, ABlowUpIsSaidAndRestartCarriesOn) {
  auto lab = make_lab("cloth");
  apply_preset(find_preset("cloth/thesis-substreams"), lab->params());
  lab->params().set("size", "24");
  lab->params().set("stiffness", "1");
  lab->build(ctx());
  gpu::Profiler prof(ctx());
  std::string said;
  for (int f = 0; f < 100 && said.empty(); ++f) {
    frame(*lab, prof);
    said = lab->problem();
  }
  ASSERT_FALSE(said.empty()) << "the thesis's correction at stiffness 1 should blow up within 100 steps";
  for (const char* part : {"blew up after", "thesis's correction", "stiffness 1", "Jacobi correction to scaled"})
    EXPECT_NE(said.find(part), std::string::npos) << part << " in: " << said;
  uint64_t stopped = lab->steps_done();
  for (int f = 0; f < 3; ++f) frame(*lab, prof);
  EXPECT_EQ(lab->steps_done(), stopped) << "a blown-up cloth should not be stepped on";
  EXPECT_EQ(lab->problem(), said);

  lab->params().set("stiffness", "0.5");
  lab->restart();
  EXPECT_EQ(lab->problem(), "");
  for (int f = 0; f < 100; ++f) frame(*lab, prof);
  EXPECT_EQ(lab->problem(), "");
  EXPECT_EQ(lab->steps_done(), 100u);
}

TEST(ClothLabCli, ABlowUpStopsAHeadlessRunWithItsMessage) {
  auto r = run_process(vklab_args(
      "--headless --preset cloth/thesis-substreams --set size=24 --set stiffness=1 --steps 200 --size 160x120"));
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("the cloth blew up after"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("set Jacobi correction to scaled"), std::string::npos) << r.err;
  r = run_process(vklab_args("--headless --preset cloth/thesis-substreams --set size=24 --steps 60 --size 160x120"));
  EXPECT_EQ(r.code, 0) << r.err;  // the preset's stiffness, 0.5, holds
}

}  // namespace
