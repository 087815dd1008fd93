#include "compute/floatlab/table31.h"

#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <stdexcept>
#include <thread>

namespace floatlab {

namespace {

struct Case {
  Op op;
  const char* name;
  int arity;
  int (*exact)(mpfr_t, const mpfr_t, const mpfr_t);
  const char* vulkan;
  const char *r300, *nv35, *gtx7800;
};

int add(mpfr_t r, const mpfr_t a, const mpfr_t b) { return mpfr_add(r, a, b, MPFR_RNDN); }
int sub(mpfr_t r, const mpfr_t a, const mpfr_t b) { return mpfr_sub(r, a, b, MPFR_RNDN); }
int mul(mpfr_t r, const mpfr_t a, const mpfr_t b) { return mpfr_mul(r, a, b, MPFR_RNDN); }
int div(mpfr_t r, const mpfr_t a, const mpfr_t b) { return mpfr_div(r, a, b, MPFR_RNDN); }
int sqrt_(mpfr_t r, const mpfr_t a, const mpfr_t) { return mpfr_sqrt(r, a, MPFR_RNDN); }
int rsqrt(mpfr_t r, const mpfr_t a, const mpfr_t) { return mpfr_rec_sqrt(r, a, MPFR_RNDN); }
int rcp(mpfr_t r, const mpfr_t a, const mpfr_t) { return mpfr_ui_div(r, 1, a, MPFR_RNDN); }
int exp2_(mpfr_t r, const mpfr_t a, const mpfr_t) { return mpfr_exp2(r, a, MPFR_RNDN); }
int log2_(mpfr_t r, const mpfr_t a, const mpfr_t) { return mpfr_log2(r, a, MPFR_RNDN); }
int sin_(mpfr_t r, const mpfr_t a, const mpfr_t) { return mpfr_sin(r, a, MPFR_RNDN); }
int cos_(mpfr_t r, const mpfr_t a, const mpfr_t) { return mpfr_cos(r, a, MPFR_RNDN); }
int pow_(mpfr_t r, const mpfr_t a, const mpfr_t b) { return mpfr_pow(r, a, b, MPFR_RNDN); }

const Case kCases[] = {
    {Op::Add, "a + b", 2, add, "correctly rounded", "[-1.0, 0.0]", "[-1.0, 0.0]", "[-1, 0]"},
    {Op::Sub, "a - b", 2, sub, "correctly rounded", "[-1.0, 1.0]", "[-0.75, 0.75]", "[-0.75, 0.75]"},
    {Op::Mul, "a * b", 2, mul, "correctly rounded", "[-0.989, 0.125]", "[-0.782, 0.625]", "[-0.78125, 0.625]"},
    {Op::Div, "a / b", 2, div, "2.5 ulp (|b| in [2^-126, 2^126])", "[-2.869, 0.094]", "[-1.199, 1.375]",
     "[-1.19902, 1.37442]"},
    {Op::Sqrt, "sqrt", 1, sqrt_, "as 1 / inversesqrt", "-", "-", "-"},
    {Op::InverseSqrt, "inversesqrt", 1, rsqrt, "2 ulp", "-", "-", "-"},
    {Op::Rcp, "1 / x", 1, rcp, "2.5 ulp", "-", "-", "-"},
    {Op::Exp2, "exp2", 1, exp2_, "3 + 2|x| ulp", "-", "-", "-"},
    {Op::Log2, "log2", 1, log2_, "3 ulp; absolute 2^-21 in [0.5, 2]", "-", "-", "-"},
    {Op::Sin, "sin", 1, sin_, "absolute 2^-11 in [-pi, pi]", "-", "-", "-"},
    {Op::Cos, "cos", 1, cos_, "absolute 2^-11 in [-pi, pi]", "-", "-", "-"},
    {Op::Pow, "pow", 2, pow_, "as exp2(y log2 x)", "-", "-", "-"}};

float bits_float(uint32_t u) { return std::bit_cast<float>(u); }
bool tiny(float v) { return std::fpclassify(v) == FP_SUBNORMAL; }

// Inputs of a case in one of its two domains: 0 the whole range, 1 the hard cases.
struct Gen {
  std::mt19937 rng;
  explicit Gen(uint32_t seed) : rng(seed) {}
  float any() {  // a random finite float, every binade alike
    for (;;) {
      float f = bits_float(uint32_t(rng()));
      if (std::isfinite(f)) return f;
    }
  }
  float positive() { return std::fabs(any()); }
  // a divisor in Vulkan's domain for a / b, |b| in [2^-126, 2^126], or outside it (|b| above
  // 2^126, or a denormal)
  float divisor(bool in_domain) {
    for (;;) {
      float b = std::fabs(any());
      if ((b >= 0x1p-126f && b <= 0x1p126f) == in_domain) return rng() % 2 ? b : -b;
    }
  }
  float uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); }
  float near_power_of_two() {  // 2^k (1 + i ulp) or 2^k (2 - i ulp), small i
    int k = int(rng() % 200) - 100, i = int(rng() % 8);
    float m = rng() % 2 ? 1.0f + float(i) * 0x1p-23f : 2.0f - float(i) * 0x1p-23f;
    return (rng() % 2 ? -1.0f : 1.0f) * std::ldexp(m, k);
  }
  float denormal() { return bits_float(uint32_t(rng() % 0x00800000u) | (rng() % 2 ? 0x80000000u : 0u)); }
  std::pair<float, float> pair(Op op, int domain) {
    if (domain == 0) {
      switch (op) {
        case Op::Sqrt:
        case Op::InverseSqrt:
        case Op::Log2:
          return {positive(), 0};
        case Op::Exp2:
          return {uniform(-150, 128), 0};
        case Op::Sin:
        case Op::Cos:
          return {uniform(-3.14159265f, 3.14159265f), 0};
        case Op::Pow:
          return {uniform(0, 16), uniform(-8, 8)};
        case Op::Div:
          return {any(), divisor(true)};
        default:
          return {any(), any()};
      }
    }
    if (domain == 2) return {any(), divisor(false)};  // a / b only: outside Vulkan's domain
    float a = near_power_of_two(), r = float(rng() % 4);
    switch (op) {
      case Op::Add:  // cancellation, near powers of two, denormals
        return r == 0   ? std::pair{a, -a * (1 + float(int(rng() % 64) - 32) * 0x1p-23f)}
               : r == 1 ? std::pair{denormal(), denormal()}
                        : std::pair{a, near_power_of_two()};
      case Op::Sub:
        return r == 0   ? std::pair{a, a * (1 + float(int(rng() % 64) - 32) * 0x1p-23f)}
               : r == 1 ? std::pair{denormal(), denormal()}
                        : std::pair{a, near_power_of_two()};
      case Op::Mul:
      case Op::Div:  // operands near powers of two; products and quotients into the denormals
        return r == 0 ? std::pair{std::ldexp(uniform(1, 2), -100), std::ldexp(uniform(1, 2), op == Op::Mul ? -40 : 40)}
                      : std::pair{a, near_power_of_two()};
      case Op::Sqrt:
      case Op::InverseSqrt:
      case Op::Rcp:
        return {r == 0 ? std::fabs(denormal()) : std::fabs(a), 0};
      case Op::Log2:
        return {r == 0 ? std::fabs(denormal()) : uniform(0.5f, 2.0f), 0};
      case Op::Exp2:
        return {uniform(-1, 1) * std::ldexp(1.0f, -int(rng() % 24)), 0};
      case Op::Sin:
      case Op::Cos:
        return {any(), 0};  // beyond [-pi, pi]: Vulkan promises nothing
      default:
        return {uniform(0.5f, 2.0f), uniform(-64, 64)};  // pow: results near under/overflow
    }
  }
};

