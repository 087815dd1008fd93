// Da Graça 2006 under rounding towards zero (compute/floatlab/chopped.h): this CPU's rounding
// towards zero is IEEE-754's (against MPFR), the report's theorems hold under it (Priest's Add12
// and Dekker's Mul12 exact, Add22 within its 47 bits) where TwoSum is not exact; the GPU, where it
// offers RoundingModeRTZ, gives the CPU's results bit for bit, and where it does not, says so.
#include "compute/floatlab/chopped.h"
#include "compute/gpu/pipeline.h"
#include "tests/helpers.h"

#include <mpfr.h>

#include <cfenv>
#include <cmath>
#include <random>

class TowardZero : public GpuTest {};

namespace {

// a op b in binary32 rounded towards zero by MPFR (the exponents here stay far from subnormals).
float mpfr_toward_zero(floatlab::Op op, float a, float b) {
  mpfr_t x, y, r;
  mpfr_inits2(24, x, y, r, (mpfr_ptr)0);
  mpfr_set_flt(x, a, MPFR_RNDN);
  mpfr_set_flt(y, b, MPFR_RNDN);
  switch (op) {
    case floatlab::Op::Add:
      mpfr_add(r, x, y, MPFR_RNDZ);
      break;
    case floatlab::Op::Sub:
      mpfr_sub(r, x, y, MPFR_RNDZ);
      break;
    case floatlab::Op::Mul:
      mpfr_mul(r, x, y, MPFR_RNDZ);
      break;
    default:
      mpfr_div(r, x, y, MPFR_RNDZ);
      break;
  }
  float f = mpfr_get_flt(r, MPFR_RNDZ);
  mpfr_clears(x, y, r, (mpfr_ptr)0);
  return f;
}

}  // namespace

TEST(ChoppedCpu, RoundingTowardsZeroIsIeeesAndTheModeIsPutBack) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> m(1.0f, 2.0f);
  uint64_t checked = 0, inexact = 0;
  for (auto op : {floatlab::Op::Add, floatlab::Op::Sub, floatlab::Op::Mul, floatlab::Op::Div}) {
    std::vector<float> a(4096), b(4096), got(4096);
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = (rng() & 1 ? -1.0f : 1.0f) * m(rng) * std::ldexp(1.0f, int(rng() % 41) - 20);
      b[i] = (rng() & 1 ? -1.0f : 1.0f) * m(rng) * std::ldexp(1.0f, int(rng() % 41) - 20);
    }
    floatlab::with_rounding_toward_zero([&] {
      for (size_t i = 0; i < a.size(); ++i) got[i] = floatlab::cpu_probe(op, a[i], b[i], 0.0f);
    });
    for (size_t i = 0; i < a.size(); ++i) {
      float want = mpfr_toward_zero(op, a[i], b[i]);
      ASSERT_EQ(floatlab::bits(got[i]), floatlab::bits(want)) << "op " << int(op) << ": " << a[i] << ", " << b[i];
      volatile float x = a[i], y = b[i];  // to nearest, now the mode is back
      float nearest = op == floatlab::Op::Add   ? x + y
                      : op == floatlab::Op::Sub ? x - y
                      : op == floatlab::Op::Mul ? x * y
                                                : x / y;
      inexact += nearest != got[i];
      ++checked;
    }
  }
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
  EXPECT_GT(inexact, checked / 8);  // the two roundings differ on many results: the mode was in force
  // put back after an exception too
  EXPECT_THROW(floatlab::with_rounding_toward_zero([] { throw std::runtime_error("x"); }), std::runtime_error);
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
}

