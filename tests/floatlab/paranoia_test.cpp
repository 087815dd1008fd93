// compute/floatlab/machine.h and paranoia.h: the float machine gives the CPU's binary32 results
// in every stage it runs in; Paranoia on the CPU finds IEEE-754 arithmetic excellent, on a
// chopping arithmetic (the CPU rounding towards zero) it says so, on a CPU flushing denormals it
// tallies what netlib's paranoia.c tallies there (one FLAW); and on lavapipe every GPU stage says
// what its CPU twin says, line for line (the twin flushing where the stage flushes, its pow the
// stage's).
#include "compute/floatlab/paranoia.h"
#include "compute/floatlab/stages.h"
#include "tests/helpers.h"

#include <xmmintrin.h>

#include <bit>
#include <cfenv>
#include <cmath>
#include <map>
#include <random>

using namespace floatlab;

namespace {
class FloatMachineTest : public GpuTest {};

std::vector<Registers> on_cpu(const std::vector<Program>& ps) {
  std::vector<Registers> out;
  for (auto& p : ps) out.push_back(run_cpu(p));
  return out;
}

const ParanoiaLine* find(const ParanoiaReport& r, const std::string& text) {
  for (auto& l : r.lines)
    if (l.message.find(text) != std::string::npos) return &l;
  return nullptr;
}

// The CPU with denormals flushed, results (FTZ) and operands (DAZ) alike, as x86's MXCSR does
// it; `pow` as run_cpu takes it.
std::vector<Registers> on_cpu_flushing(const std::vector<Program>& ps, const PowFn& pow = {}) {
  const unsigned old = _mm_getcsr();
  _mm_setcsr(old | 0x8040u);  // flush-to-zero | denormals-are-zero
  std::vector<Registers> out;
  for (auto& p : ps) out.push_back(run_cpu(p, pow));
  _mm_setcsr(old);
  return out;
}

int counted_lines(const ParanoiaReport& r) {
  return r.count(Verdict::Failure) + r.count(Verdict::SeriousDefect) + r.count(Verdict::Defect) +
         r.count(Verdict::Flaw);
}
}  // namespace

TEST_F(FloatMachineTest, EveryStageComputesWhatTheCpuDoes) {
  FloatMachine m(ctx());
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  std::vector<Program> ps(600);
  const VmOp ops[] = {VmOp::Add, VmOp::Sub, VmOp::Mul, VmOp::Div, VmOp::Sqrt, VmOp::Neg, VmOp::Mul};
  for (auto& p : ps) {
    uint8_t a = p.in(u(rng)), b = p.in(u(rng)), c = p.in(std::ldexp(u(rng), -20));
    for (int k = 0; k < 12; ++k) {
      VmOp o = ops[rng() % 7];
      uint8_t x = p.op(o, a, b, c);
      a = b, b = x;
    }
  }
  auto cpu = on_cpu(ps);
  for (Stage s : {Stage::Compute, Stage::Vertex, Stage::Fragment}) {
    if (!m.has(s)) continue;
    auto got = m.run(s, ps);
    ASSERT_EQ(got.size(), ps.size());
    for (size_t i = 0; i < ps.size(); ++i)
      for (size_t k = 0; k < Program::kRegisters; ++k) {
        if (std::isnan(got[i][k]) && std::isnan(cpu[i][k]))
          continue;  // NaN payloads and signs differ (x86's is negative)
        ASSERT_EQ(std::bit_cast<uint32_t>(got[i][k]), std::bit_cast<uint32_t>(cpu[i][k]))
            << stage_name(s) << " program " << i << " register " << k << ", op "
            << (k >= 3 ? ps[i].code()[k - 3] & 63 : 0);
      }
  }
  EXPECT_TRUE(m.has(Stage::Compute));
  // fma: Vulkan lets it round twice (its precision is OpFMul's then OpFAdd's): fused or not, nothing else
  std::vector<Program> fs(200);
  std::vector<std::array<float, 3>> abc;
  for (auto& p : fs) {
    abc.push_back({u(rng), u(rng), u(rng)});
    p.op(VmOp::Fma, p.in(abc.back()[0]), p.in(abc.back()[1]), p.in(abc.back()[2]));
  }
  for (Stage s : {Stage::Compute, Stage::Vertex, Stage::Fragment}) {
    if (!m.has(s)) continue;
    auto got = m.run(s, fs);
    for (size_t i = 0; i < fs.size(); ++i) {
      auto [a, b, c] = abc[i];
      float fused = std::fma(a, b, c), product = a * b, twice = product + c;
      EXPECT_TRUE(got[i][3] == fused || got[i][3] == twice) << stage_name(s) << " fma " << i;
    }
  }
  EXPECT_THROW(Program().op(VmOp::Add, 0, 0), std::logic_error) << "operands must be set";
  Program full;
  for (int i = 0; i < 16; ++i) full.in(1.0f);
  EXPECT_THROW(full.add(0, 1), std::logic_error) << "16 registers at most";
}

