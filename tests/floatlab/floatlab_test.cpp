// compute/floatlab: on lavapipe (binary32 on the CPU's vector units) every probe must find
// what IEEE-754 round-to-nearest predicts for +, -, x; fma may be fused or not (Vulkan
// allows both) but never a mix; the SPIR-V keeps NoContraction where the source asks.
#include "app/labs/floatlab/charts.h"
#include "compute/floatlab/floatfloat.h"
#include "compute/floatlab/probes.h"
#include "compute/floatlab/table31.h"
#include "tests/helpers.h"

#include <mpfr.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <fstream>
#include <iterator>
#include <map>

using namespace floatlab;
using FloatProbes = GpuTest;

TEST_F(FloatProbes, LavapipeRoundsAsIeeeBinary32) {
  // Other devices may flush denormals or quiet NaNs (an H100 does both): what they do is
  // the report's finding, not a failure.
  if (ctx().info.name.find("llvmpipe") == std::string::npos) GTEST_SKIP() << "not lavapipe: " << ctx().info.name;
  Probes probes(ctx());
  auto r = probes.report(1u << 16, 3);
  EXPECT_FALSE(r.test2_extended);
  EXPECT_EQ(r.test3_first_equal, 24u);
  EXPECT_EQ(r.test5_first_equal, 24u);
  EXPECT_EQ(r.test6_first_zero, 24u);
  EXPECT_EQ(r.test7_mismatch, 0u);
  EXPECT_EQ(r.test8_mismatch, 0u);
  EXPECT_EQ(r.test8_count, (1u << 23) - 1);
  EXPECT_EQ(r.test9_violations, 0u);
  for (auto& c : r.test1_changed)  // memory never changes a value; only arithmetic may quiet a NaN
    EXPECT_TRUE(c.rfind("x*1: sNaN", 0) == 0 || c.rfind("x+0: sNaN", 0) == 0) << c;
  size_t fp64_rows = 0, fp16_rows = 0;
  for (auto& row : r.rows) {
    fp64_rows += row.test.rfind("fp64", 0) == 0;
    fp16_rows += row.test.rfind("fp16", 0) == 0;
    if (row.test.find("TEST 4") != std::string::npos && row.question.rfind("fma", 0) == 0) {
      EXPECT_TRUE(row.found == "fused" || row.found == "product rounded") << row.found;
      continue;
    }
    if (row.question.find("signalling NaN") != std::string::npos) continue;  // payload rules are the driver's
    EXPECT_TRUE(row.as_ieee) << row.test << " " << row.question << ": found " << row.found << ", IEEE " << row.ieee;
  }
  EXPECT_EQ(r.test5.size(), 64u);
  EXPECT_EQ(fp64_rows, ctx().info.fp64 ? 6u : 0u);  // lavapipe has fp64: TEST 3 there finds 53 bits
  EXPECT_EQ(fp16_rows, ctx().fp16 ? 6u : 0u);       // and fp16: 11 bits
}

// Correctly rounded +, -, x on random operands of all magnitudes, every result checked.
TEST_F(FloatProbes, AddSubMulAreCorrectlyRounded) {
  Probes probes(ctx());
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> m(1.0f, 2.0f);
  const size_t n = 1 << 18;
  std::vector<uint32_t> a(n), b(n), z(n, 0);
  for (size_t i = 0; i < n; ++i) {
    a[i] = bits((rng() & 1 ? -1.0f : 1.0f) * m(rng) * std::ldexp(1.0f, int(rng() % 60) - 30));
    b[i] = bits((rng() & 1 ? -1.0f : 1.0f) * m(rng) * std::ldexp(1.0f, int(rng() % 60) - 30));
  }
  auto add = probes.run(Op::Add, a, b, z), sub = probes.run(Op::Sub, a, b, z), mul = probes.run(Op::Mul, a, b, z);
  for (size_t i = 0; i < n; ++i) {
    volatile float x = from_bits(a[i]), y = from_bits(b[i]);
    float s = x + y, d = x - y, p = x * y;
    ASSERT_EQ(add[i], bits(s)) << i;
    ASSERT_EQ(sub[i], bits(d)) << i;
    ASSERT_EQ(mul[i], bits(p)) << i;
  }
}