// Each case's input domains; a / b's first is Vulkan's domain for division, and a third, outside
// it, is measured apart and labelled so (Vulkan promises nothing there).
const char* kDomains[12][3] = {{"any floats", "cancellation, powers of 2, denormals"},
                               {"any floats", "cancellation, powers of 2, denormals"},
                               {"any floats", "powers of 2, denormal products"},
                               {"any a, |b| in [2^-126, 2^126]: Vulkan's domain", "powers of 2, denormal quotients",
                                "any a, |b| outside [2^-126, 2^126]: OUTSIDE Vulkan's domain"},
                               {"x > 0", "powers of 2, denormals"},
                               {"x > 0", "powers of 2, denormals"},
                               {"any floats", "powers of 2, denormals"},
                               {"[-150, 128]", "near 0"},
                               {"x > 0", "[0.5, 2], denormals"},
                               {"[-pi, pi]", "any floats"},
                               {"[-pi, pi]", "any floats"},
                               {"x in [0, 16], y in [-8, 8]", "x in [0.5, 2], y in [-64, 64]"}};

// The errors of one chunk on `threads` threads into [lo, hi], correctly rounded and skipped counts.
struct Tally {
  double lo = INFINITY, hi = -INFINITY;  // the range of what was measured (none: [0, 0] once reported)
  uint64_t count = 0, skipped = 0, correct = 0, denormal = 0, denormal_correct = 0;
  // One input whose exact result is a finite float's size: `cr` is it rounded to float, `ex` its
  // binade (|exact| in [2^(ex-1), 2^ex)), `error(ulp_exp)` (got - exact) / 2^ulp_exp.
  template <class Error>
  void add(bool denormal_input, bool denormal_exact, float g, float cr, long ex, Error error) {
    if (denormal_input || denormal_exact) {
      ++denormal;
      denormal_correct += g == cr;
      return;
    }
    ++count;
    if (g == cr) ++correct;
    if (!std::isfinite(g)) {
      (std::isnan(g) || g > 0 ? hi : lo) = std::isnan(g) || g > 0 ? INFINITY : -INFINITY;
      return;
    }
    double err = error(std::max(ex - 24, -149L));  // the ulp of the exact value's binade (2^-149 among the denormals)
    lo = std::min(lo, err), hi = std::max(hi, err);
  }
  void merge(const Tally& t) {
    lo = std::min(lo, t.lo), hi = std::max(hi, t.hi);
    count += t.count, skipped += t.skipped, correct += t.correct;
    denormal += t.denormal, denormal_correct += t.denormal_correct;
  }
};

