// Faults the app must survive: a submission past the wait limit (a kernel that spins), GPU
// memory running out while a lab is built, and headless runs that could never end.
#include "app/core/registry.h"
#include "app/core/session.h"
#include "compute/gpu/pipeline.h"
#include "compute/gpu/resources.h"
#include "compute/gpu/shader_compile.h"
#include "tests/helpers.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>

namespace {

// Spins until the host writes a non-zero word into its buffer. llvmpipe ends any loop of an
// invocation after 65 535 trips (nested loops share the count), so the spin is spread over
// 2^26 invocations: alone it would run for hours; once told to stop, each ends at once.
const char* kSpin = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) coherent volatile buffer Flag { uint stop; uint spins; };
void main() {
  for (uint j = 0u; j < 65535u; j++) {
    if (stop != 0u) return;
    if (gl_GlobalInvocationID.x == 0u) spins = j + 1u;
  }
}
)";

TEST_F(GpuTest, ASubmissionPastTheWaitLimitIsSaidAndTheContextRecovers) {
  auto spirv = gpu::compile_glsl(kSpin, gpu::ShaderStage::Compute, "spin");
  ASSERT_TRUE(spirv.ok) << spirv.messages;
  auto spin = gpu::make_compute(ctx(), spirv.spirv);
  gpu::Buffer flag(ctx(), 8, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
  std::memset(flag.mapped(), 0, 8);
  const auto limit = ctx().wait_limit;
  ctx().wait_limit = std::chrono::milliseconds(300);
  auto start = std::chrono::steady_clock::now();
  try {
    ctx().submit_now([&](VkCommandBuffer cmd) {
      spin.bind(cmd, {gpu::storage_buffer(flag)});
      vkCmdDispatch(cmd, 65535, 16, 1);
    });
    ADD_FAILURE() << "the spinning kernel ended by itself after " << static_cast<uint32_t*>(flag.mapped())[1]
                  << " spins";
  } catch (const gpu::GpuFailure& e) {
    EXPECT_EQ(e.result, VK_TIMEOUT);
    EXPECT_NE(std::string(e.what()).find("did not finish a submission within 0.3 s"), std::string::npos) << e.what();
    EXPECT_FALSE(ctx().failed().empty());
  }
  ctx().wait_limit = limit;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  // The kernel still runs: let it end, and the context is trusted again.
  static_cast<volatile uint32_t*>(flag.mapped())[0] = 1;
  vkDeviceWaitIdle(ctx().device);
  // A later submission works and frees the one given up on.
  uint32_t spins = static_cast<uint32_t*>(flag.mapped())[1];
  EXPECT_GT(spins, 0u) << "the kernel never ran";
  static_cast<uint32_t*>(flag.mapped())[0] = 1;
  ctx().submit_now([&](VkCommandBuffer cmd) {
    spin.bind(cmd, {gpu::storage_buffer(flag)});
    vkCmdDispatch(cmd, 1, 1, 1);
  });
  EXPECT_TRUE(ctx().failed().empty());
}

// A lab's footprint so far, from the allocator's count.
uint64_t reserved(Session& s) { return s.ctx().allocator().stats().reserved; }

gpu::ContextOptions dedicated_memory() {
  gpu::ContextOptions co = validated_options();
  co.memory = gpu::parse_memory_options("dedicated");  // every resource a driver allocation
  return co;
}

// Out of memory while a lab is built: the running lab, its parameters and its state stay as
// they were (the strong guarantee), and it goes on stepping.
class OutOfMemory : public ::testing::TestWithParam<std::string> {};

TEST_P(OutOfMemory, WhileSwitchingOrRebuildingTheRunningLabIsKept) {
  const std::string name = GetParam();
  {
    Session s(dedicated_memory(), make_lab(name), Session::Parts{false, false});
    s.ctx().submit_now([&](VkCommandBuffer cmd) { s.record_steps(cmd, 2); });
    s.collect_frame();
    const uint64_t steps = s.lab().steps_done();
    const auto params = s.lab().params().to_json();
    s.ctx().allocator().set_budget(reserved(s));  // not one byte more
    const std::string other = name == "diffusion" ? "wave" : "diffusion";
    s.switch_lab(other);
    EXPECT_EQ(s.lab().name(), name);
    EXPECT_NE(s.error.find("out of GPU memory"), std::string::npos) << s.error;
    s.error.clear();
    s.apply_rebuild();  // the same parameters again: made anew beside the running state, then swapped in
    EXPECT_NE(s.error.find("out of GPU memory"), std::string::npos) << s.error;
    EXPECT_EQ(s.lab().params().to_json(), params);
    EXPECT_EQ(s.lab().steps_done(), steps);
    s.ctx().allocator().set_budget(0);
    s.ctx().submit_now([&](VkCommandBuffer cmd) { s.record_steps(cmd, 1); });
    s.collect_frame();
    if (s.lab().steps()) {
      EXPECT_GT(s.lab().steps_done(), steps);
    }
    EXPECT_EQ(s.ctx().validation_count(), 0u);
  }
}
INSTANTIATE_TEST_SUITE_P(EveryLab, OutOfMemory, ::testing::ValuesIn(lab_names()));

TEST(Reliability, AHeadlessRunThatCouldNeverStepIsRefused) {
  auto r = run_process(vklab_args("--headless --lab diffusion --set steps_per_frame=0 --steps 100000000"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("would never end"), std::string::npos) << r.err;
}

TEST(Reliability, TheMemoryBudgetRefusesALabTooBigForIt) {
  auto r = run_process(vklab_args("--headless --lab diffusion --memory-budget 1 --steps 1"));
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("out of GPU memory"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--memory-budget"), std::string::npos) << r.err;
}

// A lost device headless (simulated: the 4th wait reports VK_ERROR_DEVICE_LOST): one line says
// so, the run's parameters and steps are saved as a preset, and vklab exits with code 4.
TEST(Reliability, AHeadlessRunWhoseDeviceIsLostSavesItsParametersAndExits4) {
  auto dir = scratch("lost-headless");
  auto r = run_process("cd " + dir.string() + " && VKLAB_SIMULATE_DEVICE_LOST=4 " +
                       vklab_args("--headless --lab wave --set steps_per_frame=2 --steps 50"));
  EXPECT_EQ(r.code, 4) << r.out << r.err;
  EXPECT_NE(r.err.find("the GPU device was lost"), std::string::npos) << r.err;
  std::ifstream in(dir / "vklab-rescued-wave.json");
  ASSERT_TRUE(in) << "the parameters should be saved";
  auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["lab"], "wave");
  EXPECT_EQ(j["params"]["steps_per_frame"].dump(), "2") << j.dump();
  EXPECT_LT(j["steps_done"].get<uint64_t>(), 50u);
}

}  // namespace