namespace {
// OpDecorate ... NoContraction instructions in a built SPIR-V module.
size_t no_contraction_count(const std::string& name) {
  std::ifstream in(test_context().shader_dir / name, std::ios::binary);
  std::vector<uint32_t> words;
  uint32_t w;
  while (in.read(reinterpret_cast<char*>(&w), 4)) words.push_back(w);
  if (words.size() < 5 || words[0] != 0x07230203u) return 0;  // not SPIR-V
  size_t n = 0;
  for (size_t i = 5; i < words.size();) {
    uint32_t opcode = words[i] & 0xffffu, count = words[i] >> 16;
    if (count == 0) break;
    if (opcode == 71 /* OpDecorate */ && count >= 3 && words[i + 2] == 42 /* NoContraction */) ++n;
    i += count;
  }
  return n;
}
}  // namespace

// Division, sqrt and the built-ins stay within what the Vulkan specification allows;
// add-like division and sqrt on lavapipe are correctly rounded (the CPU's own operations).
TEST_F(FloatProbes, BuiltinsStayWithinTheVulkanPrecision) {
  Probes probes(ctx());
  auto rows = probes.rounding(1u << 14, 4);
  ASSERT_EQ(rows.size(), 9u);
  for (auto& r : rows) {
    EXPECT_TRUE(r.within_bound) << r.op << ": max " << r.max_ulp << " ulp, allowed " << r.vulkan_bound;
    EXPECT_GT(r.correctly_rounded, 0.0) << r.op;
  }
  EXPECT_EQ(rows[0].op, "a / b");
  auto c = float_controls(ctx());
  EXPECT_FALSE(c.denorm_independence.empty());
}

// The guard against compiler rewriting must be in the binary, not only in the source.
TEST(FloatSpirv, CarriesNoContraction) {
  EXPECT_GE(no_contraction_count("floatlab/probe.comp.spv"), 12u);  // every `precise` probe operation
  // TwoSum 4, split 4, Dekker 5+, ...: dozens of guarded operations in the float-float library
  EXPECT_GE(no_contraction_count("floatlab/floatfloat.comp.spv"), 30u);
}

// Float-float operators against MPFR: Priest's Add12, TwoSum and Dekker's Mul12 exact on every
// input; the double-word operators within their proven bounds (both Add22, the report's and our
// improved one, 2^-47 of |a|+|b|; Mul22 2^-44); division and square root (one Newton step)
// within 2^-44; table 4.1's figures beside the report's own operators only.
TEST_F(FloatProbes, FloatFloatOperatorsMeetTheirBounds) {
  FloatFloat ff(ctx());
  auto acc = ff.accuracy(1u << 14, 5);
  auto fma_fused = Probes(ctx()).report(1u << 12, 5).test4_exact_fma == (1u << 12);
  std::map<std::string, FfAccuracy> by;
  for (auto& a : acc) by[a.op] = a;
  ASSERT_EQ(acc.size(), 9u);
  EXPECT_TRUE(by["add12_priest"].exact);
  EXPECT_TRUE(by["add12"].exact);
  EXPECT_TRUE(by["mul12"].exact);
  EXPECT_EQ(by["mul12_fma"].exact, fma_fused);
  EXPECT_GE(by["add22_priest"].bits, 47.0);
  EXPECT_GE(by["add22_improved"].bits, 47.0);
  EXPECT_GE(by["mul22"].bits, 44.0);
  EXPECT_GE(by["div22"].bits, 44.0);
  EXPECT_GE(by["sqrt22"].bits, 44.0);
  EXPECT_EQ(by["add22_priest"].seed_measured, "47");
  EXPECT_EQ(by["add22_priest"].seed_theory, "47");
  EXPECT_EQ(by["add22_improved"].seed_measured, "-") << "not the operator the report measured";
  EXPECT_EQ(by["add12"].seed_measured, "-");
  EXPECT_EQ(by["add12_priest"].seed_measured, "exact");
  EXPECT_NE(by["add22_improved"].variant.find("improved"), std::string::npos);
}

