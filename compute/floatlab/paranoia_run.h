// Paranoia's pieces (paranoia.cpp): the batch runner that asks the float machine, a small
// expression syntax for its programs, the rounding classifications, and the groups of checks:
// the annex's (paranoia_annex.cpp), Kahan's classic ones (paranoia_classic.cpp), and the
// milestones of netlib's paranoia.c ported one by one (paranoia_integers.cpp: 7-30;
// paranoia_powers.cpp: 90-100, 140-150; paranoia_underflow.cpp: 110-130; paranoia_overflow.cpp:
// 160-200). Internal to compute/floatlab.
#pragma once
#include "compute/floatlab/paranoia.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace floatlab::paranoia_detail {

using Build = std::function<uint8_t(Program&)>;

inline std::string fmt(const char* f, double a) {
  char buf[96];
  std::snprintf(buf, sizeof buf, f, a);
  return buf;
}

// The float nearest to x (x86's long double holds the products and quotients of floats well
// enough for these operands), and x chopped towards zero.
inline float nearest(long double x) { return float(x); }
inline float chopped(long double x) {
  float f = float(x);
  if (std::fabs(static_cast<long double>(f)) > std::fabs(x)) f = std::nextafter(f, 0.0f);
  return f;
}

class Run {
 public:
  Run(const Evaluator& eval, ParanoiaReport& r) : eval_(eval), r_(r) {}

  // One program a builder, in one batch; each builder's returned register.
  std::vector<float> many(const std::vector<Build>& builders) {
    std::vector<Program> ps(builders.size());
    std::vector<uint8_t> at(builders.size());
    for (size_t i = 0; i < builders.size(); ++i) at[i] = builders[i](ps[i]);
    auto regs = eval_(ps);
    std::vector<float> out(builders.size());
    for (size_t i = 0; i < builders.size(); ++i) out[i] = regs[i][at[i]];
    return out;
  }
  float one(const Build& b) { return many({b})[0]; }
  // One program, several of its registers.
  std::vector<float> values(const std::function<std::vector<uint8_t>(Program&)>& build) {
    Program p;
    auto at = build(p);
    auto regs = eval_({p})[0];
    std::vector<float> out;
    for (uint8_t r : at) out.push_back(regs[r]);
    return out;
  }

  // `v`: what paranoia.c counts for the line; `says`: the class its words name where that differs.
  void line(const std::string& check, const std::string& message, Verdict v = Verdict::Ok, bool summary = false,
            Verdict says = Verdict::Ok) {
    r_.lines.push_back({check, message, v, summary, says});
  }
  void summary(const std::string& check, const std::string& message, Verdict v = Verdict::Ok,
               Verdict says = Verdict::Ok) {
    line(check, message, v, true, says);
  }
  bool failed() const { return r_.count(Verdict::Failure) > 0; }

 private:
  const Evaluator& eval_;
  ParanoiaReport& r_;
};

// A value in a register of a program being written, so a check reads as paranoia.c writes it:
// `Dev h = dev(p, 0.5f), z = dev(p, Z); return ((1 + (h * z + 32 * z * z)) - 1).r;` builds the
// program that computes (One + (Half * Z + ThirtyTwo * Z * Z)) - One on the device, left to right
// as C evaluates it. A float operand takes a register of its own.
struct Dev {
  Program* p;
  uint8_t r;
};
inline Dev dev(Program& p, float x) { return {&p, p.in(x)}; }
inline Dev operator+(Dev a, Dev b) { return {a.p, a.p->add(a.r, b.r)}; }
inline Dev operator-(Dev a, Dev b) { return {a.p, a.p->sub(a.r, b.r)}; }
inline Dev operator*(Dev a, Dev b) { return {a.p, a.p->mul(a.r, b.r)}; }
inline Dev operator/(Dev a, Dev b) { return {a.p, a.p->div(a.r, b.r)}; }
inline Dev operator-(Dev a) { return {a.p, a.p->neg(a.r)}; }
inline Dev operator+(Dev a, float b) { return a + dev(*a.p, b); }
inline Dev operator-(Dev a, float b) { return a - dev(*a.p, b); }
inline Dev operator*(Dev a, float b) { return a * dev(*a.p, b); }
inline Dev operator/(Dev a, float b) { return a / dev(*a.p, b); }
inline Dev operator+(float a, Dev b) { return dev(*b.p, a) + b; }
inline Dev operator-(float a, Dev b) { return dev(*b.p, a) - b; }
inline Dev operator*(float a, Dev b) { return dev(*b.p, a) * b; }
inline Dev operator/(float a, Dev b) { return dev(*b.p, a) / b; }
inline Dev sqrt(Dev a) { return {a.p, a.p->sqrt(a.r)}; }
inline Dev pow(Dev a, Dev b) { return {a.p, a.p->pow(a.r, b.r)}; }
// One value computed on the device: calc(run, [&](Program& p) { return dev(p, X) * 2; }).
template <class F>
float calc(Run& run, F f) {
  return run.one([&](Program& p) { return f(p).r; });
}

