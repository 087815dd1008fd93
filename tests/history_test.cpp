// Step back: the grid labs' state is copied after each frame into a ring of snapshots;
// going back puts the very bytes back (and the step count), replaying from there gives the
// same frames again, the ring keeps the newest within its budget.
#include "app/core/history.h"
#include "app/core/lab.h"
#include "tests/helpers.h"

namespace {

std::vector<std::vector<uint8_t>> contents(const Lab& lab) {
  std::vector<std::vector<uint8_t>> out;
  for (auto& p : lab.state_parts())
    out.push_back(p.buffer ? p.buffer->download<uint8_t>() : p.image->download<uint8_t>());
  return out;
}

class HistoryTest : public GpuTest {
 protected:
  // One window frame: the lab's steps, then the snapshot, in one submission.
  void frame(Lab& lab, History& h, gpu::Profiler& prof, uint32_t steps) {
    lab.problem();  // labs read back the previous frame here, as in the window
    ctx().submit_now([&](VkCommandBuffer cmd) {
      prof.begin_frame(cmd);
      lab.step(cmd, prof, steps);
      h.record(cmd, lab);
    });
    prof.resolve();
  }
};

}  // namespace

TEST_F(HistoryTest, GoingBackRestoresTheBytesAndReplayGivesTheSameFrames) {
  for (auto [name, size] : {std::pair{"diffusion", "32"}, {"wave", "32"}, {"cloth", "16"}}) {
    SCOPED_TRACE(name);
    auto lab = make_lab(name);
    lab->params().set("size", size);
    lab->build(ctx());
    gpu::Profiler prof(ctx());
    History h(ctx(), 64ull << 20, 10);
    std::vector<std::vector<std::vector<uint8_t>>> seen;
    std::vector<uint64_t> steps;
    for (int f = 0; f < 6; ++f) {
      frame(*lab, h, prof, 3);
      seen.push_back(contents(*lab));
      steps.push_back(lab->steps_done());
    }
    ASSERT_EQ(h.size(), 6u);
    EXPECT_EQ(h.step(2), steps[2]);
    EXPECT_NE(seen[2], seen[5]) << "the state should have moved on";
    h.restore(*lab, 2);
    EXPECT_EQ(lab->steps_done(), steps[2]);
    EXPECT_EQ(contents(*lab), seen[2]);
    EXPECT_EQ(h.size(), 6u);  // scrubbing keeps the later ones ...
    h.restore(*lab, 4);       // ... so it can go forward again
    EXPECT_EQ(contents(*lab), seen[4]);
    h.restore(*lab, 2);
    frame(*lab, h, prof, 3);  // stepping on from frame 2 replays frame 3 and drops 4 and 5
    EXPECT_EQ(h.size(), 4u);
    EXPECT_EQ(lab->steps_done(), steps[3]);
    EXPECT_EQ(contents(*lab), seen[3]);
    vkDeviceWaitIdle(ctx().device);
  }
}

TEST_F(HistoryTest, TheRingKeepsTheNewestWithinItsBudget) {
  auto lab = make_lab("diffusion");
  lab->params().set("size", "32");
  lab->build(ctx());
  gpu::Profiler prof(ctx());
  History ring(ctx(), 64ull << 20, 4);
  for (int f = 0; f < 7; ++f) frame(*lab, ring, prof, 2);
  EXPECT_EQ(ring.size(), 4u);
  EXPECT_EQ(ring.step(0), 8u);  // frames 4..7 of 2 steps each
  EXPECT_EQ(ring.step(3), 14u);
  History tiny(ctx(), 32 * 32 * 4, 300);  // room for one snapshot: not a history
  frame(*lab, tiny, prof, 1);
  EXPECT_EQ(tiny.size(), 0u);
  auto mesh = make_lab("floatlab");  // a lab without grid state keeps none
  EXPECT_TRUE(mesh->state_parts().empty());
  vkDeviceWaitIdle(ctx().device);
}