// The report's Add22 as it prints it (theorem 4: seven Priest Add12, no renormalisation) against
// MPFR on random non-zero float-float inputs, every result: the GPU's (s, e) is the CPU twin's
// bit for bit, and s + e is within 2^-47 (|a| + |b|) of the exact sum (theorem 4's bound).
TEST_F(FloatProbes, PriestAdd22AsPrintedMeetsItsBoundAgainstMpfr) {
  FloatFloat ff(ctx());
  auto a = random_ff(1u << 14, 21), b = random_ff(1u << 14, 22);
  auto got = ff.run(FfOp::Add22Priest, a, b);
  mpfr_t x, y, sum, err, scale;
  mpfr_inits2(400, x, y, sum, err, scale, (mpfr_ptr) nullptr);
  double worst = 64;
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_NE(a[i][0], 0.0f);
    ASSERT_NE(b[i][0], 0.0f);
    Ff cpu = ff_cpu(FfOp::Add22Priest, a[i], b[i]);
    ASSERT_EQ(std::bit_cast<uint64_t>(got[i]), std::bit_cast<uint64_t>(cpu)) << i;
    auto set = [](mpfr_t v, Ff f) {
      mpfr_set_flt(v, f[0], MPFR_RNDN);
      mpfr_t lo;
      mpfr_init2(lo, 400);
      mpfr_set_flt(lo, f[1], MPFR_RNDN);
      mpfr_add(v, v, lo, MPFR_RNDN);
      mpfr_clear(lo);
    };
    set(x, a[i]), set(y, b[i]), set(err, got[i]);
    mpfr_add(sum, x, y, MPFR_RNDN);
    mpfr_sub(err, err, sum, MPFR_RNDN);
    mpfr_abs(x, x, MPFR_RNDN), mpfr_abs(y, y, MPFR_RNDN);
    mpfr_add(scale, x, y, MPFR_RNDN);
    mpfr_div(err, err, scale, MPFR_RNDN);
    const double rel = std::fabs(mpfr_get_d(err, MPFR_RNDN));
    ASSERT_LE(rel, 0x1p-47) << i;
    if (rel > 0) worst = std::min(worst, -std::log2(rel));
  }
  mpfr_clears(x, y, sum, err, scale, (mpfr_ptr) nullptr);
  auto acc = ff.accuracy(1u << 14, 21);
  auto priest = std::find_if(acc.begin(), acc.end(), [](auto& r) { return r.op == "add22_priest"; });
  ASSERT_NE(priest, acc.end());
  EXPECT_NEAR(priest->bits, worst, 1e-9) << "accuracy() measures what this test measures";
}