TEST(Paranoia, IeeeArithmeticOnTheCpuIsExcellent) {
  auto r = paranoia(on_cpu, "cpu", 4096);
  EXPECT_EQ(r.radix, 2);
  EXPECT_EQ(r.precision, 24);
  EXPECT_EQ(r.u1, std::ldexp(1.0f, -24));
  EXPECT_TRUE(r.gradual_underflow);
  EXPECT_EQ(r.smallest, std::numeric_limits<float>::denorm_min());
  EXPECT_EQ(r.overflow, std::numeric_limits<float>::max());
  EXPECT_EQ(r.saturation, std::numeric_limits<float>::infinity());
  EXPECT_EQ(r.underflow_threshold, std::nextafter(std::numeric_limits<float>::min(), 1.0f))
      << "paranoia.c's UfThold with gradual underflow: 1.17549449095213394e-38";
  for (const char* s :
       {"U1 U2 F9 B9 Verified", "MULTIPLICATION: Is correctly rounded", "DIVISION: Is correctly rounded",
        "SUBTRACTION: Is correctly rounded", "SUBTRACTION(less MACs): Is correctly rounded",
        "SQUARE ROOT: Is correctly rounded", "Sticky bit apparently used correctly.",
        "DIVISION: Seems to have guard digit", "Underflow is gradual", "Overflow saturates at V0 = inf",
        "MULTIPLICATION: 10 pairs commuted",
        // the milestones of paranoia.c, each as that program prints it for IEEE binary32 on x86
        "-1, 0, 1/2, 1, 2, 3, 4, 5, 9, 27, 32 & 240 are O.K.", "confirms closest relative separation U1 .",
        "Radix confirmed.", "The number of significant digits of the Radix is 24.000000 .",
        "No extra-precise subexpressions found", "... no discrepancies found.",
        "Smallest strictly positive number found is E0 = 1.4013e-45 .", "exp(2) = 7.38905572891235352e+00 as X -> 1.",
        "Accuracy seems adequate.", "This computed value is O.K.",
        "Overflow threshold is V  = 3.40282346638528860e+38 .", "X / X = 1 for X = F9"})
    EXPECT_NE(find(r, s), nullptr) << s;
  for (auto& b : r.bounds) {
    EXPECT_GE(b.lo, -0.5) << b.op;
    EXPECT_LE(b.hi, 0.5) << b.op;
    EXPECT_GT(b.hi - b.lo, 0.9) << b.op << ": random operands come near both sides of the half ulp";
  }
  EXPECT_EQ(counted_lines(r), 0);
  EXPECT_TRUE(r.disagreements().empty());
  EXPECT_EQ(r.diagnosis(), "The arithmetic diagnosed appears to be Excellent!");
  auto s = r.summary();
  EXPECT_EQ(s.front(), "SUMMARY");
  EXPECT_EQ(s.back(), r.diagnosis());
}

