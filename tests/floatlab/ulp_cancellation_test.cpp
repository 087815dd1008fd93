// Abecassis 2012, SIMSURF §14.2.2 / §14.5.1 on the GPU (compute/floatlab/ulp_cancellation.h):
// the rounding table against the printed digits and the CPU's own conversion, and the two
// cancellation examples, naive and stable, against MPFR, through the real GPU path.
#include "app/labs/floatlab/ulp_cancellation.h"
#include "compute/floatlab/ulp_cancellation.h"
#include "tests/helpers.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <fstream>

using namespace floatlab;
using SimsurfUlp = GpuTest;

namespace {
const CancelRow& find_row(const UlpCancellation& u, const std::string& example_start, const std::string& precision,
                          const std::string& method_start) {
  for (auto& r : u.rows)
    if (r.example.rfind(example_start, 0) == 0 && r.precision == precision && r.method.rfind(method_start, 0) == 0)
      return r;
  throw std::runtime_error("no row " + example_start + " / " + precision + " / " + method_start);
}
// eps * 2^e (eq. 14.2), eps = 2^-23, e the unbiased exponent of a normal float
float ulp_by_formula(float f) { return std::ldexp(FLT_EPSILON, std::ilogb(f)); }
}  // namespace

TEST(SimsurfPrint, AgreesToTheLastPrintedDigit) {
  EXPECT_TRUE(agrees_with_print(1051.7301025390625L, "1051.730102539062"));  // cut, one unit off
  EXPECT_TRUE(agrees_with_print(2.98023223876953125e-8L, "2.980232238769531e-8"));
  EXPECT_FALSE(agrees_with_print(1051.7301045L, "1051.730102539062"));
  EXPECT_FALSE(agrees_with_print(0.300000011920928955L, "0.30000011920929"));
  EXPECT_EQ(round_decimal10(123.456789012345L), std::strtold("123.4567890", nullptr));
  EXPECT_EQ(round_decimal10(2.00000000061L), std::strtold("2.000000001", nullptr));
  EXPECT_EQ(round_decimal10(round_decimal10(200.0000001L) - 200), std::strtold("1e-7", nullptr));  // eq. 14.6
  EXPECT_EQ(correct_digits(0), 17.0);
  EXPECT_EQ(correct_digits(2), 0.0);
  EXPECT_NEAR(correct_digits(1e-6), 6.0, 1e-12);
}

// The five printed rows: rn(v) bit for bit the CPU's float of the decimal, and every column
// equal to the print to its last digit, except the two rn(v) whose print lost a 0 (0.3, 1.2):
// those equal the print with the 0 put back, and the report's own rn(v) + ULP minus its ULP.
TEST_F(SimsurfUlp, TheGpuReproducesTheReportsTable) {
  auto u = ulp_and_cancellation(ctx(), 0.1);
  EXPECT_EQ(u.rounded_on_gpu, ctx().info.fp64);
  ASSERT_EQ(u.table.size(), 6u);
  const char* values[] = {"0.3", "1.2", "517.31", "1051.73", "67311.11"};
  for (size_t i = 0; i < u.table.size(); ++i) {
    auto& r = u.table[i];
    SCOPED_TRACE(r.v);
    float cpu = i < 5 ? std::strtof(values[i], nullptr) : 0.1f;
    EXPECT_EQ(r.rn_bits, std::bit_cast<uint32_t>(cpu));
    EXPECT_EQ(r.rn, cpu);
    EXPECT_EQ(r.ulp, ulp_by_formula(cpu));
    EXPECT_EQ(r.next_bits, r.rn_bits + 1);  // the next float up
    EXPECT_EQ(double(r.next), double(cpu) + double(ulp_by_formula(cpu)));
    if (i == 5) {
      EXPECT_FALSE(r.printed);
      continue;
    }
    ASSERT_TRUE(r.printed);
    EXPECT_EQ(r.v, values[i]);
    EXPECT_TRUE(r.ulp_agrees) << r.ulp << " vs " << r.printed_ulp;
    EXPECT_TRUE(r.next_agrees) << r.next << " vs " << r.printed_next;
    EXPECT_TRUE(agrees_with_print(r.ulp, r.printed_ulp));
    EXPECT_TRUE(agrees_with_print(r.next, r.printed_next));
    EXPECT_TRUE(r.rn_agrees);
    EXPECT_TRUE(agrees_with_print(r.rn, r.reading_rn));
    bool dropped_zero = i < 2;
    EXPECT_EQ(agrees_with_print(r.rn, r.printed_rn), !dropped_zero) << r.printed_rn;
    EXPECT_EQ(r.reading_rn != r.printed_rn, dropped_zero);
    // the report against itself: its rn(v) + ULP minus its ULP is the GPU's rn(v)
    long double own = std::strtold(r.printed_next.c_str(), nullptr) - std::strtold(r.printed_ulp.c_str(), nullptr);
    EXPECT_NEAR(double(own / r.rn - 1), 0.0, 1e-14);
  }
  EXPECT_EQ(u.table[0].printed_ulp, "2.980232238769531e-8");
  EXPECT_EQ(u.table[4].printed_next, "67311.1171875");
}

