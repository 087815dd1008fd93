// The float lab's exercise (Da Graça 2006, ch. 4): Add12 and Mul12, the exact transformations
// under the float-float operators: s + e = a + b and p + e = a·b exactly, s and p the rounded
// results. The twin is MPFR itself: the exact sum or product, its rounding to float and the
// exact remainder (which is a float); shipped kernel: the lab's floatfloat.comp (ops 0 and 1).
#include "compute/exercise/operators.h"
#include "compute/floatlab/floatfloat.h"

#include <mpfr.h>

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
    p.set_push(Push{n, c.u("op")});
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

}  // namespace

std::vector<std::unique_ptr<Operator>> floatlab_operators() {
  std::vector<std::unique_ptr<Operator>> v;
  v.push_back(std::make_unique<Add12Mul12>());
  return v;
}

}  // namespace exercise