// The CPU rounding towards zero: Paranoia must see chopping, and the sticky bit unused. Its
// milestone 10 finds U1 again as 2^-23 and the radix as 1, a "MYSTERY", as netlib's paranoia.c
// does when run so on x86 (which then loops for ever at milestone 150: two passes here).
TEST(Paranoia, ChoppedArithmeticIsFoundChopped) {
  Evaluator chop = [](const std::vector<Program>& ps) {
    std::fesetround(FE_TOWARDZERO);
    auto r = on_cpu(ps);
    std::fesetround(FE_TONEAREST);
    return r;
  };
  auto r = paranoia(chop, "cpu, chopping", 4096);
  EXPECT_EQ(r.radix, 1);
  EXPECT_EQ(r.precision, 24);
  for (const char* s : {"MULTIPLICATION: Is chopped", "DIVISION: Is chopped", "SQUARE ROOT: Is chopped",
                        "Sticky bit used incorrectly or not at all.", "Radix = 2.000000 .",
                        "gets better closest relative separation U1 = 1.1920929e-07 .",
                        "MYSTERY: recalculated Radix = 1.0000000e+00 ."})
    EXPECT_NE(find(r, s), nullptr) << s;
  for (auto& b : r.bounds) {
    EXPECT_GT(b.lo, -1.0) << b.op;
    EXPECT_LT(b.lo, -0.9) << b.op << ": chopping errs up to an ulp below";
    EXPECT_LE(b.hi, 0.0) << b.op << ": and never above";
  }
  EXPECT_NE(r.diagnosis(), "The arithmetic diagnosed appears to be Excellent!");
}

// The tally rule, on a CPU that flushes denormals (x86's FTZ and DAZ): netlib's paranoia.c,
// single precision, run so on x86, counts one FLAW where X != Z yet X - Z = 0 (its words: "this is
// a SERIOUS DEFECT") and nothing for abrupt underflow itself: "Satisfactory though flawed".
TEST(Paranoia, FlushedDenormalsCountOneFlawAsParanoiaCDoes) {
  auto r = paranoia([](const std::vector<Program>& ps) { return on_cpu_flushing(ps); }, "cpu, flushing", 2048);
  EXPECT_FALSE(r.gradual_underflow);
  EXPECT_EQ(r.smallest, std::numeric_limits<float>::min());
  EXPECT_EQ(r.count(Verdict::Failure), 0);
  EXPECT_EQ(r.count(Verdict::SeriousDefect), 0);
  EXPECT_EQ(r.count(Verdict::Defect), 0) << "abrupt underflow itself counts nothing";
  EXPECT_EQ(r.count(Verdict::Flaw), 1);
  auto* l = find(r, "yet X - Z yields 0.00000000000000000e+00");
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->verdict, Verdict::Flaw);
  EXPECT_EQ(l->says, Verdict::SeriousDefect) << "its words and its count disagree, and the line says so";
  EXPECT_NE(l->message.find("X = 1.61630473238064532e-38"), std::string::npos) << l->message;
  ASSERT_EQ(r.disagreements().size(), 1u);
  EXPECT_EQ(r.disagreements()[0], l);
  EXPECT_EQ(r.diagnosis(), "The arithmetic diagnosed seems Satisfactory though flawed.");
  // the rest is the IEEE run's, line for line
  auto ieee = paranoia(on_cpu, "cpu", 2048);
  std::vector<std::string> a, b;
  for (auto& x : r.lines)
    if (x.check != "UNDERFLOW") a.push_back(x.message);
  for (auto& x : ieee.lines)
    if (x.check != "UNDERFLOW") b.push_back(x.message);
  EXPECT_EQ(a, b);
}

// The pow built-in: GLSL's pow on the device, within what Vulkan lets it be (exp2(y log2 x):
// log2's absolute 2^-21 near 1, 3 ulp elsewhere, times |y|, then exp2's 3 + 2|t| ulp), against
// (float)pow((double)x, (double)y), on random x in [1/4, 4] and y in [-8, 8]; every result checked.
TEST_F(FloatMachineTest, ThePowOperationIsTheDevicesPowWithinVulkansBound) {
  FloatMachine m(ctx());
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> ux(0.25f, 4.0f), uy(-8.0f, 8.0f);
  std::vector<Program> ps(400);
  std::vector<std::pair<float, float>> xy;
  for (auto& p : ps) {
    xy.push_back({ux(rng), uy(rng)});
    p.pow(p.in(xy.back().first), p.in(xy.back().second));
  }
  for (Stage s : {Stage::Compute, Stage::Vertex, Stage::Fragment}) {
    if (!m.has(s)) continue;
    auto got = m.run(s, ps);
    for (size_t i = 0; i < ps.size(); ++i) {
      auto [x, y] = xy[i];
      const double want = std::pow(double(x), double(y)), t = double(y) * std::log2(double(x));
      const double log_err = std::fabs(double(y)) * std::max(0x1p-21, 3 * 0x1p-23 * std::fabs(std::log2(double(x))));
      const double bound = want * (std::exp2(log_err) - 1 + (3 + 2 * std::fabs(t)) * 0x1p-23) * 2;  // x2: margin
      EXPECT_NEAR(got[i][2], want, bound) << stage_name(s) << " pow(" << x << ", " << y << ")";
      EXPECT_EQ(run_cpu(ps[i])[2], float(want)) << "the CPU twin: (float)pow((double)x, (double)y)";
    }
  }
}

