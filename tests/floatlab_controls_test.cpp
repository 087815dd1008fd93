// compute/floatlab/controls.h: the float controls the device offers are asked for in SPIR-V and
// tested. On lavapipe: round to nearest kept; what the kernel without a mode does to denormals
// is what the float machine's compute stage does; `precise` keeps a * b - a * b at zero and the
// float-float product at its 44 bits and more, which it loses without `precise`.
#include "helpers.h"
#include "floatlab/controls.h"
#include "floatlab/machine.h"
#include "floatlab/test9.h"

#include <limits>

using namespace floatlab;

namespace {
class FloatControlsTest : public GpuTest {};
}  // namespace

TEST_F(FloatControlsTest, EveryOfferedModeIsAskedForAndJudged) {
  auto fc = float_controls(ctx());
  auto ps = test_float_controls(ctx(), 2048);
  ASSERT_EQ(ps.size(), 5u);
  const bool offered[5] = {fc.rte32, fc.rtz32, fc.denorm_preserve32, fc.denorm_flush32,
                           fc.signed_zero_inf_nan_preserve32};
  for (size_t i = 0; i < ps.size(); ++i) {
    EXPECT_EQ(ps[i].offered, offered[i]) << ps[i].mode;
    EXPECT_EQ(ps[i].found.find("not offered") == 0, !offered[i]) << ps[i].mode << ": " << ps[i].found;
    if (!offered[i]) EXPECT_FALSE(ps[i].kept) << ps[i].mode;
  }
  if (fc.rte32) {
    EXPECT_TRUE(ps[0].kept) << ps[0].found;
    EXPECT_EQ(ps[0].found.find("2048 of 2048 sums and products rounded to nearest"), 0u) << ps[0].found;
  }
  // without a mode, denormals go as the float machine's compute stage takes them
  FloatMachine m(ctx());
  Program half;
  half.mul(half.in(1.5f * std::numeric_limits<float>::min()), half.in(0.5f));
  const bool keeps = m.run(Stage::Compute, half)[2] != 0;
  const std::string& d = ps[2].found;
  auto without = d.substr(d.find("without the mode"));
  EXPECT_NE(without.find(keeps ? "a denormal (kept)" : "0 (flushed)"), std::string::npos) << d;
}

TEST_F(FloatControlsTest, PreciseKeepsContractionAndTheFloatFloatProduct) {
  auto c = test_contraction(ctx(), 4096);
  EXPECT_EQ(c.count, 4096u);
  EXPECT_EQ(c.fused_with_precise, 0u) << "a * b - (a * b rounded) is 0 when the product is rounded";
  EXPECT_TRUE(c.kept());
  EXPECT_GE(c.mul22_bits_precise, 44.0) << "Mul22's bound (seed 002, table 4.1)";
  EXPECT_LE(c.fused_without_precise, c.count);
  // lavapipe's compiler rewrites the error-free transformations once they may be (as Brook's
  // DirectX back end did in 2006, seed 002 §4.3): the loose build loses the low part
  EXPECT_GT(c.mul22_differing, 0u);
  EXPECT_LT(c.mul22_bits_loose, c.mul22_bits_precise);
}

// TEST 9 at any size in chunks: every pair counted once across dispatches, none asymmetric on
// lavapipe (IEEE multiplication is sign-magnitude), and a run is the same run again.
TEST_F(FloatControlsTest, Test9CountsEveryPairAcrossChunks) {
  SignSymmetry a(ctx(), 3), b(ctx(), 3);
  a.run((3ull << 20) + 5);
  b.run(1u << 20), b.run((2ull << 20) + 5);
  EXPECT_EQ(a.done(), (3ull << 20) + 5);
  EXPECT_EQ(b.done(), a.done());
  EXPECT_EQ(a.violations(), 0u);
  EXPECT_EQ(b.violations(), 0u);
  EXPECT_TRUE(a.examples().empty());
}
