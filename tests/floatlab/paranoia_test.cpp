// compute/floatlab/machine.h and paranoia.h: the float machine gives the CPU's binary32 results
// in every stage it runs in; Paranoia on the CPU finds IEEE-754 arithmetic excellent, on a
// chopping arithmetic (the CPU rounding towards zero) it says so; and on lavapipe every GPU
// stage says what the CPU says, line for line.
#include "compute/floatlab/paranoia.h"
#include "compute/floatlab/stages.h"
#include "tests/helpers.h"

#include <bit>
#include <cfenv>
#include <cmath>
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
  for (const char* s : {"U1 U2 F9 B9 Verified", "MULTIPLICATION: Is correctly rounded",
                        "DIVISION: Is correctly rounded", "SUBTRACTION: Is correctly rounded",
                        "SUBTRACTION(less MACs): Is correctly rounded", "SQUARE ROOT: Is correctly rounded",
                        "Sticky bit apparently used correctly.", "DIVISION: Seems to have guard digit",
                        "Underflow is gradual", "Overflow saturates at +Infinity", "MULTIPLICATION: 10 pairs commuted"})
    EXPECT_NE(find(r, s), nullptr) << s;
  for (auto& b : r.bounds) {
    EXPECT_GE(b.lo, -0.5) << b.op;
    EXPECT_LE(b.hi, 0.5) << b.op;
    EXPECT_GT(b.hi - b.lo, 0.9) << b.op << ": random operands come near both sides of the half ulp";
  }
  EXPECT_EQ(
      r.count(Verdict::Failure) + r.count(Verdict::SeriousDefect) + r.count(Verdict::Defect) + r.count(Verdict::Flaw),
      0);
  EXPECT_EQ(r.diagnosis(), "The arithmetic diagnosed appears to be Excellent!");
  auto s = r.summary();
  EXPECT_EQ(s.front(), "SUMMARY");
  EXPECT_EQ(s.back(), r.diagnosis());
}

// The CPU rounding towards zero: Paranoia must see chopping, and the sticky bit unused.
TEST(Paranoia, ChoppedArithmeticIsFoundChopped) {
  Evaluator chop = [](const std::vector<Program>& ps) {
    std::fesetround(FE_TOWARDZERO);
    auto r = on_cpu(ps);
    std::fesetround(FE_TONEAREST);
    return r;
  };
  auto r = paranoia(chop, "cpu, chopping", 4096);
  EXPECT_EQ(r.radix, 2);
  EXPECT_EQ(r.precision, 24);
  for (const char* s : {"MULTIPLICATION: Is chopped", "DIVISION: Is chopped", "SQUARE ROOT: Is chopped",
                        "Sticky bit used incorrectly or not at all."})
    EXPECT_NE(find(r, s), nullptr) << s;
  for (auto& b : r.bounds) {
    EXPECT_GT(b.lo, -1.0) << b.op;
    EXPECT_LT(b.lo, -0.9) << b.op << ": chopping errs up to an ulp below";
    EXPECT_LE(b.hi, 0.0) << b.op << ": and never above";
  }
  EXPECT_NE(r.diagnosis(), "The arithmetic diagnosed appears to be Excellent!");
}

// lavapipe rounds binary32 to nearest in every stage, so Paranoia says there what it says on the
// CPU; but a stage may flush denormals (lavapipe's vertex and fragment stages do): then, and
// only then, its underflow lines differ.
TEST_F(FloatMachineTest, ParanoiaSaysWhatTheCpuSaysBarUnderflowWhereAStageFlushes) {
  FloatMachine m(ctx());
  auto cpu = paranoia(on_cpu, "cpu", 2048);
  for (Stage s : {Stage::Compute, Stage::Vertex, Stage::Fragment}) {
    if (!m.has(s)) continue;
    Program half;
    half.mul(half.in(std::numeric_limits<float>::min()), half.in(0.5f));
    const bool flushes = m.run(s, half)[2] == 0;
    auto r = paranoia([&](const std::vector<Program>& ps) { return m.run(s, ps); }, stage_name(s), 2048);
    EXPECT_EQ(r.gradual_underflow, !flushes) << stage_name(s);
    std::vector<std::string> a, b;  // the lines outside UNDERFLOW
    for (auto& l : r.lines)
      if (l.check != "UNDERFLOW") a.push_back(l.message);
    for (auto& l : cpu.lines)
      if (l.check != "UNDERFLOW") b.push_back(l.message);
    EXPECT_EQ(a, b) << stage_name(s);
    if (!flushes) EXPECT_EQ(r.lines.size(), cpu.lines.size()) << stage_name(s);
    if (flushes) EXPECT_NE(find(r, "SERIOUS DEFECT: X = "), nullptr) << stage_name(s) << ": X != Z yet X - Z == 0";
    std::printf("%s stage: %s\n", stage_name(s), flushes ? "flushes denormals" : "keeps denormals");
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
