// Paranoia's pieces (paranoia.cpp): the batch runner that asks the float machine, the rounding
// classifications, and the two groups of checks, the annex's (paranoia_annex.cpp) and Kahan's
// classic ones (paranoia_classic.cpp). Internal to compute/floatlab.
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

  void line(const std::string& check, const std::string& message, Verdict v = Verdict::Ok, bool summary = false) {
    r_.lines.push_back({check, message, v, summary});
  }
  void summary(const std::string& check, const std::string& message, Verdict v = Verdict::Ok) {
    line(check, message, v, true);
  }

 private:
  const Evaluator& eval_;
  ParanoiaReport& r_;
};

// How a result compares with the exact value: correctly rounded (the annex's "EXACT"), chopped,
// both (the exact value's nearest float lies towards zero), or neither.
struct Rounding {
  bool exact = false, chopped = false;
};
inline Rounding classify(float got, long double exact) { return {got == nearest(exact), got == chopped(exact)}; }
inline const char* rounding_word(Rounding r) { return r.exact ? "EXACT" : r.chopped ? "CHOPPED" : "NEITHER"; }
// A set's verdict: every result correctly rounded, every one chopped, or neither (a FLAW).
inline void rounding_verdict(Run& run, const std::string& check, const std::string& who,
                             const std::vector<Rounding>& rs) {
  bool exact = true, chop = true;
  for (auto r : rs) exact &= r.exact, chop &= r.chopped;
  if (exact)
    run.summary(check, who + ": Is correctly rounded");
  else if (chop)
    run.summary(check, who + ": Is chopped");
  else
    run.summary(check, who + ": Is neither chopped nor correctly rounded", Verdict::Flaw);
}

// x as base + k·unit ("1.5+3*U2"), as the annex names its results.
inline std::string named(float x, float base, float unit, const char* base_name, const char* unit_name) {
  double k = (double(x) - double(base)) / double(unit);
  if (k == 0) return base_name;
  char buf[80];
  std::snprintf(buf, sizeof buf, "%s%s%g*%s", base_name, k > 0 ? "+" : "-", std::fabs(k), unit_name);
  return buf;
}

// What radix and precision gave: the radix, U1 (the gap below 1), U2 (above 1), F9 = 1 - U1,
// B9 = radix - U2, each computed on the device.
struct Constants {
  float radix, U1, U2, F9, B9;
};

// The annex's checks, in its order: comparison fuzz, guard digits of * / -, the rounding tests of
// * / - (its lines 2390-2720), commutativity.
void annex_checks(Run& run, const Constants& c, uint32_t seed);
// Kahan's classic ones: sticky bit, square root, underflow, overflow, special values; then the
// annex's error bounds of + - * / over random operands.
void classic_checks(Run& run, const Constants& c, ParanoiaReport& rep, const Evaluator& eval, uint32_t random_pairs,
                    uint32_t seed);

}  // namespace floatlab::paranoia_detail