// Example 1, x^2 + 200x - 0.000015 = 0: the textbook small root keeps no digit in float (the
// square root rounds to 200), about 7 of 16 in double; c / (a x1) keeps them all.
TEST_F(SimsurfUlp, QuadraticSmallRootCancels) {
  auto u = ulp_and_cancellation(ctx());
  auto& fn = find_row(u, "small", "float", "(-b");
  auto& fs = find_row(u, "small", "float", "c /");
  EXPECT_NEAR(fs.exact, 7.5e-8, 1e-14);  // eq. 14.5: 0.000000075 (at the float nearest -0.000015)
  EXPECT_LT(fn.digits, 2.0) << fn.value;
  EXPECT_GE(fs.digits, 6.0) << fs.value;
  EXPECT_GE(find_row(u, "large", "float", "x1").digits, 6.5);
  EXPECT_EQ(fn.rel_error, std::fabs(fn.value - fn.exact) / std::fabs(fn.exact));
  if (ctx().info.fp64) {
    auto& dn = find_row(u, "small", "double", "(-b");
    auto& ds = find_row(u, "small", "double", "c /");
    EXPECT_GE(dn.digits, 5.0) << dn.value;  // sqrt's rounding, 1e-14, over a root of 7.5e-8
    EXPECT_LT(dn.digits, 10.0) << dn.value;
    EXPECT_GE(ds.digits, 15.0) << ds.value;
    EXPECT_NEAR(ds.exact, 7.5e-8, 1e-16);  // 0.000000075 less 2.8e-17
    EXPECT_GE(find_row(u, "large", "double", "x1").digits, 15.0);
  } else {
    EXPECT_FALSE(u.fp64);
  }
  // the report's 10-digit decimal (CPU): 0.00000005, no digit; the large root keeps its digits
  auto& tn = find_row(u, "small", "decimal, 10 digits", "(-b");
  EXPECT_FALSE(tn.on_gpu);
  EXPECT_DOUBLE_EQ(tn.value, 5e-8);
  EXPECT_LT(tn.digits, 1.0);
  EXPECT_GE(find_row(u, "small", "decimal, 10 digits", "c /").digits, 9.0);
  EXPECT_GE(find_row(u, "large", "decimal, 10 digits", "x1").digits, 9.0);
}

// Example 2, (1 - cos x) / x^2 at x = 1.1e-8 (true value 0.5 - x^2/24): as written, 0 in float
// and the report's 0.9175396897728 in double; with 2 sin^2(x/2), 0.5 to the last digit.
TEST_F(SimsurfUlp, OneMinusCosCancels) {
  auto u = ulp_and_cancellation(ctx());
  auto& fn = find_row(u, "(1 - cos", "float", "(1 - cos x) / x^2, cos by its series");
  auto& fs = find_row(u, "(1 - cos", "float", "2 sin^2(x/2) / x^2, sin by its series");
  EXPECT_NEAR(fs.exact, 0.5, 1e-15);
  EXPECT_GT(std::fabs(fn.value - 0.5), 0.1) << fn.value;
  EXPECT_LT(fn.digits, 1.0);
  EXPECT_LE(std::fabs(fs.value - fs.exact) / fs.exact, 1e-6) << fs.value;
  if (!ctx().info.fp64) GTEST_SKIP() << "no shaderFloat64: the double rows are absent";
  auto& dn = find_row(u, "(1 - cos", "double", "(1 - cos x)");
  auto& ds = find_row(u, "(1 - cos", "double", "2 sin^2");
  EXPECT_GT(std::fabs(dn.value - 0.5), 0.1) << dn.value;
  EXPECT_TRUE(agrees_with_print(dn.value, "0.9175396897728")) << dn.value;  // eq. 14.8
  EXPECT_NEAR(dn.rel_error, 0.835, 0.001);                                  // "about 83.5%"
  EXPECT_LE(std::fabs(ds.value - ds.exact) / ds.exact, 1e-6);
  EXPECT_GE(ds.digits, 15.0) << ds.value;
}

