// Abecassis 2012, SIMSURF §4.3 (compute/machining/partition.h): the dynamic partition aims each
// submission at a share of the budget from the last one's time, grows at most twice a submission
// and shrinks at once after an overrun; milling in partitions of any size gives the heights of one
// submission bit for bit; the lab's frames are sized from their measured GPU time (the profiler's
// spans carry the positions milled).
#include "compute/machining/partition.h"
#include "app/core/registry.h"
#include "app/core/session.h"
#include "compute/gpu/profiler.h"
#include "tests/helpers.h"

#include <algorithm>
#include <cmath>

using namespace machining;

TEST(DynamicPartition, AimsAtTheBudgetGrowsAtMostTwiceAndShrinksAtOnce) {
  // a linear cost: 0.01 ms a position plus 0.5 ms a submission
  auto cost = [](uint32_t n) { return 0.5 + 0.01 * n; };
  DynamicPartition p(10.0, 4, 100000);
  EXPECT_EQ(p.next(), 4u);
  uint32_t before = p.next();
  for (int k = 0; k < 40; ++k) {
    uint32_t n = p.next();
    p.feed(n, cost(n));
    EXPECT_LE(p.next(), 2 * before);
    before = p.next();
  }
  // converged: n·0.01 + 0.5 near 0.8 · 10 ms, so n near 750
  EXPECT_NEAR(double(p.next()), 750.0, 40.0);
  EXPECT_LE(cost(p.next()), 10.0);
  // an overrun (the GPU slowed down 5x): the next submission shrinks below the budget at once
  uint32_t n = p.next();
  p.feed(n, 5 * cost(n));
  EXPECT_LT(5 * cost(p.next()), 10.0);
  // bounds: never 0 positions, never past the path
  p.feed(100, 1e9);
  EXPECT_EQ(p.next(), 1u);
  DynamicPartition shortpath(10.0, 50, 60);
  shortpath.feed(50, 0.001);
  EXPECT_EQ(shortpath.next(), 60u);
  EXPECT_THROW(DynamicPartition(0.0, 1, 10), std::invalid_argument);
}

class Partitions : public GpuTest {};

TEST_F(Partitions, EveryPartitionMillsTheHeightsOfOneSubmission) {
  Stock s;
  s.nx = 96, s.ny = 80, s.d = 0.5f;
  auto tool = make_tool("sphere", 6.0f, 320);
  auto path = generate_path("spiral", 20.0f, 157, 1.0f, 3);
  Machine m(ctx(), s, tool, path);
  auto whole = mill_in_partitions(ctx(), m, Engine::Fine, uint32_t(path.size()), 0);
  ASSERT_EQ(whole.submissions.size(), 1u);
  auto reference = m.heights();
  bool cut = false;
  for (float h : reference) cut |= h < s.top;
  ASSERT_TRUE(cut) << "the path cuts the stock";
  for (uint32_t n : {1u, 7u, 50u}) {
    auto r = mill_in_partitions(ctx(), m, Engine::Fine, n, 0);
    EXPECT_EQ(r.submissions.size(), (path.size() + n - 1) / n);
    EXPECT_EQ(r.positions(), path.size());
    EXPECT_EQ(m.heights(), reference) << n << " positions a submission";
    for (auto& sub : r.submissions) EXPECT_GT(sub.ms, 0);
  }
  // dynamic, from one position: the sizes double while far under the budget, and it mills it all
  auto d = mill_in_partitions(ctx(), m, Engine::Fine, std::nullopt, 1000.0, 1);
  EXPECT_EQ(d.positions(), path.size());
  EXPECT_EQ(m.heights(), reference);
  ASSERT_GE(d.submissions.size(), 3u);
  EXPECT_EQ(d.submissions[0].positions, 1u);
  EXPECT_EQ(d.submissions[1].positions, 2u);
  EXPECT_EQ(d.submissions[2].positions, 4u);
  EXPECT_EQ(d.over_budget(), 0u);
}

