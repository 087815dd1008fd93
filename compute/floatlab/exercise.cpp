// The float lab's exercises (Da Graça 2006). Ch. 4: Add12 and Mul12, the exact
// transformations under the float-float operators: s + e = a + b and p + e = a·b exactly, s
// and p the rounded results. The twin is MPFR itself: the exact sum or product, its rounding
// to float and the exact remainder (which is a float); shipped kernel: the lab's
// floatfloat.comp (ops 0 and 1). Ch. 3: the probes of the adder and the multiplier (below).
#include "compute/exercise/operator.h"
#include "compute/floatlab/floatfloat.h"
#include "compute/floatlab/probes.h"

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

namespace exercise {

namespace {

// An MPFR number wide enough for any sum or product of two floats, exactly.
struct Exact {
  mpfr_t v;
  Exact() { mpfr_init2(v, 320); }
  ~Exact() { mpfr_clear(v); }
  Exact(const Exact&) = delete;
  Exact& operator=(const Exact&) = delete;
};

// op 0: a + b; op 1: a·b; exactly.
void exact_result(Exact& out, uint32_t op, float a, float b) {
  Exact x, y;
  mpfr_set_flt(x.v, a, MPFR_RNDN);
  mpfr_set_flt(y.v, b, MPFR_RNDN);
  if (op == 0)
    mpfr_add(out.v, x.v, y.v, MPFR_RNDN);
  else
    mpfr_mul(out.v, x.v, y.v, MPFR_RNDN);
}

// The inputs a case asks for: random float-floats' high parts (exponents -20..20), or pairs
// that catch the usual mistakes.
void inputs(const Case& c, std::vector<float>& a, std::vector<float>& b) {
  uint32_t n = c.u("n");
  auto x = floatlab::random_ff(n, c.seed), y = floatlab::random_ff(n, c.seed + 1);
  std::string kind = c.s("inputs");
  std::mt19937 rng(c.seed + 7);
  a.resize(n), b.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = x[i][0], b[i] = y[i][0];
    if (kind == "b-larger" && std::fabs(a[i]) > std::fabs(b[i])) std::swap(a[i], b[i]);  // |a| < |b|
    if (kind == "cancel") b[i] = -a[i] * (1.0f + float(rng() % 64) * 0x1p-23f);          // a + b loses its high bits
    if (kind == "far") b[i] = a[i] * std::ldexp(1.0f + float(rng() % 1024) / 1024.0f, -int(20 + rng() % 20));
  }
}

std::string text_of(const Exact& e) {
  char* s = nullptr;
  mpfr_asprintf(&s, "%.17Rg", e.v);
  std::string out = s ? s : "?";
  mpfr_free_str(s);
  return out;
}

class Add12Mul12 : public Operator {
 public:
  struct Push {
    uint32_t n, op;  // op 0: Add12, 1: Mul12 (floatlab_push.h's FloatOpPush)
  };
  std::string id() const override { return "floatlab.add12-mul12"; }
  std::string shipped_kernel() const override { return "shaders/common/floatfloat.glsl (add12, mul12)"; }
  Problem problem(const gpu::Context&, const Case& c, gpu::Dim3) const override {
    std::vector<float> a, b;
    inputs(c, a, b);
    uint32_t n = c.u("n");
    std::vector<float> va(2 * n, 0.0f), vb(2 * n, 0.0f);
    for (uint32_t i = 0; i < n; ++i) va[2 * i] = a[i], vb[2 * i] = b[i];
    Problem p;
    p.arrays = {Array{"A", Array::Role::In, Elem::F32, 2, 0, words_of(va)},
                Array{"B", Array::Role::In, Elem::F32, 2, 0, words_of(vb)},
                Array{"OUT", Array::Role::Out, Elem::F32, 2, 0, words_of(std::vector<float>(2 * n, NAN))}};
    p.set_push(Push{.n = n, .op = c.u("op")});
    p.invocations = {n, 1, 1};
    return p;
  }
  std::vector<Want> twin(const Case& c, const Problem& p) const override {
    uint32_t n = c.u("n"), op = c.u("op");
    Want w;
    Exact exact, rest;
    for (uint32_t i = 0; i < n; ++i) {
      exact_result(exact, op, word_float(p.arrays[0].words[2 * i]), word_float(p.arrays[1].words[2 * i]));
      float hi = mpfr_get_flt(exact.v, MPFR_RNDN);  // the rounded result
      mpfr_sub_d(rest.v, exact.v, double(hi), MPFR_RNDN);
      float lo = mpfr_get_flt(rest.v, MPFR_RNDN);  // the remainder, a float (no underflow at these exponents)
      if (mpfr_cmp_d(rest.v, double(lo)) != 0) throw std::logic_error("Add12/Mul12 twin: the remainder is no float");
      w.value.push_back(hi), w.value.push_back(lo);
    }
    return {{}, {}, w};
  }
  ShippedRun shipped(gpu::Context& ctx, const Case&, const Problem& p) const override {
    return run_shipped_spirv(ctx, "floatlab/floatfloat.comp", p);
  }
  std::string inputs_at(const Case& c, const Problem& p, size_t, size_t i) const override {
    float a = word_float(p.arrays[0].words[2 * i]), b = word_float(p.arrays[1].words[2 * i]);
    Exact exact;
    exact_result(exact, c.u("op"), a, b);
    std::ostringstream s;
    s.precision(9);
    s << "A[" << i << "].x = " << a << " (" << std::hexfloat << a << std::defaultfloat << "), B[" << i << "].x = " << b
      << " (" << std::hexfloat << b << std::defaultfloat << "); the exact " << (c.u("op") == 0 ? "sum" : "product")
      << " is " << text_of(exact);
    return s.str();
  }
};

// The probe kernel's operations the probe exercise asks for (probe.comp's `op`, probes.h's Op).
constexpr uint32_t kProbeOps[] = {uint32_t(floatlab::Op::Add), uint32_t(floatlab::Op::Sub), uint32_t(floatlab::Op::Mul),
                                  uint32_t(floatlab::Op::SubSub), uint32_t(floatlab::Op::MadPrecise)};

// What binary32 arithmetic rounding to nearest even gives for probe operation `op` on a, b, c:
// each operation exact in MPFR, then rounded to float (the float lab's rounding reference).
float probe_exact(uint32_t op, float a, float b, float c) {
  Exact x;
  auto rounded = [&](float l, float r, bool product, bool minus) {
    Exact u, v;
    mpfr_set_flt(u.v, l, MPFR_RNDN);
    mpfr_set_flt(v.v, r, MPFR_RNDN);
    if (product)
      mpfr_mul(x.v, u.v, v.v, MPFR_RNDN);
    else if (minus)
      mpfr_sub(x.v, u.v, v.v, MPFR_RNDN);
    else
      mpfr_add(x.v, u.v, v.v, MPFR_RNDN);
    return mpfr_get_flt(x.v, MPFR_RNDN);
  };
  switch (floatlab::Op(op)) {
    case floatlab::Op::Add:
      return rounded(a, b, false, false);
    case floatlab::Op::Sub:
      return rounded(a, b, false, true);
    case floatlab::Op::Mul:
      return rounded(a, b, true, false);
    case floatlab::Op::SubSub:  // two adders: a - b rounded, then minus c rounded
      return rounded(rounded(a, b, false, true), c, false, true);
    case floatlab::Op::MadPrecise:  // the product rounded, then the sum rounded
      return rounded(rounded(a, b, true, false), c, false, false);
    default:
      throw std::invalid_argument("the probe exercise has no operation " + std::to_string(op));
  }
}

// The operands a probe case asks for: "adder" (TESTs 3, 5, 6 of Da Graça 2006, §3.2: a = c =
// 1.5, b = 2^-i for i = 1..n), "ties" (b half an ulp of a: a tie, rounded to the even
// neighbour), "cancel" (c within a few ulps of a - b) or "random" (exponents -20..20, both signs).
void probe_inputs(const Case& c, std::vector<float>& a, std::vector<float>& b, std::vector<float>& cc) {
  uint32_t n = c.u("n");
  std::string kind = c.s("inputs");
  std::mt19937 rng(c.seed);
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  auto any = [&] { return (rng() & 1 ? -1.0f : 1.0f) * std::ldexp(mantissa(rng), int(rng() % 41) - 20); };
  a.resize(n), b.resize(n), cc.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = any(), b[i] = any(), cc[i] = any();
    if (kind == "adder") a[i] = cc[i] = 1.5f, b[i] = std::ldexp(1.0f, -int(i + 1));
    if (kind == "ties") {  // a in [2^e, 2^e+1): half its ulp is 2^(e-24), the tie with either sign
      int e = 0;
      std::frexp(a[i], &e);  // |a| = m·2^e, m in [0.5, 1)
      b[i] = (rng() & 1 ? -1.0f : 1.0f) * std::ldexp(1.0f, e - 25);
    }
    if (kind == "cancel") {
      volatile float d = a[i] - b[i];  // computed at run time, in binary32
      cc[i] = d * (1.0f + float(int(rng() % 16) - 8) * 0x1p-23f);
    }
  }
}

