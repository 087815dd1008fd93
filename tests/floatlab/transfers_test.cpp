// Host <-> device transfers (compute/floatlab/transfers.*): each direction's copy delivers every
// random non-zero word it sends, read back independently of the copy; the bench's rows
// transfers.h2d / d2h / d2d exist at the sizes asked for, with positive GB/s and the seeds'
// figures beside them.
#include "compute/floatlab/transfers.h"
#include "compute/floatlab/bench.h"
#include "compute/gpu/resources.h"
#include "tests/helpers.h"

#include <map>
#include <set>

using namespace floatlab;

namespace {
class FloatlabTransfers : public GpuTest {};

constexpr TransferDirection kDirections[] = {TransferDirection::H2D, TransferDirection::D2H, TransferDirection::D2D};
}  // namespace

TEST_F(FloatlabTransfers, EveryWordArrivesInEachDirection) {
  // An odd number of words, past a power of two, so that a copy of a rounded size would miss some.
  for (VkDeviceSize bytes : {VkDeviceSize(4), VkDeviceSize((1u << 20) + 12)})
    for (auto direction : kDirections) {
      Transfer t(ctx(), direction, bytes, 7 + uint32_t(direction));
      ASSERT_EQ(t.sent().size(), bytes / 4);
      for (size_t i = 0; i < t.sent().size(); ++i) ASSERT_NE(t.sent()[i], 0u) << "the data must be non-zero: " << i;
      auto c = t.check();
      EXPECT_EQ(c.words, bytes / 4);
      EXPECT_EQ(c.wrong, 0u) << transfer_name(direction) << " " << bytes << " B: word " << c.first_wrong << " sent "
                             << c.first_sent << ", arrived " << c.first_arrived;
    }
}

TEST_F(FloatlabTransfers, TheCheckSeesWordsThatDidNotArrive) {
  // Without the copy the destination keeps its poison (the complement of each word): every word wrong.
  for (auto direction : kDirections) {
    Transfer t(ctx(), direction, 4096, 3);
    auto lost = t.check(false);
    EXPECT_EQ(lost.words, 1024u);
    EXPECT_EQ(lost.wrong, 1024u) << transfer_name(direction);
    EXPECT_EQ(lost.first_wrong, 0u);
    EXPECT_EQ(lost.first_arrived, ~t.sent()[0]);
    EXPECT_EQ(t.check().wrong, 0u) << transfer_name(direction);
  }
  // One word changed, one missing at the end.
  Transfer t(ctx(), TransferDirection::H2D, 64, 5);
  auto arrived = t.sent();
  arrived[9] ^= 1u << 17;
  auto c = Transfer::compare(t.sent(), arrived);
  EXPECT_EQ(c.wrong, 1u);
  EXPECT_EQ(c.first_wrong, 9u);
  EXPECT_EQ(c.first_sent, t.sent()[9]);
  arrived.pop_back();
  EXPECT_EQ(Transfer::compare(t.sent(), arrived).wrong, 2u);
  // Two seeds draw different words.
  Transfer other(ctx(), TransferDirection::H2D, 64, 6);
  EXPECT_EQ(Transfer::compare(t.sent(), other.sent()).wrong, 16u);
}

TEST_F(FloatlabTransfers, BenchRowsAtTheSizesAskedForWithTheSeedsBeside) {
  gpu::BenchOptions o;
  o.quick = true;
  o.only = {"transfers"};
  o.saxpy_gbps = 1.0;  // the D2D rows' reference, given here as `vklab bench` measures it
  auto rows = floatlab::bench(ctx(), o);
  const auto sizes = transfer_sizes(ctx(), true);
  ASSERT_EQ(sizes.size(), 2u);
  std::set<std::string> expected_sizes = {"64 KiB", "1 MiB"};
  ASSERT_EQ(rows.size(), 3u * sizes.size());
  std::map<std::string, std::set<std::string>> seen;
  for (auto& r : rows) {
    seen[r.pass].insert(r.size);
    EXPECT_GT(r.median_ms, 0.0) << r.pass << " " << r.size;
    EXPECT_GT(r.gbps(), 0.0) << r.pass << " " << r.size;
    EXPECT_EQ(r.reference["words_checked"].get<uint64_t>(), r.elements) << r.pass;
    const double copied = r.reference["bytes_copied"].get<double>();
    EXPECT_EQ(r.elements * 4, uint64_t(copied));
    EXPECT_DOUBLE_EQ(r.bytes, r.pass == "transfers.d2d" ? 2 * copied : copied) << r.pass;
    const auto& seed = r.reference["seed"];
    ASSERT_FALSE(seed.empty()) << r.pass;
    for (auto& f : seed) {
      EXPECT_GT(f["gbps"].get<double>(), 0.0);
      EXPECT_NEAR(f["ratio"].get<double>(), r.gbps() / f["gbps"].get<double>(), 1e-9 * r.gbps());
      EXPECT_FALSE(f["section"].get<std::string>().empty());
    }
    if (r.pass == "transfers.d2d") {
      EXPECT_NEAR(r.reference["relative_to_saxpy"].get<double>(), r.gbps(), 1e-12);
    }
    // Where a source gives no number it is said so: Da Graça 2006 (H2D, D2H), Bleton 2005's uploads
    // (H2D) and its copies into textures (D2D).
    EXPECT_EQ(r.reference["seed_without_figure"].size(), r.pass == "transfers.h2d" ? 2u : 1u) << r.pass;
  }
  for (const char* pass : {"transfers.h2d", "transfers.d2h", "transfers.d2d"})
    EXPECT_EQ(seen[pass], expected_sizes) << pass;
  // The seeds' figures, as printed: SIMSURF §2.3.2 (both machines) for all three, Bleton §2.5.4 for D2H.
  EXPECT_DOUBLE_EQ(seed_transfer_figures(TransferDirection::H2D)[0]["gbps"].get<double>(), 3.241);
  EXPECT_DOUBLE_EQ(seed_transfer_figures(TransferDirection::D2H)[2]["gbps"].get<double>(), 0.6);
  EXPECT_DOUBLE_EQ(seed_transfer_figures(TransferDirection::D2D)[1]["gbps"].get<double>(), 110.787);
}