void measure(const Case& c, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
             const std::vector<uint32_t>& got, size_t from, size_t to, Tally& t) {
  mpfr_t x, y, e, d;
  mpfr_inits2(80, x, y, e, d,
              (mpfr_ptr) nullptr);  // the difference with a float is exact at 80 bits but for far apart values
  for (size_t i = from; i < to; ++i) {
    mpfr_set_flt(x, bits_float(a[i]), MPFR_RNDN);
    mpfr_set_flt(y, bits_float(b[i]), MPFR_RNDN);
    c.exact(e, x, y);
    if (!mpfr_number_p(e) || std::fabs(mpfr_get_d(e, MPFR_RNDN)) > double(FLT_MAX)) {  // no finite float result
      ++t.skipped;
      continue;
    }
    const float fx = bits_float(a[i]), fy = bits_float(b[i]), g = bits_float(got[i]);
    t.add(tiny(fx) || (c.arity == 2 && tiny(fy)),
          !mpfr_zero_p(e) && std::fabs(mpfr_get_d(e, MPFR_RNDN)) < double(FLT_MIN), g, mpfr_get_flt(e, MPFR_RNDN),
          mpfr_zero_p(e) ? -148 : long(mpfr_get_exp(e)), [&](long ulp_exp) {
            mpfr_set_flt(d, g, MPFR_RNDN);
            mpfr_sub(d, d, e, MPFR_RNDN);
            return std::ldexp(mpfr_get_d(d, MPFR_RNDN), int(-ulp_exp));
          });
  }
  mpfr_clears(x, y, e, d, (mpfr_ptr) nullptr);
}

