// compute/floatlab/controls.h: the float controls the device offers are asked for in SPIR-V and
// tested. On lavapipe: round to nearest kept; what the kernel without a mode does to denormals
// is what the float machine's compute stage does; `precise` keeps a * b - a * b at zero and the
// float-float product at its 44 bits and more, which it loses without `precise`.
#include "compute/floatlab/controls.h"
#include "compute/floatlab/machine.h"
#include "compute/floatlab/table31.h"
#include "compute/floatlab/test9.h"
#include "tests/helpers.h"

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
    if (!offered[i]) {
      EXPECT_FALSE(ps[i].kept) << ps[i].mode;
    }
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

// Table 3.1's measure on results with known errors: exact ones, one ulp above, half an ulp
// below, among the denormals too; then lavapipe's + - * / sqrt 1/x correctly rounded.
TEST(Table31, UlpErrorsOfKnownResults) {
  std::vector<float> a = {3, 5, 1.5f, 0x1p-140f, 7}, b = {7, 9, 1.5f, 3, 1};
  std::vector<float> exact = {21, 45, 2.25f, 0x3p-140f, 7}, up(exact), halfway;
  for (auto& x : up) x = std::nextafter(x, INFINITY);
  auto e = ulp_errors(Op::Mul, a, b, exact);
  EXPECT_EQ(e.lo, 0.0);
  EXPECT_EQ(e.hi, 0.0);
  EXPECT_EQ(e.correctly_rounded, 1.0);
  auto u = ulp_errors(Op::Mul, a, b, up);
  EXPECT_EQ(u.lo, 1.0);  // every product exact: one ulp above, denormal 3·2^-140 included (its ulp 2^-149)
  EXPECT_EQ(u.hi, 1.0);
  EXPECT_EQ(u.correctly_rounded, 0.0);
  // 1/3 rounds up to 0x3eaaaaab, 1/3 ulp above; the floats around it lie 2/3 below and 4/3 above
  auto nearest = ulp_errors(Op::Rcp, {3.0f}, {0.0f}, {1.0f / 3});
  EXPECT_NEAR(nearest.lo, 1.0 / 3, 1e-6);
  EXPECT_EQ(nearest.correctly_rounded, 1.0);
  auto below = ulp_errors(Op::Rcp, {3.0f}, {0.0f}, {std::nextafter(1.0f / 3, 0.0f)});
  EXPECT_NEAR(below.lo, -2.0 / 3, 1e-6);
  auto above = ulp_errors(Op::Rcp, {3.0f}, {0.0f}, {std::nextafter(1.0f / 3, 1.0f)});
  EXPECT_NEAR(above.hi, 4.0 / 3, 1e-6);
  auto over = ulp_errors(Op::Mul, {1e30f}, {1e30f}, {INFINITY});
  EXPECT_EQ(over.count, 0u) << "no finite float result: skipped";
  EXPECT_EQ(over.skipped, 1u);
}

TEST_F(FloatControlsTest, Table31OnLavapipeRoundsTheBasicOperationsCorrectly) {
  Probes probes(ctx());
  auto rows = error_ranges(probes, 4096);
  ASSERT_EQ(rows.size(), 25u) << "12 operations x 2 domains, and a / b outside Vulkan's domain";
  // a / b over Vulkan's domain for it, said so, and outside it in a row of its own
  EXPECT_EQ(rows[6].op, "a / b");
  EXPECT_NE(rows[6].domain.find("|b| in [2^-126, 2^126]"), std::string::npos) << rows[6].domain;
  EXPECT_EQ(rows[6].nv35, "[-1.199, 1.375]");
  EXPECT_EQ(rows[8].op, "a / b");
  EXPECT_NE(rows[8].domain.find("OUTSIDE Vulkan's domain"), std::string::npos) << rows[8].domain;
  EXPECT_EQ(rows[8].nv35, "-");
  EXPECT_EQ(rows[8].vulkan, "nothing: outside its domain");
  for (auto& r : rows) {
    EXPECT_GT(r.count + r.denormal_count, 3000u) << r.op << ", " << r.domain;
    if (r.op == "a + b" || r.op == "a - b" || r.op == "a * b" || r.op == "a / b" || r.op == "sqrt" || r.op == "1 / x") {
      EXPECT_GE(r.lo, -0.5) << r.op << ", " << r.domain;
      EXPECT_LE(r.hi, 0.5) << r.op << ", " << r.domain;
      EXPECT_EQ(r.correctly_rounded, 1.0) << r.op << ", " << r.domain;
      // lavapipe's compute stage keeps denormals: those cases are correctly rounded too
      if (r.denormal_count) {
        EXPECT_EQ(r.denormal_correct, 1.0) << r.op << ", " << r.domain;
      }
    }
    if (r.op == "inversesqrt") {
      EXPECT_LE(std::max(-r.lo, r.hi), 2.0) << "Vulkan's 2 ulp";
    }
  }
  EXPECT_EQ(rows[4].nv35, "[-0.782, 0.625]") << "the report's table 3.1 beside";
}
