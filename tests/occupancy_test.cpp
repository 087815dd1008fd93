// Occupancy by SIMSURF's equations (Abecassis 2012) (12.1-12.7): its worked example (§12.3), today's cards'
// bounds each in turn, the driver's statistics read under each vendor's names, and the
// pipelines a context keeps for them.
#include "compute/measure/occupancy.h"
#include "compute/gpu/pipeline.h"
#include "compute/measure/kernel_statistics.h"
#include "tests/helpers.h"

#include <gtest/gtest.h>

namespace {

TEST(Occupancy, TheReportsExampleGivesFourBlocksAndTwoThirds) {
  auto mp = gpu::fermi_multiprocessor();
  auto o = gpu::occupancy(mp, 256, 29);
  EXPECT_EQ(o.warps_per_block, 8u);            // 12.8
  EXPECT_EQ(o.blocks_by_warps, 6u);            // 12.9
  EXPECT_EQ(o.registers_per_block, 8192u);     // 12.10
  EXPECT_EQ(o.blocks_by_registers, 4u);        // 12.11
  EXPECT_EQ(o.blocks, 4u);                     // 12.12
  EXPECT_DOUBLE_EQ(o.occupancy, 32.0 / 48.0);  // 12.13: "about 67 %"
  EXPECT_EQ(o.limit, gpu::Limit::Registers);
  auto text = gpu::explain(mp, o);
  EXPECT_NE(text.find("B_R = min(floor(32768 / 8192), 8) = 4"), std::string::npos) << text;
  EXPECT_NE(text.find("66.7 %"), std::string::npos) << text;
  // 12.7 by hand: W warps a block give min(floor(48/W), 8, floor(32/W)) blocks; 32 of the 48
  // warps is the most, at 4, 8, 16 and 32 warps.
  EXPECT_EQ(gpu::best_threads(mp, 29), (std::vector<uint32_t>{128, 256, 512, 1024}));
}

TEST(Occupancy, EachBoundTakesItsTurnOnAHopperMultiprocessor) {
  auto mp = gpu::hopper_multiprocessor();
  auto full = gpu::occupancy(mp, 256, 32);  // 8 blocks of 8 warps, 8 x 8192 registers
  EXPECT_EQ(full.blocks, 8u);
  EXPECT_DOUBLE_EQ(full.occupancy, 1.0);
  auto regs = gpu::occupancy(mp, 256, 64);  // 16384 registers a block: 4 blocks
  EXPECT_EQ(regs.blocks, 4u);
  EXPECT_EQ(regs.limit, gpu::Limit::Registers);
  EXPECT_DOUBLE_EQ(regs.occupancy, 0.5);
  auto most = gpu::occupancy(mp, 256, 255);  // 255 x 32 rounds to 8192 a warp: one block of 8 warps
  EXPECT_EQ(most.registers_per_block, 65536u);
  EXPECT_DOUBLE_EQ(most.occupancy, 8.0 / 64.0);
  auto small = gpu::occupancy(mp, 32, 16);  // one warp a block: 32 blocks at most
  EXPECT_EQ(small.blocks, 32u);
  EXPECT_EQ(small.limit, gpu::Limit::Warps);
  EXPECT_DOUBLE_EQ(small.occupancy, 0.5);
  auto shared = gpu::occupancy(mp, 256, 32, 48 * 1024);  // 49152 + 1024 reserved: 4 blocks in 228 KiB
  EXPECT_EQ(shared.blocks_by_shared, 4u);
  EXPECT_EQ(shared.limit, gpu::Limit::SharedMemory);
  EXPECT_DOUBLE_EQ(shared.occupancy, 0.5);
  // 64 registers: 2048 a warp, so at most 32 warps whatever the size; W warps a block reach it
  // where W divides 32.
  EXPECT_EQ(gpu::best_threads(mp, 64), (std::vector<uint32_t>{32, 64, 128, 256, 512, 1024}));
  auto too_many = gpu::occupancy(mp, 256, 300);
  EXPECT_EQ(too_many.blocks, 0u);
  EXPECT_NE(too_many.why_not.find("300 registers"), std::string::npos);
  EXPECT_NE(gpu::occupancy(mp, 2048, 16).why_not.find("2048 threads"), std::string::npos);
  EXPECT_NE(gpu::occupancy(mp, 64, 16, 300 * 1024).why_not.find("shared memory"), std::string::npos);
  gpu::Multiprocessor found;
  EXPECT_TRUE(gpu::multiprocessor_of("NVIDIA H100 80GB HBM3", found));
  EXPECT_EQ(found.max_warps, 64u);
  EXPECT_FALSE(gpu::multiprocessor_of("llvmpipe (LLVM 15.0.6, 256 bits)", found));
}

TEST(Occupancy, RegistersAndSharedMemoryAreReadUnderEachVendorsNames) {
  gpu::KernelReport nvidia;
  nvidia.statistics = {{"Binary Size", "", 4096}, {"Register Count", "", 40}, {"Shared Memory Size", "", 2048}};
  gpu::read_resources(nvidia);
  EXPECT_EQ(nvidia.registers, 40u);
  EXPECT_EQ(nvidia.shared_bytes, 2048u);
  gpu::KernelReport amd;
  amd.statistics = {{"SGPRs", "", 48}, {"VGPRs", "", 24}, {"LDS Usage", "", 1024}, {"Spilled VGPRs", "", 0}};
  gpu::read_resources(amd);
  EXPECT_EQ(amd.registers, 24u);
  EXPECT_EQ(amd.shared_bytes, 1024u);
  gpu::KernelReport none;
  none.statistics = {{"Instruction Count", "", 120}};
  gpu::read_resources(none);
  EXPECT_FALSE(none.registers);
  EXPECT_FALSE(none.shared_bytes);
}

class KernelStatistics : public GpuTest {};

TEST_F(KernelStatistics, TheContextKeepsItsLivePipelinesAndSaysWhyItHasNoStatistics) {
  size_t before = ctx().pipelines.size();
  {
    auto p = gpu::make_compute(ctx(), "linalg/axpby.buf", 36);
    ASSERT_EQ(ctx().pipelines.size(), before + 1);
    auto& record = ctx().pipelines.at(p.handle());
    EXPECT_EQ(record.shader, "linalg/axpby.buf");
    EXPECT_EQ(record.local_x, p.local_size().x);
  }
  EXPECT_EQ(ctx().pipelines.size(), before);
  if (!ctx().pipeline_statistics) {  // lavapipe: the extension is not offered
    EXPECT_NE(gpu::kernel_statistics_missing(ctx()).find("VK_KHR_pipeline_executable_properties"), std::string::npos);
    EXPECT_TRUE(gpu::kernel_statistics(ctx()).empty());
    EXPECT_NE(gpu::format_kernel_statistics(ctx(), {}).find("does not give"), std::string::npos);
  }
}

}  // namespace

namespace {

// Headless, --occupancy lists the run's kernels where the driver gives statistics and says in
// one sentence why not where it does not (lavapipe); it needs --headless.
TEST(Cli, OccupancyListsTheRunsKernelsOrSaysWhyNot) {
  auto r = run_process(vklab_args("--headless --validate --lab linalg --steps 1 --occupancy"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  bool listed = r.out.find("kernels of this run on") != std::string::npos;
  bool missing = r.out.find("VK_KHR_pipeline_executable_properties") != std::string::npos;
  EXPECT_TRUE(listed != missing) << r.out;
  if (listed) {
    EXPECT_NE(r.out.find("linalg/"), std::string::npos) << r.out;
  }
  auto bad = run_process(vklab_args("--occupancy"));
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--occupancy needs --headless"), std::string::npos) << bad.err;
}

}  // namespace
