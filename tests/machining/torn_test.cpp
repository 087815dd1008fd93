// SIMSURF §7.3.2's torn 64-bit value (compute/machining/torn.h): whole 64-bit stores and atomics
// never show two writers' halves, on the GPU and the CPU; the halves' race is counted as the
// host recounts it; the halves' check itself on values made by hand, the report's example's way.
#include "compute/machining/torn.h"
#include "tests/helpers.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace machining;

TEST(MachiningTorn, TheHalvesOfOneWriterBelongTogetherAndTwoWritersDoNot) {
  for (uint32_t w : {0u, 1u, 2u, 12345u, 0xFFFFEu}) {
    EXPECT_FALSE(torn_value(torn_low(w), torn_high(w))) << w;
    for (uint32_t other : {w + 1, w ^ 0x800u})
      EXPECT_TRUE(torn_value(torn_low(other & 0xFFFFFu), torn_high(w))) << w << " " << other;
  }
  // A writer's value is a double in [2, 4): the high half's exponent is 2's.
  uint64_t bits = uint64_t(torn_high(7)) << 32 | torn_low(7);
  double d;
  std::memcpy(&d, &bits, 8);
  EXPECT_GE(d, 2.0);
  EXPECT_LT(d, 4.0);
}

class MachiningTornGpu : public GpuTest {};

TEST_F(MachiningTornGpu, WholeValuesNeverTearAndTheHalvesAreCounted) {
  TornConfig c{.slots = 32, .writers = 8192, .rounds = 32};
  auto races = torn_races_gpu(ctx(), c);
  ASSERT_EQ(races.size(), 3u);
  EXPECT_EQ(races[0].form, "halves");
  for (auto& r : races) {
    SCOPED_TRACE(r.form);
    if (!r.skipped.empty()) {
      EXPECT_FALSE(ctx().int64_atomics);
      continue;
    }
    EXPECT_EQ(r.reads, uint64_t(c.writers) * c.rounds) << "every reader read every round";
    EXPECT_LE(r.torn_reads, r.reads);
    EXPECT_LE(r.torn_slots, c.slots);
    if (r.form != "halves") {
      EXPECT_EQ(r.torn_reads, 0u) << "a whole 64-bit value is never two writers'";
      EXPECT_EQ(r.torn_slots, 0u);
    }
  }
}

TEST(MachiningTorn, OnTheCpuAWholeWordNeverTears) {
  auto races = torn_races_cpu(16, 4, 2000);
  ASSERT_EQ(races.size(), 2u);
  EXPECT_EQ(races[0].form, "halves");
  EXPECT_EQ(races[1].form, "64-bit word");
  for (auto& r : races) {
    EXPECT_EQ(r.reads, 2u * 2000 * 16) << r.form;  // two reader threads of four
    EXPECT_LE(r.torn_slots, 16u);
  }
  EXPECT_EQ(races[1].torn_reads, 0u);
  EXPECT_EQ(races[1].torn_slots, 0u);
}