// Where nothing cancels (x = 0.5) the series hold every digit of their precision, and the
// built-in cos and sin stay within what Vulkan allows them (2^-11 absolute on [-pi, pi]).
TEST_F(SimsurfUlp, SeriesAndBuiltinsAtHalf) {
  const double x = 0.5;
  auto u = ulp_and_cancellation(ctx(), 0, x);
  EXPECT_EQ(u.table.size(), 5u);
  for (auto& r : u.rows) {
    if (r.example.rfind("(1 - cos", 0) != 0) continue;
    SCOPED_TRACE(r.precision + ": " + r.method);
    EXPECT_NEAR(r.exact, (1 - std::cos(x)) / (x * x), 1e-15);
    if (r.method.find("series") != std::string::npos) {
      EXPECT_GE(r.digits, r.precision == "float" ? 6.0 : 14.5) << r.value;
    } else {
      double d = std::ldexp(1.0, -11), s = std::sin(x / 2);
      double bound = r.stable ? 2 * (2 * s * d + d * d) / (x * x) : d / (x * x);
      EXPECT_LE(std::fabs(r.value - r.exact), bound * 1.01 + 1e-6) << r.value;
    }
  }
  EXPECT_THROW(ulp_and_cancellation(ctx(), 0, 2.0), std::invalid_argument);
}

TEST(SimsurfUlpChart, OneRowAValueAndAHeader) {
  UlpCancellation u;
  u.device = "test";
  u.table.resize(5), u.rows.resize(15);
  for (auto& r : u.table)
    r.printed = r.rn_agrees = r.ulp_agrees = r.next_agrees = true, r.reading_rn = r.printed_rn = "1";
  for (auto& r : u.rows) r.precision = "float", r.digits = 7.3;
  u.table[0].reading_rn = "0.1";  // the print differs: its cell orange
  auto p = ulp_cancellation_chart(u);
  ASSERT_EQ(p.chart.grid_h, 5u + 1 + 15);
  ASSERT_EQ(p.cells.size(), size_t(p.chart.grid_w) * p.chart.grid_h);
  EXPECT_EQ(p.chart.y_ticks.size(), p.chart.grid_h);
  EXPECT_EQ(p.cells[12], 0.0f);                   // row 0, the report's rn(v): differs
  EXPECT_EQ(p.cells[p.chart.grid_w + 12], 1.0f);  // row 1: as printed
  // the last row: one cell green (its digits: all of float's), the rest neutral
  auto last = std::vector<float>(p.cells.end() - p.chart.grid_w, p.cells.end());
  EXPECT_GT(std::count(last.begin(), last.end(), 1.0f), 0);
  EXPECT_EQ(std::count(last.begin(), last.end(), 1.0f) + std::count(last.begin(), last.end(), 0.5f),
            std::ptrdiff_t(p.chart.grid_w));
  u.rows.back().digits = 0;  // none: orange
  auto q = ulp_cancellation_chart(u);
  EXPECT_GT(std::count(q.cells.end() - q.chart.grid_w, q.cells.end(), 0.0f), 0);
}

// The command and the headless lab print and save it.
TEST(Cli, FloatlabCancellationCommandAndDump) {
  auto dir = scratch("floatlab-simsurf");
  auto json = (dir / "simsurf.json").string();
  auto r = run_process(vklab_exe() + " floatlab --cancellation --validate --out " + json);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("Abecassis 2012, SIMSURF §14.2.2 / §14.5.1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("67311.1171875"), std::string::npos) << r.out;
  auto j = nlohmann::json::parse(std::ifstream(json));
  EXPECT_EQ(j["rounding_table"].size(), 5u);
  EXPECT_EQ(j["rounding_table"][2]["rn"].get<double>(), double(517.31f));
  EXPECT_GE(j["cancellation"].size(), 13u);
  auto d =
      run_process(vklab_args("--headless --validate --lab floatlab --preset floatlab/ulp-and-cancellation "
                             "--steps 1 --size 640x400 --capture " +
                             (dir / "simsurf.png").string() + " --dump " + (dir / "dump").string()));
  ASSERT_EQ(d.code, 0) << d.err;
  EXPECT_NE(d.err.find("validation: 0 messages"), std::string::npos) << d.err;
  auto state = nlohmann::json::parse(std::ifstream(dir / "dump" / "params.json"));
  EXPECT_EQ(state["params"]["picture"], "ulp and cancellation");
  auto& s = state["state"]["simsurf_ulp_and_cancellation"];
  EXPECT_EQ(s["rounding_table"].size(), 6u);  // the report's five and the preset's value
  EXPECT_TRUE(s["rounding_table"][0]["agrees"]["ulp"].get<bool>());
}