TEST_F(TowardZero, TheReportsTheoremsHoldUnderChoppingAndTheGpuGivesTheCpusBits) {
  auto c = floatlab::chopped_arithmetic(ctx(), 1u << 12, 3);
  ASSERT_EQ(c.probes.size(), 4u);
  ASSERT_EQ(c.ranges.size(), 4u);
  ASSERT_EQ(c.operators.size(), 6u);
  // IEEE's rounding towards zero truncates the exact result: 1.5 - 2^-i is never 1.5 again.
  EXPECT_EQ(c.probes[0].cpu, "24");
  EXPECT_EQ(c.probes[1].cpu, "none to 64");
  EXPECT_EQ(c.probes[2].cpu, "none to 64");
  EXPECT_EQ(c.probes[3].cpu, "0x3fbfffff");
  EXPECT_EQ(c.probes[1].gtx7800, "26");
  for (auto& r : c.ranges) {
    SCOPED_TRACE(r.op);
    EXPECT_EQ(r.cpu.count, c.count);
    EXPECT_GE(r.cpu.lo, -1.0);
    EXPECT_LT(r.cpu.lo, -0.9);  // the worst case nears a whole ulp
    if (r.op == "a - b") {
      EXPECT_LE(r.cpu.hi, 1.0);
      EXPECT_GT(r.cpu.hi, 0.9);  // negative differences truncate upwards
    } else {
      EXPECT_LE(r.cpu.hi, 0.0);  // positive results: towards zero is downwards
    }
    EXPECT_GE(r.nearest.lo, -0.5);
    EXPECT_LE(r.nearest.hi, 0.5);
  }
  auto op = [&](const char* name) -> const floatlab::ChoppedOperator& {
    for (auto& o : c.operators)
      if (o.cpu.op == name) return o;
    throw std::runtime_error(name);
  };
  EXPECT_TRUE(op("add12_priest").cpu.exact);  // Priest's Add12 was written for such arithmetic
  EXPECT_TRUE(op("mul12").cpu.exact);
  EXPECT_FALSE(op("add12").cpu.exact);           // TwoSum needs rounding to nearest
  EXPECT_GE(op("add22_priest").cpu.bits, 47.0);  // theorem 4's bound, and the report's 47 measured
  EXPECT_LT(op("add22_priest").cpu.bits, op("add22_priest").nearest.bits);
  EXPECT_GE(op("mul22").cpu.bits, 44.0);  // theorem 5's
  if (c.offered) {
    EXPECT_TRUE(c.why_not.empty());
    for (auto& p : c.probes) EXPECT_EQ(p.gpu, p.cpu) << p.test << " " << p.question;
    for (auto& r : c.ranges) {
      if (r.op != "a / b") {
        EXPECT_EQ(r.differing, 0u) << r.op;  // a / b need not be correctly rounded
      }
    }
    for (auto& o : c.operators) EXPECT_EQ(o.differing, 0u) << o.cpu.op;
  } else {
    EXPECT_NE(c.why_not.find(ctx().info.name), std::string::npos);
    for (auto& p : c.probes) EXPECT_EQ(p.gpu, "-");
    for (auto& r : c.ranges) EXPECT_EQ(r.gpu.count, 0u);
    for (auto& o : c.operators) EXPECT_EQ(o.gpu.count, 0u);
    EXPECT_THROW(floatlab::Probes(ctx(), floatlab::ProbeRounding::TowardZero), std::runtime_error);
    EXPECT_THROW(floatlab::FloatFloat(ctx(), floatlab::FfBuild::TowardZero), std::runtime_error);
  }
}

// The kernels built for rounding towards zero ask for it (OpExecutionMode RoundingModeRTZ 32, with
// its capability), where a device without it never runs them; the default builds do not.
TEST_F(TowardZero, TheKernelsBuiltForItDeclareTheExecutionMode) {
  auto declares_rtz = [&](const std::string& name) {
    auto words = gpu::load_spirv(ctx(), name);
    bool mode = false, capability = false;
    for (size_t i = 5; i < words.size();) {
      uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
      if (count == 0) break;
      if (opcode == 16 && count >= 4 && words[i + 2] == 4463 && words[i + 3] == 32) mode = true;  // OpExecutionMode
      if (opcode == 17 && count == 2 && words[i + 1] == 4468) capability = true;                  // OpCapability
      i += count;
    }
    return mode && capability;
  };
  EXPECT_TRUE(declares_rtz("floatlab/probe.rtz.comp"));
  EXPECT_TRUE(declares_rtz("floatlab/floatfloat.rtz.comp"));
  EXPECT_FALSE(declares_rtz("floatlab/probe.comp"));
  EXPECT_FALSE(declares_rtz("floatlab/floatfloat.comp"));
}