TEST_F(Partitions, TheProfilersSpansCarryTheWorkOfTheirScope) {
  gpu::Profiler prof(ctx(), 8);
  ASSERT_TRUE(prof.supported());
  ctx().submit_now([&](VkCommandBuffer cmd) {
    prof.begin_frame(cmd);
    prof.end(cmd, prof.begin(cmd, "a", 0, 0, 123));
    prof.end(cmd, prof.begin(cmd, "b", 0, 0));
  });
  prof.resolve();
  ASSERT_EQ(prof.spans().size(), 2u);
  EXPECT_EQ(prof.spans()[0].work, 123);
  EXPECT_EQ(prof.spans()[1].work, 0);
  const uint64_t frames = prof.resolved();
  ctx().submit_now([&](VkCommandBuffer cmd) { prof.begin_frame(cmd); });
  prof.resolve();
  EXPECT_TRUE(prof.spans().empty()) << "a frame without scopes leaves no spans of the frame before";
  EXPECT_EQ(prof.resolved(), frames + 1);
}

// The lab with partition=dynamic: with a budget far above what a frame takes the frames double
// (100, 200, 400 while a frame takes under 40 % of it), with one far below they fall to one
// position; every frame's positions and time are in the dump, and the Timings note names §4.3.2.
TEST(MachiningPartition, TheLabSizesItsFramesFromTheirTime) {
  for (double budget : {2000.0, 0.05}) {
    SCOPED_TRACE(budget);
    Session s(validated_options(), make_lab("machining"), Session::Parts{false, false});
    s.lab().params().set("partition", "dynamic");
    s.lab().params().set("submission_ms", std::to_string(budget));
    for (int k = 0; k < 4; ++k) {
      s.ctx().submit_now([&](VkCommandBuffer cmd) { s.record_steps(cmd, 1); });
      s.collect_frame();
    }
    auto j = s.lab().dump(std::filesystem::temp_directory_path())["partition"];
    ASSERT_EQ(j["partition"], "dynamic");
    std::vector<uint32_t> positions = j["positions"];
    ASSERT_EQ(positions.size(), 4u);
    std::vector<double> ms = j["ms"];
    ASSERT_EQ(ms.size(), 4u);
    EXPECT_EQ(positions[0], 100u);  // Positions a frame starts it
    // each next frame from the last one's GPU time (the rule itself: DynamicPartition above), so
    // that a slow machine (sanitizers, a loaded CI) sizes its frames as its own times say
    for (size_t k = 0; k + 1 < positions.size(); ++k) {
      const double aimed = std::floor(positions[k] * DynamicPartition::kAim * j["budget_ms"].get<double>() / ms[k]);
      EXPECT_EQ(positions[k + 1], uint32_t(std::clamp(aimed, 1.0, 2.0 * positions[k]))) << "frame " << k + 1;
    }
    if (budget > 1000) {  // far above a frame's time: the frames double
      ASSERT_LT(ms[0], 0.2 * budget) << "100 positions in under 400 ms";
      EXPECT_EQ(positions[1], 200u);
    } else {  // far below: one position a frame
      EXPECT_EQ(positions[2], 1u);
      EXPECT_EQ(positions[3], 1u);
    }
    EXPECT_NE(s.lab().timings_note().find("§4.3.2"), std::string::npos) << s.lab().timings_note();
    // SIMSURF §16.4.3's timers: the machine's making, the milling's GPU time, the dump's read-back
    auto timers = s.lab().dump(std::filesystem::temp_directory_path())["timers_ms"];
    EXPECT_GT(timers["initialisation"].get<double>(), 0);
    EXPECT_GT(timers["finalisation"].get<double>(), 0);
    double gpu = 0;
    for (double ms : j["ms"].get<std::vector<double>>()) gpu += ms;
    EXPECT_DOUBLE_EQ(timers["execution_gpu"].get<double>(), gpu);
    EXPECT_NE(s.lab().timings_note().find("Timers (SIMSURF §16.4.3)"), std::string::npos);
    EXPECT_EQ(s.ctx().validation_count(), 0u);
  }
}
