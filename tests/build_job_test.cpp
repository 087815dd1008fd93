// A lab rebuilt beside the window's frames (app/window/build_job.h): the build runs on a worker
// thread on the session's context while this thread submits frames on the same queue, under
// validation (its thread-safety checks included); the phases come as they end; Cancel stops
// the build where the lab can and leaves the lab as it was.
#include "app/window/build_job.h"
#include "tests/helpers.h"

#include <gtest/gtest.h>

namespace {

std::unique_ptr<Lab> tetrahedra(int grid_size) {
  auto lab = make_lab("mesh");
  lab->params().set("generate", "tetrahedra");
  lab->params().set("grid_size", std::to_string(grid_size));
  return lab;
}

// Frames, as the window submits them meanwhile: a command buffer a frame on the same queue.
int frames_until_ended(Session& s, BuildJob& job) {
  int frames = 0;
  while (!job.ended(std::chrono::milliseconds(5))) {
    s.ctx().submit_now([](VkCommandBuffer) {});
    ++frames;
  }
  return frames;
}

uint64_t vertices(Session& s, const std::string& name) {
  return s.lab().dump(scratch(name))["vertices"].get<uint64_t>();
}

}  // namespace

TEST(BuildJob, AMeshRebuiltBesideFramesSaysItsPhasesAndRuns) {
  Session s(validated_options(), tetrahedra(16), Session::Parts{false, false});
  EXPECT_EQ(vertices(s, "build-job-before"), 5u * 5 * 5);
  s.lab().params().set("grid_size", "64");
  ASSERT_TRUE(s.lab().params().rebuild_pending);
  BuildJob job(s);
  frames_until_ended(s, job);
  std::vector<std::string> phases;
  for (auto& [phase, seconds] : job.progress().phases()) {
    phases.push_back(phase);
    EXPECT_GE(seconds, 0.0) << phase;
  }
  EXPECT_EQ(phases, (std::vector<std::string>{"generate", "faces", "numbering", "edges and tables", "links and balls",
                                              "kernels", "calibration", "pictures", "start"}));
  job.finish();
  EXPECT_EQ(s.error, "");
  EXPECT_FALSE(s.lab().params().rebuild_pending);
  EXPECT_EQ(vertices(s, "build-job-after"), 17u * 17 * 17);
  s.ctx().submit_now([&](VkCommandBuffer cmd) { s.record_steps(cmd, 2); });
  s.collect_frame();
  EXPECT_EQ(s.lab().steps_done(), 2u);
  EXPECT_EQ(s.lab().problem(), "");
  EXPECT_EQ(s.ctx().validation_count(), 0u);
}

TEST(BuildJob, CancelledTheLabKeepsItsMeshAndParameters) {
  Session s(validated_options(), tetrahedra(16), Session::Parts{false, false});
  s.ctx().submit_now([&](VkCommandBuffer cmd) { s.record_steps(cmd, 3); });
  s.collect_frame();
  s.lab().params().set("grid_size", "64");
  {
    BuildJob job(s);
    job.progress().cancel();  // stops at its first chance: after the mesh is generated
    frames_until_ended(s, job);
    job.finish();
    EXPECT_EQ(job.progress().phases().size(), 1u);
  }
  EXPECT_EQ(s.error, "the change was cancelled: the lab is as it was");
  EXPECT_EQ(s.lab().params().to_json()["grid_size"], 16);
  EXPECT_FALSE(s.lab().params().rebuild_pending);
  EXPECT_EQ(vertices(s, "build-job-cancelled"), 5u * 5 * 5);
  EXPECT_EQ(s.lab().steps_done(), 3u);
  s.ctx().submit_now([&](VkCommandBuffer cmd) { s.record_steps(cmd, 1); });
  s.collect_frame();
  EXPECT_EQ(s.lab().steps_done(), 4u);
  EXPECT_EQ(s.ctx().validation_count(), 0u);
}

// A lab that reports no phases (most build in a blink) still builds beside the frames.
TEST(BuildJob, ALabWithoutPhasesRebuildsToo) {
  Session s(validated_options(), make_lab("diffusion"), Session::Parts{false, false});
  ASSERT_FALSE(s.lab().params().all().empty());
  s.lab().params().set("size", "128");
  BuildJob job(s);
  frames_until_ended(s, job);
  EXPECT_FALSE(job.progress().reports());
  job.finish();
  EXPECT_EQ(s.error, "");
  EXPECT_EQ(s.lab().params().to_json()["size"], 128);
  EXPECT_EQ(s.ctx().validation_count(), 0u);
}