// The same without MPFR, where a wider format is exact enough and ten to a hundred times faster:
// + - * / sqrt and 1 / x in double: the result is correctly rounded to 53 bits, and 53 >= 2 * 24
// + 2, so rounding it to float gives the correctly rounded float (double rounding is innocuous
// for these operations: Figueroa 1995), and the error it measures differs from the exact one by at
// most 2^-29 ulp. exp2, log2, pow, inversesqrt, sin and cos in long double (64 bits): within an
// ulp or two of 2^-64, so the errors are exact to 2^-38 ulp and a result rounds otherwise than the
// exact one only within 2^-62 of a midpoint between floats. glibc's sinl and cosl reduce their
// argument in software, exactly, not with the x87's fsin: against MPFR at 200 bits on 200 000
// floats drawn from every exponent, up to 3.4e38, their largest relative error was 2^-63.1 (and
// 30 times faster).
template <class T>
T exact_fast(Op op, T x, T y) {
  switch (op) {
    case Op::Add:
      return x + y;
    case Op::Sub:
      return x - y;
    case Op::Mul:
      return x * y;
    case Op::Div:
      return x / y;
    case Op::Rcp:
      return T(1) / x;
    case Op::Sqrt:
      return std::sqrt(x);
    case Op::InverseSqrt:
      return T(1) / std::sqrt(x);
    case Op::Exp2:
      return std::exp2(x);
    case Op::Log2:
      return std::log2(x);
    case Op::Sin:
      return std::sin(x);
    case Op::Cos:
      return std::cos(x);
    default:
      return std::pow(x, y);
  }
}

template <class T>
void measure_fast(const Case& c, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
                  const std::vector<uint32_t>& got, size_t from, size_t to, Tally& t) {
  for (size_t i = from; i < to; ++i) {
    const float fx = bits_float(a[i]), fy = bits_float(b[i]);
    const T e = exact_fast<T>(c.op, T(fx), T(fy));
    if (!std::isfinite(e) || std::fabs(e) > T(FLT_MAX)) {  // no finite float result
      ++t.skipped;
      continue;
    }
    const float g = bits_float(got[i]);
    t.add(tiny(fx) || (c.arity == 2 && tiny(fy)), e != 0 && std::fabs(e) < T(FLT_MIN), g, float(e),
          e == 0 ? -148 : long(std::ilogb(e)) + 1,
          [&](long ulp_exp) { return double(std::ldexp(T(g) - e, int(-ulp_exp))); });
  }
}

void measure_any(const Case& c, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
                 const std::vector<uint32_t>& got, size_t from, size_t to, Tally& t, Exact exact) {
  const bool in_double =
      c.op == Op::Add || c.op == Op::Sub || c.op == Op::Mul || c.op == Op::Div || c.op == Op::Sqrt || c.op == Op::Rcp;
  if (exact == Exact::Mpfr)
    measure(c, a, b, got, from, to, t);
  else if (in_double)
    measure_fast<double>(c, a, b, got, from, to, t);
  else
    measure_fast<long double>(c, a, b, got, from, to, t);
}

}  // namespace

ErrorRange ulp_errors(Op op, const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& got,
                      Exact exact) {
  auto c = std::find_if(std::begin(kCases), std::end(kCases), [&](const Case& k) { return k.op == op; });
  if (c == std::end(kCases)) throw std::invalid_argument("table 3.1 has no such operation");
  auto bits = [](const std::vector<float>& v) {
    std::vector<uint32_t> u(v.size());
    for (size_t i = 0; i < v.size(); ++i) u[i] = std::bit_cast<uint32_t>(v[i]);
    return u;
  };
  Tally t;
  measure_any(*c, bits(a), bits(b), bits(got), 0, a.size(), t, exact);
  if (!t.count) t.lo = t.hi = 0;
  if (std::isinf(t.lo) && t.lo > 0) t.lo = t.hi;
  if (std::isinf(t.hi) && t.hi < 0) t.hi = t.lo;
  ErrorRange r{c->name,   "given", t.count, t.skipped, t.lo, t.hi, t.count ? double(t.correct) / double(t.count) : 0.0,
               c->vulkan, c->r300, c->nv35, c->gtx7800};
  r.denormal_count = t.denormal;
  r.denormal_correct = t.denormal ? double(t.denormal_correct) / double(t.denormal) : 0.0;
  return r;
}