// A probe of the float lab (Da Graça 2006, §3.2, the Paranoia-style tests of its chapter 3):
// one operation over arrays of bit patterns, so that what the hardware does travels untouched.
// Twin: MPFR, each operation exact then rounded to binary32; shipped kernel: the lab's probe.comp.
class Probe : public Operator {
 public:
  struct Push {
    uint32_t n, op;
    float one, zero;  // floatlab_push.h's FloatProbePush
  };
  std::string id() const override { return "floatlab.probe"; }
  std::string shipped_kernel() const override { return "shaders/floatlab/probe.comp"; }
  Problem problem(const gpu::Context&, const Case& c, gpu::Dim3) const override {
    uint32_t op = c.u("op");
    if (std::find(std::begin(kProbeOps), std::end(kProbeOps), op) == std::end(kProbeOps))
      throw std::invalid_argument("the probe exercise has no operation " + std::to_string(op));
    std::vector<float> a, b, cc;
    probe_inputs(c, a, b, cc);
    uint32_t n = uint32_t(a.size());
    Problem p;
    p.arrays = {Array{"A", Array::Role::In, Elem::F32, 1, 0, words_of(a)},
                Array{"B", Array::Role::In, Elem::F32, 1, 0, words_of(b)},
                Array{"C", Array::Role::In, Elem::F32, 1, 0, words_of(cc)},
                Array{"OUT", Array::Role::Out, Elem::F32, 1, 0, words_of(std::vector<float>(n, NAN))}};
    p.set_push(Push{.n = n, .op = op, .one = 1.0f, .zero = 0.0f});
    p.invocations = {n, 1, 1};
    return p;
  }
  std::vector<Want> twin(const Case& c, const Problem& p) const override {
    Want w;
    for (size_t i = 0; i < p.arrays[0].words.size(); ++i)
      w.value.push_back(probe_exact(c.u("op"), word_float(p.arrays[0].words[i]), word_float(p.arrays[1].words[i]),
                                    word_float(p.arrays[2].words[i])));
    return {{}, {}, {}, w};
  }
  ShippedRun shipped(gpu::Context& ctx, const Case&, const Problem& p) const override {
    return run_shipped_spirv(ctx, "floatlab/probe.comp", p);
  }
  std::string inputs_at(const Case& c, const Problem& p, size_t, size_t i) const override {
    std::ostringstream s;
    s.precision(9);
    for (size_t k = 0; k < 3; ++k) {
      float v = word_float(p.arrays[k].words[i]);
      s << (k ? ", " : "") << p.arrays[k].name << "[" << i << "] = " << v << " (" << std::hexfloat << v
        << std::defaultfloat << ")";
    }
    float want = probe_exact(c.u("op"), word_float(p.arrays[0].words[i]), word_float(p.arrays[1].words[i]),
                             word_float(p.arrays[2].words[i]));
    s << ", op " << c.u("op") << "; rounded to nearest even: " << std::hexfloat << want;
    return s.str();
  }
};

}  // namespace

std::vector<std::unique_ptr<Operator>> floatlab_operators() {
  std::vector<std::unique_ptr<Operator>> v;
  v.push_back(std::make_unique<Add12Mul12>());
  v.push_back(std::make_unique<Probe>());
  return v;
}

}  // namespace exercise