// printf into a string.
template <class... A>
std::string say(const char* f, A... a) {
  char buf[512];
  std::snprintf(buf, sizeof buf, f, a...);
  return buf;
}

// How a result compares with the exact value: correctly rounded (the annex's "EXACT"), chopped,
// both (the exact value's nearest float lies towards zero), or neither.
struct Rounding {
  bool exact = false, chopped = false;
};
inline Rounding classify(float got, long double exact) { return {got == nearest(exact), got == chopped(exact)}; }
inline const char* rounding_word(Rounding r) { return r.exact ? "EXACT" : r.chopped ? "CHOPPED" : "NEITHER"; }
// paranoia.c's classes of an operation's rounding (its RMult, RDiv, RAddSub, RSqrt).
enum class Rounds { Rounded, Chopped, Other };
// A set's verdict: every result correctly rounded, every one chopped, or neither. The line counts
// nothing: paranoia.c counts all failures to round or chop (and missing guard digits) as one FLAW,
// after its milestone 50 (classic_checks).
inline Rounds rounding_verdict(Run& run, const std::string& check, const std::string& who,
                               const std::vector<Rounding>& rs) {
  bool exact = true, chop = true;
  for (auto r : rs) exact &= r.exact, chop &= r.chopped;
  if (exact) return run.summary(check, who + ": Is correctly rounded"), Rounds::Rounded;
  if (chop) return run.summary(check, who + ": Is chopped"), Rounds::Chopped;
  run.summary(check, who + ": Is neither chopped nor correctly rounded");
  return Rounds::Other;
}

// What the guard-digit and rounding checks found, as paranoia.c's GMult, GDiv, GAddSub, RMult,
// RDiv, RAddSub and RSqrt record it.
struct Findings {
  bool guard_mul = true, guard_div = true, guard_sub = true;
  Rounds mul = Rounds::Other, div = Rounds::Other, add_sub = Rounds::Other, sqrt = Rounds::Other;
};

// x as base + k·unit ("1.5+3*U2"), as the annex names its results.
inline std::string named(float x, float base, float unit, const char* base_name, const char* unit_name) {
  double k = (double(x) - double(base)) / double(unit);
  if (k == 0) return base_name;
  char buf[80];
  std::snprintf(buf, sizeof buf, "%s%s%g*%s", base_name, k > 0 ? "+" : "-", std::fabs(k), unit_name);
  return buf;
}

// What radix and precision gave: the radix, U1 (the gap below 1), U2 (above 1), F9 = 1 - U1,
// B9 = radix - U2, W = radix^precision, each computed on the device.
struct Constants {
  float radix, U1, U2, F9, B9;
  float W = 0, precision = 0;
};

// What the underflow and overflow milestones find (paranoia.c's names), for the later ones.
struct Range {
  float A1 = 0, AInvrse = 0, BInvrse = 0;        // a small base (2 for radix 2) and 1/A1, 1/radix
  float C = 0, CInvrse = 0, H = 0, HInvrse = 0;  // C: a power of 1/radix near the underflow
  float E0 = 0, E9 = 0, UfThold = 0, PseudoZero = 0;
  float V = 0, V0 = 0;  // the overflow threshold, and what overflow saturates at
  int N = 0;            // discrepancies counted by the powers and by TstPtUf (paranoia.c's N)
};

// Milestones 7 and 10's first half: the small integers the program relies on, computed on the device.
void small_integers(Run& run);
// Milestone 10's second half (U1 and U2 found again another way), 25 and 30; may improve U1, U2.
void recalculate_precision(Run& run, Constants& c);
void precision_checks(Run& run, const Constants& c);
// The annex's checks, in its order: comparison fuzz, guard digits of * / -, the rounding tests of
// * / - (its lines 2390-2720), commutativity.
void annex_checks(Run& run, const Constants& c, uint32_t seed, Findings& f);
// Kahan's classic ones: sticky bit, the one FLAW of milestone 50, square root; the milestones
// 90-200 (below); special values; then the annex's error bounds of + - * / over random operands.
void classic_checks(Run& run, const Constants& c, ParanoiaReport& rep, const Evaluator& eval, uint32_t random_pairs,
                    uint32_t seed, Findings& f);
void powers_of_integers(Run& run, const Constants& c, Range& g);              // 90, 100
void underflow(Run& run, const Constants& c, Range& g, ParanoiaReport& rep);  // 110, 120, 130
void powers_near_limits(Run& run, const Constants& c, Range& g);              // 140, 150
void overflow(Run& run, const Constants& c, Range& g, ParanoiaReport& rep);   // 160 to 200

}  // namespace floatlab::paranoia_detail