// lavapipe rounds binary32 to nearest in every stage, so Paranoia in each stage says what its CPU
// twin says, every line of every milestone: the twin flushes denormals where the stage does
// (lavapipe's vertex and fragment stages), and its pow is the stage's (Vulkan lets pow be coarse:
// the milestones that judge it, 90-150, must read the same answers the same way).
TEST_F(FloatMachineTest, ParanoiaInEachStageSaysWhatItsCpuTwinSays) {
  FloatMachine m(ctx());
  for (Stage s : {Stage::Compute, Stage::Vertex, Stage::Fragment}) {
    if (!m.has(s)) continue;
    Program half;
    half.mul(half.in(std::numeric_limits<float>::min()), half.in(0.5f));
    const bool flushes = m.run(s, half)[2] == 0;
    std::map<std::pair<uint32_t, uint32_t>, float> pows;  // the stage's pow, asked once an operand pair
    PowFn stage_pow = [&](float x, float y) {
      auto key = std::pair{std::bit_cast<uint32_t>(x), std::bit_cast<uint32_t>(y)};
      if (!pows.count(key)) {
        Program p;
        p.pow(p.in(x), p.in(y));
        pows[key] = m.run(s, p)[2];
      }
      return pows[key];
    };
    auto twin = paranoia(
        [&](const std::vector<Program>& ps) {
          if (flushes) return on_cpu_flushing(ps, stage_pow);
          std::vector<Registers> out;
          for (auto& p : ps) out.push_back(run_cpu(p, stage_pow));
          return out;
        },
        stage_name(s), 2048);
    auto r = paranoia([&](const std::vector<Program>& ps) { return m.run(s, ps); }, stage_name(s), 2048);
    EXPECT_EQ(r.gradual_underflow, !flushes) << stage_name(s);
    ASSERT_EQ(r.lines.size(), twin.lines.size()) << stage_name(s);
    for (size_t i = 0; i < r.lines.size(); ++i) {
      EXPECT_EQ(r.lines[i].message, twin.lines[i].message) << stage_name(s) << ", " << r.lines[i].check;
      EXPECT_EQ(r.lines[i].verdict, twin.lines[i].verdict) << stage_name(s) << ": " << r.lines[i].message;
    }
    EXPECT_EQ(r.diagnosis(), twin.diagnosis()) << stage_name(s);
    if (flushes) {
      EXPECT_EQ(r.count(Verdict::Flaw, true), 1) << stage_name(s) << ": X != Z yet X - Z == 0";
    }
    std::printf("%s stage: %s; %s\n", stage_name(s), flushes ? "flushes denormals" : "keeps denormals",
                r.diagnosis().c_str());
  }
}

// The seed's probes in each stage: IEEE's answers in the compute stage on lavapipe; the others
// the same but for denormals, which a stage keeps or flushes as the machine finds directly.
TEST_F(FloatMachineTest, TheProbesInEachStage) {
  FloatMachine m(ctx());
  std::vector<Stage> stages;
  for (Stage s : {Stage::Compute, Stage::Vertex, Stage::Fragment})
    if (m.has(s)) stages.push_back(s);
  auto rows = stage_probes(m, stages, 1024);
  ASSERT_EQ(rows.size(), 7u);
  for (auto& r : rows) {
    ASSERT_EQ(r.found.size(), stages.size());
    EXPECT_EQ(r.found[0], r.ieee) << r.test << ": the compute stage is IEEE on lavapipe";
    for (size_t k = 1; k < stages.size(); ++k) {
      if (r.test != "denormals") {
        EXPECT_EQ(r.found[k], r.ieee) << r.test << " in the " << stage_name(stages[k]) << " stage";
        continue;
      }
      Program half;
      half.mul(half.in(std::numeric_limits<float>::min()), half.in(0.5f));
      EXPECT_EQ(r.found[k], m.run(stages[k], half)[2] == 0 ? "flushed" : "kept") << stage_name(stages[k]);
    }
  }
}
