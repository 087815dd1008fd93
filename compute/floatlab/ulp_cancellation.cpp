// Abecassis 2012, SIMSURF §14.2.2 and §14.5.1 on the GPU (compute/floatlab/ulp_cancellation.h).
#include "compute/floatlab/ulp_cancellation.h"

#include "compute/gpu/pipeline.h"
#include "shaders/floatlab/floatlab_push.h"

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace floatlab {

namespace {

// §14.2.2 as printed (decimal commas as points). The print of rn(0.3) and rn(1.2) lost a 0:
// 0,30000011920929 for 0.300000011920929 (its own next column, 0,3000000417232513, minus its
// ULP gives the latter), 1,20000047683716 for 1.200000047683716.
struct PrintedUlpRow {
  const char *v, *rn, *ulp, *next, *reading, *note;
};
constexpr PrintedUlpRow kSimsurfUlpTable[] = {
    {"0.3", "0.30000011920929", "2.980232238769531e-8", "0.3000000417232513", "0.300000011920929",
     "the print of rn(v) dropped a 0 (0.30000011920929 for 0.300000011920929): its own rn(v) + ULP minus ULP "
     "gives the latter"},
    {"1.2", "1.20000047683716", "1.192092895507812e-7", "1.200000166893005", "1.200000047683716",
     "the print of rn(v) dropped a 0 (1.20000047683716 for 1.200000047683716): its own rn(v) + ULP minus ULP "
     "gives the latter"},
    {"517.31", "517.3099975585938", "6.103515625e-5", "517.31005859375", nullptr, ""},
    {"1051.73", "1051.72998046875", "0.0001220703125", "1051.730102539062", nullptr,
     "rn(v) + ULP is 1051.7301025390625 exactly: the print cut its last digit"},
    {"67311.11", "67311.109375", "0.0078125", "67311.1171875", nullptr, ""},
};

// Example 1's equation (14.3) and the report's figures.
constexpr double kQuadA = 1, kQuadB = 200;
constexpr const char* kQuadC = "-0.000015";

struct Mp {
  mpfr_t v;
  Mp() { mpfr_init2(v, 256); }
  explicit Mp(double d) : Mp() { mpfr_set_d(v, d, MPFR_RNDN); }
  ~Mp() { mpfr_clear(v); }
  Mp(const Mp&) = delete;
  Mp& operator=(const Mp&) = delete;
  double get() const { return mpfr_get_d(v, MPFR_RNDN); }
};

// d = sqrt(b^2 - 4ac) at 256 bits.
void root_of_discriminant(Mp& d, const Mp& ma, const Mp& mb, const Mp& mc) {
  Mp t;
  mpfr_sqr(d.v, mb.v, MPFR_RNDN);
  mpfr_mul(t.v, ma.v, mc.v, MPFR_RNDN);
  mpfr_mul_ui(t.v, t.v, 4, MPFR_RNDN);
  mpfr_sub(d.v, d.v, t.v, MPFR_RNDN);
  mpfr_sqrt(d.v, d.v, MPFR_RNDN);
}

// -2c / (b + sqrt(b^2 - 4ac)) at 256 bits: the small root, no cancellation (b > 0).
double exact_small_root(double a, double b, double c) {
  Mp ma(a), mb(b), mc(c), d, t;
  root_of_discriminant(d, ma, mb, mc);
  mpfr_add(d.v, d.v, mb.v, MPFR_RNDN);
  mpfr_mul_si(t.v, mc.v, -2, MPFR_RNDN);
  mpfr_div(t.v, t.v, d.v, MPFR_RNDN);
  return t.get();
}

// (-b - sqrt(b^2 - 4ac)) / 2a at 256 bits: the large root.
double exact_large_root(double a, double b, double c) {
  Mp ma(a), mb(b), mc(c), d, t;
  root_of_discriminant(d, ma, mb, mc);
  mpfr_neg(t.v, mb.v, MPFR_RNDN);
  mpfr_sub(t.v, t.v, d.v, MPFR_RNDN);
  mpfr_div(t.v, t.v, ma.v, MPFR_RNDN);
  mpfr_div_ui(t.v, t.v, 2, MPFR_RNDN);
  return t.get();
}

// (1 - cos x) / x^2 at 256 bits: 1 - cos x loses about 2 log2(1/x) bits, far fewer than 256.
double exact_one_minus_cos(double x) {
  Mp mx(x), c, x2;
  mpfr_cos(c.v, mx.v, MPFR_RNDN);
  mpfr_ui_sub(c.v, 1, c.v, MPFR_RNDN);
  mpfr_sqr(x2.v, mx.v, MPFR_RNDN);
  mpfr_div(c.v, c.v, x2.v, MPFR_RNDN);
  return c.get();
}

CancelRow cancel_row(std::string example, std::string precision, std::string method, bool stable, double value,
                     double exact) {
  CancelRow r;
  r.example = std::move(example), r.precision = std::move(precision), r.method = std::move(method);
  r.stable = stable, r.value = value, r.exact = exact;
  r.rel_error = exact != 0 ? std::fabs(value - exact) / std::fabs(exact) : std::fabs(value);
  r.digits = correct_digits(r.rel_error);
  return r;
}

float float_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace

bool agrees_with_print(long double value, const std::string& printed) {
  char* end = nullptr;
  long double p = std::strtold(printed.c_str(), &end);
  if (end == printed.c_str()) throw std::invalid_argument("not a number: " + printed);
  auto dot = printed.find('.'), e = printed.find_first_of("eE");
  int decimals = dot == std::string::npos ? 0 : int((e == std::string::npos ? printed.size() : e) - dot - 1);
  int exponent = e == std::string::npos ? 0 : std::atoi(printed.c_str() + e + 1);
  long double unit = std::pow(10.0L, exponent - decimals);
  return std::fabs(value - p) <= unit;
}

double correct_digits(double rel_error) {
  if (!(rel_error > 0)) return rel_error == 0 ? 17.0 : 0.0;  // NaN: none
  double digits = -std::log10(rel_error);
  return digits > 0 ? std::min(digits, 17.0) : 0.0;  // never -0
}

long double round_decimal10(long double v) {
  char text[48];
  std::snprintf(text, sizeof text, "%.9Le", v);
  return std::strtold(text, nullptr);
}

UlpCancellation ulp_and_cancellation(gpu::Context& ctx, double extra, double x) {
  if (!(x >= 1e-12 && x <= 1)) throw std::invalid_argument("example 2's x must lie in [1e-12, 1]");
  UlpCancellation out;
  out.device = ctx.info.name, out.fp64 = ctx.info.fp64, out.rounded_on_gpu = ctx.info.fp64, out.x = x;
  for (auto& p : kSimsurfUlpTable) {
    UlpRow r;
    r.v = p.v, r.printed = true, r.printed_rn = p.rn, r.printed_ulp = p.ulp, r.printed_next = p.next;
    r.reading_rn = p.reading ? p.reading : p.rn, r.note = p.note;
    r.v_double = std::strtod(p.v, nullptr), r.cpu_rn = std::strtof(p.v, nullptr);
    out.table.push_back(r);
  }
  if (extra > 0) {
    UlpRow r;
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", extra);
    r.v = text, r.v_double = extra, r.cpu_rn = float(extra);
    out.table.push_back(r);
  }
  const uint32_t n = uint32_t(out.table.size());
  const float cf = std::strtof(kQuadC, nullptr), xf = float(x);
  const double cd = std::strtod(kQuadC, nullptr);
  auto usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  gpu::Buffer table_buf(ctx, 3 * n * sizeof(uint32_t), usage);

  // Single precision: the table from the CPU's floats (kept only without shaderFloat64), both examples.
  std::vector<float> in32;
  for (auto& r : out.table) in32.push_back(r.cpu_rn);
  in32.insert(in32.end(), {float(kQuadA), float(kQuadB), cf, xf});
  gpu::Buffer in32_buf(ctx, in32.size() * 4, usage), out32_buf(ctx, 8 * 4, usage);
  in32_buf.upload(in32);
  auto pipe32 = gpu::make_compute(ctx, "floatlab/ulp_cancel.comp", sizeof(push::FloatOpPush));
  ctx.submit_now([&](VkCommandBuffer cmd) {
    pipe32.bind(cmd, {gpu::storage_buffer(in32_buf), gpu::storage_buffer(table_buf), gpu::storage_buffer(out32_buf)},
                push::FloatOpPush{.n = n, .op = 0});
    vkCmdDispatch(cmd, 1, 1, 1);
  });
  std::vector<uint32_t> table = table_buf.download<uint32_t>();
  auto r32 = out32_buf.download<float>();
  std::vector<double> r64;
  if (ctx.info.fp64) {  // the table again, float(v) rounded in the shader, and both examples in double
    std::vector<double> in64;
    for (auto& r : out.table) in64.push_back(r.v_double);
    in64.insert(in64.end(), {kQuadA, kQuadB, cd, x});
    gpu::Buffer in64_buf(ctx, in64.size() * 8, usage), table64_buf(ctx, 3 * n * sizeof(uint32_t), usage),
        out64_buf(ctx, 6 * 8, usage);
    in64_buf.upload(in64);
    auto pipe64 = gpu::make_compute(ctx, "floatlab/ulp_cancel64.comp", sizeof(push::FloatOpPush));
    ctx.submit_now([&](VkCommandBuffer cmd) {
      pipe64.bind(cmd,
                  {gpu::storage_buffer(in64_buf), gpu::storage_buffer(table64_buf), gpu::storage_buffer(out64_buf)},
                  push::FloatOpPush{.n = n, .op = 0});
      vkCmdDispatch(cmd, 1, 1, 1);
    });
    table = table64_buf.download<uint32_t>();
    r64 = out64_buf.download<double>();
  }

  for (uint32_t i = 0; i < n; ++i) {
    auto& r = out.table[i];
    r.rn_bits = table[3 * i], r.next_bits = table[3 * i + 2];
    r.rn = float_of(r.rn_bits), r.ulp = float_of(table[3 * i + 1]), r.next = float_of(r.next_bits);
    if (!r.printed) continue;
    r.rn_agrees = agrees_with_print(r.rn, r.reading_rn);
    r.ulp_agrees = agrees_with_print(r.ulp, r.printed_ulp);
    r.next_agrees = agrees_with_print(r.next, r.printed_next);
  }

  // Example 1: x^2 + 200x - 0.000015 = 0, in each precision at the coefficients it holds.
  const std::string ex1 = "small root of x^2 + 200x - 0.000015 = 0", big = "large root of the same";
  const std::string naive = "(-b + sqrt(b^2 - 4ac)) / 2a", stable = "c / (a x1) = -2c / (b + sqrt(b^2 - 4ac))",
                    large = "x1 = (-b - sqrt(b^2 - 4ac)) / 2a";
  auto example1 = [&](const std::string& precision, double c, double x1, double small_naive, double small_stable) {
    double exact_big = exact_large_root(kQuadA, kQuadB, c), exact_small = exact_small_root(kQuadA, kQuadB, c);
    out.rows.push_back(cancel_row(big, precision, large, false, x1, exact_big));
    out.rows.push_back(cancel_row(ex1, precision, naive, false, small_naive, exact_small));
    out.rows.push_back(cancel_row(ex1, precision, stable, true, small_stable, exact_small));
  };
  example1("float", cf, r32[1], r32[2], r32[3]);
  if (!r64.empty()) example1("double", cd, r64[1], r64[2], r64[3]);
  {  // the report's thought experiment: a 10-digit decimal mantissa, each operation rounded (CPU).
    // In long double (64 bits): the sums of 10-digit decimals come out within 1e-17 of exact,
    // so that each rounds to the 10 digits a decimal machine would keep.
    auto d10 = round_decimal10;
    const long double a = kQuadA, b = kQuadB, c = std::strtold(kQuadC, nullptr);
    long double s = d10(std::sqrt(d10(d10(b * b) - d10(d10(4 * a) * c))));
    long double x1 = d10(d10(-b - s) / d10(2 * a));
    size_t first = out.rows.size();
    example1("decimal, 10 digits", cd, double(x1), double(d10(d10(-b + s) / d10(2 * a))), double(d10(c / d10(a * x1))));
    for (size_t k = first; k < out.rows.size(); ++k) out.rows[k].on_gpu = false;
    out.rows[first].report = "-200.00000005: 10 digits correct (eq. 14.6)";
    out.rows[first + 1].report = "0.00000005: no digit correct (eq. 14.6)";
  }
  // Example 2: f(x) = (1 - cos x) / x^2.
  const std::string ex2 = "(1 - cos x) / x^2";
  const double exact32 = exact_one_minus_cos(double(xf));
  out.rows.push_back(cancel_row(ex2, "float", "(1 - cos x) / x^2, cos by its series", false, r32[4], exact32));
  out.rows.push_back(cancel_row(ex2, "float", "2 sin^2(x/2) / x^2, sin by its series", true, r32[5], exact32));
  out.rows.push_back(cancel_row(ex2, "float", "(1 - cos x) / x^2, GLSL's built-in cos", false, r32[6], exact32));
  out.rows.push_back(cancel_row(ex2, "float", "2 sin^2(x/2) / x^2, GLSL's built-in sin", true, r32[7], exact32));
  if (!r64.empty()) {
    const double exact64 = exact_one_minus_cos(x);
    out.rows.push_back(cancel_row(ex2, "double", "(1 - cos x) / x^2, cos by its series", false, r64[4], exact64));
    if (x == 1.1e-8) out.rows.back().report = "0.9175396897728, 83.5% off (eq. 14.8)";
    out.rows.push_back(cancel_row(ex2, "double", "2 sin^2(x/2) / x^2, sin by its series", true, r64[5], exact64));
  }
  return out;
}

}  // namespace floatlab