TEST(Cli, FloatBenchTimesEveryOperatorInTheSeedsUnit) {
  auto out = std::filesystem::temp_directory_path() / ("vklab-ffbench-" + std::to_string(::getpid()) + ".json");
  auto r = run_process(vklab_exe() + " bench --lab floatlab --quick --validate --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto rows = nlohmann::json::parse(std::ifstream(out))["labs"]["floatlab"];
  ASSERT_GE(rows.size(), 10u);
  EXPECT_EQ(rows[0]["pass"], "ff.float_add");
  EXPECT_DOUBLE_EQ(rows[0]["reference"]["relative_to_float_add"].get<double>(), 1.0);
  for (auto& row : rows) EXPECT_GT(row["median_ms"].get<double>(), 0.0) << row.dump();
}

TEST(Cli, FloatReportWritesJson) {
  auto out = std::filesystem::temp_directory_path() / ("vklab-float-" + std::to_string(::getpid()) + ".json");
  auto r = run_process(vklab_exe() + " floatlab --report --quick --validate --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("TEST 9"), std::string::npos) << r.out;
  auto j = nlohmann::json::parse(std::ifstream(out));
  EXPECT_GE(j["rows"].size(), 14u);
  EXPECT_EQ(j["rows"][0]["seed_7800gtx"], "denormals -> 0");
  EXPECT_EQ(j["floatfloat_accuracy"].size(), 9u);
  EXPECT_EQ(j["rounding"].size(), 9u);
  EXPECT_TRUE(j["float_controls"].contains("denorm_preserve_f32"));
  EXPECT_TRUE(j["floatfloat_accuracy"][0]["exact"].get<bool>());
  // Paranoia (annex A) in every stage, beside the 7800 GTX's summary; the float controls tested
  EXPECT_NE(r.out.find("GeForce 7800 GTX, 2006 (annex A)"), std::string::npos) << r.out;
  EXPECT_EQ(j["paranoia"]["stages"]["compute"]["radix"], 2.0);
  EXPECT_EQ(j["paranoia"]["annex_a_7800gtx"][8], "DIVISION: FAILURE: Division lacks guard digit");
  EXPECT_EQ(j["float_controls_tested"]["modes"].size(), 5u);
  EXPECT_TRUE(j["float_controls_tested"]["contraction"]["no_contraction_kept"].get<bool>());
  // Abecassis 2012, SIMSURF §14.2.2 / §14.5.1 at the end (tests/floatlab/ulp_cancellation_test.cpp)
  EXPECT_NE(r.out.find("catastrophic cancellation"), std::string::npos) << r.out;
  EXPECT_EQ(j["simsurf_ulp_and_cancellation"]["rounding_table"].size(), 5u);
  EXPECT_EQ(run_process(vklab_exe() + " floatlab").code, 2);
}

TEST(Half, RoundsToNearestEven) {
  EXPECT_EQ(to_half(1.0), 0x3c00);
  EXPECT_EQ(to_half(1.5), 0x3e00);
  EXPECT_EQ(to_half(65504.0), 0x7bff);
  EXPECT_EQ(to_half(65520.0), 0x7c00);                     // overflows to +inf
  EXPECT_EQ(to_half(1.0 + std::ldexp(1.0, -11)), 0x3c00);  // tie: to even
  EXPECT_EQ(to_half(1.0 + 3 * std::ldexp(1.0, -11)), 0x3c02);
  EXPECT_EQ(to_half(std::ldexp(1.0, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(to_half(-2.0), 0xc000);
  for (uint32_t h = 0; h < 0x7c00; ++h) ASSERT_EQ(to_half(from_half(uint16_t(h))), h) << h;
}

// The error map: every binade of every operation measured; a product is correctly rounded
// everywhere (Vulkan requires it), so its worst error lies in (0.25, 0.5] ulp; division and
// the square roots stay within Vulkan's bounds; exp and exp2 overflow exactly where the
// exact result passes FLT_MAX (exp from x = 2^6 = 64 on, exp2 from 2^7 = 128).
TEST_F(FloatProbes, ErrorMapFindsEachOperationsErrorBinadeByBinade) {
  Probes probes(ctx());
  auto m = probes.ulp_map(64, 5);
  ASSERT_EQ(m.ops.size(), 10u);
  ASSERT_EQ(m.max_ulp.size(), m.ops.size() * m.binades());
  auto row = [&](const std::string& op) {
    auto i = size_t(std::find(m.ops.begin(), m.ops.end(), op) - m.ops.begin());
    EXPECT_LT(i, m.ops.size()) << op;
    return std::vector<double>(m.max_ulp.begin() + i * m.binades(), m.max_ulp.begin() + (i + 1) * m.binades());
  };
  for (double u : row("a * b")) {
    EXPECT_GT(u, 0.25);
    EXPECT_LE(u, 0.5);
  }
  for (double u : row("a / b")) EXPECT_LE(u, 2.5);
  for (double u : row("inversesqrt")) EXPECT_LE(u, 2.0);
  for (int e = m.e_lo; e <= m.e_hi; ++e) {
    EXPECT_EQ(std::isnan(row("exp2")[e - m.e_lo]), e >= 7) << e;
    EXPECT_EQ(std::isnan(row("exp")[e - m.e_lo]), e >= 6) << e;
    EXPECT_FALSE(std::isnan(row("sin")[e - m.e_lo])) << e;
  }
}

// The pictures are charts of the report: the verdict table colours this GPU's column by
// as_ieee, the seed's columns by their own verdicts; the bit chart holds TEST 5 and 6's bits.
TEST_F(FloatProbes, ChartsShowTheReport) {
  Probes probes(ctx());
  auto r = probes.report(1u << 12, 2);
  auto v = verdict_chart(r);
  ASSERT_EQ(v.cells.size(), size_t(v.chart.grid_w) * r.rows.size());
  ASSERT_EQ(v.chart.y_ticks.size(), r.rows.size());
  // the columns' cells, found by their headings' centres (their widths follow their text)
  ASSERT_GE(v.chart.notes.size(), 5u);
  const size_t gpu = size_t(v.chart.notes[1].x), nv = size_t(v.chart.notes[3].x);
  for (size_t i = 0; i < r.rows.size(); ++i) {
    const float* line = &v.cells[i * v.chart.grid_w];
    EXPECT_EQ(line[gpu], r.rows[i].as_ieee ? 1.0f : 0.0f) << r.rows[i].question;  // "this GPU"
    if (r.rows[i].seed_7800gtx != "-") {
      EXPECT_EQ(line[nv], r.rows[i].nv_as_ieee ? 1.0f : 0.0f);
    }
  }
  auto nv_row = std::find_if(r.rows.begin(), r.rows.end(),
                             [](auto& x) { return x.question.rfind("first i with 1.5 -", 0) == 0; });
  ASSERT_NE(nv_row, r.rows.end());
  EXPECT_FALSE(nv_row->nv_as_ieee);  // the 7800 GTX's 26-bit adder
  auto b = bits_chart(r);
  ASSERT_EQ(b.cells.size(), 65u * 64);
  for (int i = 0; i < 64; ++i)
    for (int bit = 0; bit < 32; ++bit) ASSERT_EQ(b.cells[i * 65 + 33 + bit], float((r.test6[i] >> (31 - bit)) & 1u));
}

// Each picture, headless at its defaults but small sample sizes: drawn without a validation
// message, and different from the others.
TEST(Cli, FloatlabPicturesAreDistinctCharts) {
  auto dir = scratch("floatlab-pictures");
  std::vector<std::string> pngs;
  for (std::string p : {"verdicts", "error map", "bits"}) {
    auto png = (dir / (p.substr(0, 4) + ".png")).string();
    auto r =
        run_process(vklab_args("--headless --validate --lab floatlab --set random_count=4096 --set ff_count=1024 "
                               "--set ulp_per_binade=32 --set \"picture=" +
                               p +
                               "\" --steps 1 --size 640x400 "
                               "--capture " +
                               png));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
    pngs.push_back(file_bytes(png));
  }
  EXPECT_NE(pngs[0], pngs[1]);
  EXPECT_NE(pngs[1], pngs[2]);
  EXPECT_NE(pngs[0], pngs[2]);
}

// Table 3.1's exact results come from double and long double arithmetic where exact enough
// (the report's speed, issue 52): on a sample of every row, the same counts, correctly rounded
// shares and error ranges as the MPFR path, to 2^-28 ulp.
TEST_F(FloatProbes, Table31FastPathsMatchMpfr) {
  Probes probes(ctx());
  auto fast = error_ranges(probes, 1u << 14, 7, {}, Exact::Fastest);
  auto slow = error_ranges(probes, 1u << 14, 7, {}, Exact::Mpfr);
  ASSERT_EQ(fast.size(), slow.size());
  size_t compared = 0;
  for (size_t i = 0; i < fast.size(); ++i) {
    SCOPED_TRACE(fast[i].op + ", " + fast[i].domain);
    EXPECT_EQ(fast[i].count, slow[i].count);
    EXPECT_EQ(fast[i].skipped, slow[i].skipped);
    EXPECT_EQ(fast[i].correctly_rounded, slow[i].correctly_rounded);
    EXPECT_EQ(fast[i].denormal_count, slow[i].denormal_count);
    EXPECT_EQ(fast[i].denormal_correct, slow[i].denormal_correct);
    for (auto [f, s] : {std::pair{fast[i].lo, slow[i].lo}, std::pair{fast[i].hi, slow[i].hi}})
      if (std::isfinite(s)) {
        EXPECT_NEAR(f, s, 0x1p-28) << "error range";
      } else {
        EXPECT_EQ(f, s);
      }
    compared += fast[i].count;
  }
  EXPECT_GT(compared, 100000u);
}