std::vector<ErrorRange> error_ranges(Probes& probes, uint64_t count, uint32_t seed,
                                     const std::function<void(const ErrorRange&)>& progress, Exact exact) {
  std::vector<ErrorRange> rows;
  const uint32_t threads = std::max(1u, std::thread::hardware_concurrency());
  // Each row draws its inputs from a generator of its own: the rows of a batch, one a core, draw
  // theirs at once (the same inputs as one after the other), then run and are measured in turn.
  std::vector<std::pair<size_t, int>> all;
  for (size_t k = 0; k < std::size(kCases); ++k)
    for (int domain = 0; domain < (kDomains[k][2] ? 3 : 2); ++domain) all.push_back({k, domain});
  struct Drawn {
    std::vector<uint32_t> a, b;
  };
  std::map<std::pair<size_t, int>, Drawn> drawn;
  for (size_t row = 0; row < all.size(); ++row) {
    const auto [k, domain] = all[row];
    if (row % threads == 0) {  // the next batch's inputs
      drawn.clear();
      std::vector<std::thread> pool;
      for (size_t r = row; r < std::min(all.size(), size_t(row + threads)); ++r) {
        Drawn& d = drawn[all[r]];
        pool.emplace_back([&d, &all, r, seed, count] {
          const auto [rk, rd] = all[r];
          Gen gen(seed + uint32_t(17 * rk + rd));
          d.a.resize(count), d.b.resize(count);
          for (uint64_t i = 0; i < count; ++i) {
            auto [x, y] = gen.pair(kCases[rk].op, rd);
            d.a[i] = std::bit_cast<uint32_t>(x), d.b[i] = std::bit_cast<uint32_t>(y);
          }
        });
      }
      for (auto& th : pool) th.join();
    }
    const Case& c = kCases[k];
    const Drawn& d = drawn.at({k, domain});
    {
      Tally total;
      for (uint64_t done = 0; done < count;) {
        const size_t n = size_t(std::min<uint64_t>(count - done, 1u << 21));
        std::vector<uint32_t> a(d.a.begin() + long(done), d.a.begin() + long(done + n)),
            b(d.b.begin() + long(done), d.b.begin() + long(done + n)), z(n, 0);
        auto got = probes.run(c.op, a, b, z);
        std::vector<Tally> part(threads);
        std::vector<std::thread> pool;
        for (uint32_t t = 0; t < threads; ++t)
          pool.emplace_back(
              [&, t] { measure_any(c, a, b, got, n * t / threads, n * (t + 1) / threads, part[t], exact); });
        for (auto& th : pool) th.join();
        for (auto& p : part) total.merge(p);
        done += n;
      }
      if (!total.count) total.lo = total.hi = 0;
      if (std::isinf(total.lo) && total.lo > 0) total.lo = total.hi;  // every error on one side, infinite
      if (std::isinf(total.hi) && total.hi < 0) total.hi = total.lo;
      ErrorRange r{c.name,
                   kDomains[k][domain],
                   total.count,
                   total.skipped,
                   total.lo,
                   total.hi,
                   total.count ? double(total.correct) / double(total.count) : 0.0,
                   domain == 2 ? "nothing: outside its domain" : c.vulkan,
                   domain == 0 ? c.r300 : "-",
                   domain == 0 ? c.nv35 : "-",
                   domain == 0 ? c.gtx7800 : "-"};
      r.denormal_count = total.denormal;
      r.denormal_correct = total.denormal ? double(total.denormal_correct) / double(total.denormal) : 0.0;
      if (progress) progress(r);
      rows.push_back(r);
    }
  }
  return rows;
}

}  // namespace floatlab
