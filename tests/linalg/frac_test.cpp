// compute/linalg/frac_index: the thesis's float index formulas 3.1-3.4 (Bleton 2005, §3.3.4).
// The GPU's arithmetic equals its CPU twin (IEEE division, as lavapipe divides), powers of
// two are exact until the indices outgrow float, and the banded product run that way fetches
// exactly the quads the twin predicts, wrong ones included.
#include "compute/linalg/frac_index.h"
#include "compute/linalg/ops.h"
#include "compute/linalg/reference.h"
#include "tests/helpers.h"

#include <cmath>

using namespace linalg;

namespace {

// lavapipe divides as IEEE does (correctly rounded), as the CPU twin: there the GPU's addresses
// are the twin's exactly. Vulkan lets a device's division be off by 2.5 ulps (an H100's first
// wrong size is 9 quads, not 6): there only what holds for any division is checked.
class FracIndex : public GpuTest {
 protected:
  bool ieee_division() { return ctx().info.name.find("llvmpipe") != std::string::npos; }
};

const std::vector<int32_t> kBand = {-2, -1, 0, 1};  // a 12-diagonal band's quad offsets

TEST_F(FracIndex, TheGpuSweepEqualsItsCpuTwin) {
  auto sizes = FracSweep::sizes(300, 16);
  FracSweep sweep(ctx());
  auto got = sweep.run(sizes, {-2, -1, 1, 5, -77});
  ASSERT_EQ(got.size(), sizes.size());
  uint32_t sizes_wrong = 0;
  for (size_t k = 0; k < sizes.size(); ++k) {
    auto want = count_wrong_cpu(sizes[k], {-2, -1, 1, 5, -77});
    if (ieee_division()) {
      ASSERT_EQ(got[k].wrong, want.wrong) << "N = " << sizes[k];
      ASSERT_EQ(got[k].first_q, want.first_q) << "N = " << sizes[k];
    }
    ASSERT_EQ(got[k].checked, want.checked);
    if (got[k].wrong) ++sizes_wrong;
    if ((sizes[k] & (sizes[k] - 1)) == 0) {
      EXPECT_EQ(want.wrong, 0u) << "a power of two divides exactly";
      EXPECT_EQ(got[k].wrong, 0u) << "a power of two divides exactly, on any GPU";
    }
  }
  EXPECT_GT(sizes_wrong, 10u) << "sizes that are not powers of two should go wrong at row ends";
  // The first wrong size with the band's offsets, as the twin finds it: 6 quads (24 values) in
  // a 4x4 texture on IEEE division.
  auto band = sweep_frac_index(ctx(), 64, 10);
  int64_t first = -1;
  for (uint32_t n = 1; n <= 64 && first < 0; ++n)
    if (count_wrong_cpu(n, kBand).wrong) first = n;
  EXPECT_EQ(first, 6);
  if (ieee_division()) {
    EXPECT_EQ(band.first_wrong, first);
  }
  EXPECT_GT(band.first_wrong, 2) << "a few quads are always right";
  EXPECT_EQ(band.first_wrong_pow2, -1);
  std::printf("first size with a wrong quad: N = %lld; %u of %zu sizes up to 2^10 go wrong\n",
              (long long)band.first_wrong, band.sizes_wrong, band.counts.size());
}

// j0 + i beyond 2^24 is not a float: at N = 2^24 quads (a 4096² texture, 2^26 values) the
// powers of two go wrong too; up to 2^22 they stay exact on any GPU (division by 2^k is).
TEST_F(FracIndex, PowersOfTwoHoldUntilTheIndicesOutgrowFloat) {
  FracSweep sweep(ctx());
  auto got = sweep.run({1u << 18, 1u << 20, 1u << 22, 1u << 24}, kBand);
  EXPECT_EQ(got[0].wrong, 0u);
  EXPECT_EQ(got[1].wrong, 0u);
  EXPECT_EQ(got[2].wrong, 0u);
  EXPECT_GT(got[3].wrong, 0u);
  std::printf("N = 2^24 quads: %llu of %llu addresses wrong, the first at quad %lld\n",
              (unsigned long long)got[3].wrong, (unsigned long long)got[3].checked, (long long)got[3].first_q);
}

// The banded product with index = frac: exact where every address is (side 16: 256 quads),
// and where some are not (side 20: 400 quads) it multiplies the very quads the twin names.
TEST_F(FracIndex, TheBandedProductFetchesWhatTheFormulasName) {
  for (uint32_t side : {16u, 20u}) {
    uint32_t n = 4 * side * side;
    auto m = random_band(n, 12, 3);
    auto v = random_floats(n, 0.5f, 2.0f, 4);
    Ops ops(ctx(), Layout::Texture);
    GpuBanded gm(ctx(), m, Layout::Texture);
    Vec x(ctx(), n, Layout::Texture), integer(ctx(), n, Layout::Texture), frac(ctx(), n, Layout::Texture);
    x.upload(v);
    ctx().submit_now([&](VkCommandBuffer cmd) { ops.banded(cmd, Variant::Thesis, gm, x, nullptr, integer); });
    ops.set_frac_index(true);
    ctx().submit_now([&](VkCommandBuffer cmd) { ops.banded(cmd, Variant::Thesis, gm, x, nullptr, frac); });
    auto gi = integer.download(), gf = frac.download();
    auto want = banded_frac_indexed_cpu(m, v), exact = banded_cpu(m, v);
    auto count = count_wrong_cpu(side * side, quad_offsets(m));
    uint32_t differ = 0;
    uint32_t gpu_differ = 0;
    for (uint32_t i = 0; i < n; ++i) {
      double scale = 0;
      for (auto& [o, d] : m.diagonals) scale += std::fabs(d[i]) * 2.0;
      if (ieee_division()) {
        ASSERT_NEAR(gf[i], want[i], 1e-5 * scale) << "side " << side << " element " << i;
      }
      if (std::fabs(want[i] - exact[i]) > 1e-3 * scale) ++differ;
      if (std::fabs(gf[i] - exact[i]) > 1e-3 * scale) ++gpu_differ;
    }
    FracSweep sweep(ctx());
    bool gpu_wrong = sweep.run({side * side}, quad_offsets(m))[0].wrong > 0;
    EXPECT_EQ(gpu_differ > 0, gpu_wrong) << "the product is off exactly where the GPU's addresses are";
    if (side == 16) {  // a power of two: exact on any GPU
      EXPECT_EQ(count.wrong, 0u);
      for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(gf[i], gi[i]) << "exact addresses, same product, element " << i;
    } else {
      EXPECT_GT(count.wrong, 0u);
      EXPECT_GT(differ, 0u) << "wrong quads must show in the product";
    }
    std::printf("side %u: %llu wrong addresses, %u elements off\n", side, (unsigned long long)count.wrong, differ);
  }
}

TEST_F(FracIndex, OnlyTexturesAndWholeQuads) {
  Ops buf(ctx(), Layout::Buffer);
  EXPECT_THROW(buf.set_frac_index(true), std::invalid_argument);
  Ops tex(ctx(), Layout::Texture);
  tex.set_frac_index(true);
  auto m = random_band(10, 3, 1);
  GpuBanded gm(ctx(), m, Layout::Texture);
  Vec x(ctx(), 10, Layout::Texture), y(ctx(), 10, Layout::Texture);
  ctx().submit_now([&](VkCommandBuffer cmd) {
    EXPECT_THROW(tex.banded(cmd, Variant::Thesis, gm, x, nullptr, y), std::invalid_argument);
  });
}

}  // namespace
