#include "paranoia.h"

#include <cmath>
#include <cstring>
#include <cstdio>
#include <limits>
#include <random>

namespace floatlab {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Flaw:
      return "FLAW";
    case Verdict::Defect:
      return "DEFECT";
    case Verdict::SeriousDefect:
      return "SERIOUS DEFECT";
    case Verdict::Failure:
      return "FAILURE";
    default:
      return "";
  }
}

int ParanoiaReport::count(Verdict v) const {
  int n = 0;
  for (auto& l : lines) n += l.verdict == v;
  return n;
}

std::string ParanoiaReport::diagnosis() const {
  if (count(Verdict::Failure)) return "The arithmetic diagnosed has unacceptable Serious Defects (FAILUREs).";
  if (count(Verdict::SeriousDefect)) return "The arithmetic diagnosed has unacceptable Serious Defects.";
  if (count(Verdict::Defect)) return "The arithmetic diagnosed may be Acceptable despite inconvenient Defects.";
  if (count(Verdict::Flaw)) return "The arithmetic diagnosed seems Satisfactory though flawed.";
  return "The arithmetic diagnosed appears to be Excellent!";
}

std::vector<std::string> ParanoiaReport::summary() const {
  std::vector<std::string> s = {"SUMMARY", "Stage = " + stage};
  for (auto& l : lines)
    if (l.summary) s.push_back(l.message);
  char buf[160];
  std::snprintf(buf, sizeof buf, "FAILUREs %d, SERIOUS DEFECTs %d, DEFECTs %d, FLAWs %d", count(Verdict::Failure),
                count(Verdict::SeriousDefect), count(Verdict::Defect), count(Verdict::Flaw));
  s.push_back(buf);
  s.push_back(diagnosis());
  return s;
}

const std::vector<std::string>& annex_a_7800gtx() {
  static const std::vector<std::string> a = {
      "SUMMARY",
      "Profile = fp40",
      "Readback seems to work",
      "U1 U2 F9 B9 Verified",
      "----BEGINNING PARANOIA TESTS----",
      "No fuzziness detected in comparison",
      "MULTIPLICATION: Seems to have guard bit",
      "MULTIPLICATION: Accuracy tests passed",
      "DIVISION: FAILURE: Division lacks guard digit",
      "SUBTRACTION: Seems to have guard bit",
      "SUBTRACTION: Comparison and Subtraction consistent (2170)",
      "MULTIPLICATION: Is neither chopped nor correctly rounded",
      "DIVISION: Is neither chopped nor correctly rounded",
      "SUBTRACTION: Is neither chopped nor correctly rounded",
      "SUBTRACTION: (X-Y) + (Y-X) == 0 test passed",
      "SUBTRACTION(less MACs): Is neither chopped nor correctly rounded",
      "SUBTRACTION(less MACs): (X-Y) + (Y-X) == 0 test passed",
      "MULTIPLICATION: 10 pairs commuted",
      "----BEGINNING NON-PARANOIA TESTS----",
      "SUBTRACTION: Appears to have guard bit, no round bit, and rounds operands up at least sometimes",
      "----BEGINNING ERROR MEASUREMENT TESTS----",
      "Error bound for mult= [-0.78125,0.625] ULPs",
      "Error bound for div= [-1.19902,1.37442] ULPs",
      "Error bound for sub= [-0.75,0.75] ULPs",
      "Error bound for add= [-1,0] ULPs"};
  return a;
}

namespace {

using Build = std::function<uint8_t(Program&)>;

std::string fmt(const char* f, double a) {
  char buf[96];
  std::snprintf(buf, sizeof buf, f, a);
  return buf;
}

// The float nearest to x (x86's long double holds the products and quotients of floats well
// enough for these operands), and x chopped towards zero.
float nearest(long double x) { return float(x); }
float chopped(long double x) {
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
Rounding classify(float got, long double exact) { return {got == nearest(exact), got == chopped(exact)}; }
const char* rounding_word(Rounding r) { return r.exact ? "EXACT" : r.chopped ? "CHOPPED" : "NEITHER"; }
// A set's verdict: every result correctly rounded, every one chopped, or neither (a FLAW).
void rounding_verdict(Run& run, const std::string& check, const std::string& who, const std::vector<Rounding>& rs) {
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
std::string named(float x, float base, float unit, const char* base_name, const char* unit_name) {
  double k = (double(x) - double(base)) / double(unit);
  if (k == 0) return base_name;
  char buf[80];
  std::snprintf(buf, sizeof buf, "%s%s%g*%s", base_name, k > 0 ? "+" : "-", std::fabs(k), unit_name);
  return buf;
}

}  // namespace

ParanoiaReport paranoia(const Evaluator& eval, const std::string& stage, uint32_t random_pairs, uint32_t seed) {
  ParanoiaReport rep;
  rep.stage = stage;
  Run run(eval, rep);

  // Readback: special values and a denormal through a move (the annex's "Readback seems to work").
  {
    const float vals[] = {std::numeric_limits<float>::infinity(), -0.0f, std::numeric_limits<float>::denorm_min(),
                          3.0f};
    std::vector<Build> bs;
    for (float v : vals) bs.push_back([v](Program& p) { return p.in(v); });
    auto got = run.many(bs);
    bool same = true;
    for (size_t i = 0; i < got.size(); ++i) same &= std::memcmp(&got[i], &vals[i], 4) == 0;
    run.summary("READBACK", same ? "Readback seems to work" : "FAILURE: values change on their way through the GPU",
                same ? Verdict::Ok : Verdict::Failure);
  }

  // Radix and precision (Paranoia's milestones 0-10): W doubled on the GPU until (W + 1) - W is
  // not 1; then the radix is the first nonzero (W + Y) - W for Y = 1, 2, 4...; then the digits:
  // W multiplied by the radix until (W + 1) - W is not 1.
  const char* RP = "RADIX AND PRECISION";
  float W = 1, Z = 0;
  for (int i = 0; i < 300 && Z == 0; ++i) {
    auto r = run.many({[&](Program& p) { return p.add(p.in(W), p.in(W)); },
                       [&](Program& p) {
                         uint8_t w2 = p.add(p.in(W), p.in(W)), one = p.in(1);
                         return p.sub(p.sub(p.add(w2, one), w2), one);
                       }});
    W = r[0], Z = r[1];
  }
  float radix = 0, Y = 1;
  for (int i = 0; i < 300 && radix == 0; ++i) {
    radix = run.one([&](Program& p) { return p.sub(p.add(p.in(W), p.in(Y)), p.in(W)); });
    Y = run.one([&](Program& p) { return p.add(p.in(Y), p.in(Y)); });
  }
  rep.radix = radix;
  run.line(RP, fmt("Radix = %f .", radix), radix == 2 || radix == 10 ? Verdict::Ok : Verdict::Failure);
  double digits = 0;
  W = 1;
  for (float y = 1; y == 1 && digits < 300;) {
    ++digits;
    W = run.one([&](Program& p) { return p.mul(p.in(W), p.in(radix)); });
    y = run.one([&](Program& p) { return p.sub(p.add(p.in(W), p.in(1)), p.in(W)); });
  }
  rep.precision = digits;
  run.line(RP, fmt("The number of significant digits of the Radix is %f .", digits),
           digits >= 24 ? Verdict::Ok : Verdict::Defect);

  // U1 = 1/W (the gap below 1), U2 = radix·U1 (above 1), F9 = (1/2 - U1) + 1/2, B9 = radix - U2,
  // all on the GPU; then verified.
  const char* UV = "U1 U2 F9 B9";
  auto c = run.many({[&](Program& p) { return p.div(p.in(1), p.in(W)); }});
  const float U1 = c[0];
  c = run.many({[&](Program& p) { return p.mul(p.in(radix), p.in(U1)); },
                [&](Program& p) { return p.add(p.sub(p.in(0.5f), p.in(U1)), p.in(0.5f)); }});
  const float U2 = c[0], F9 = c[1];
  const float B9 = run.one([&](Program& p) { return p.add(p.sub(p.sub(p.in(radix), p.in(1)), p.in(U2)), p.in(1)); });
  rep.u1 = U1, rep.u2 = U2;
  run.line(UV, "Verifying U1 U2 F9 and B9");
  c = run.many({[&](Program& p) { return p.sub(p.in(1), p.in(U1)); },
                [&](Program& p) { return p.add(p.in(F9), p.in(U1)); },
                [&](Program& p) { return p.sub(p.add(p.in(1), p.in(U2)), p.in(1)); },
                [&](Program& p) { return p.add(p.in(B9), p.in(U2)); }});
  bool verified = c[0] == F9 && c[1] == 1 && c[2] == U2 && c[3] == radix && U1 == std::ldexp(1.0f, -24);
  run.summary(UV,
              verified ? "U1 U2 F9 B9 Verified"
                       : "VERIFY U1, U2, F9, B9, FAILURE CAN ALSO MEAN INCOMPLETE CARRY PROPOGATION: FAILURE",
              verified ? Verdict::Ok : Verdict::Failure);
  run.line(UV, fmt("Closest relative separation found is U1 = %.7e .", U1));
  run.line(UV, fmt("The gap between 1 and the next number up is U2 = %.7e .", U2));
  run.summary("", "----BEGINNING PARANOIA TESTS----");

  // Comparison fuzz: X != 1 or (X - 1/2) - 1/2 == 0, for X around 1.
  {
    const char* F = "FUZZY TEST";
    const float xs[] = {1.0f, F9, 1 + U2, 1 - U2, 1 + 2 * U2};
    std::vector<Build> bs;
    for (float x : xs) bs.push_back([x](Program& p) { return p.sub(p.sub(p.in(x), p.in(0.5f)), p.in(0.5f)); });
    auto r = run.many(bs);
    bool ok = true;
    for (size_t i = 0; i < r.size(); ++i) ok &= (xs[i] != 1) == (r[i] != 0);
    run.line(F, "There are two pairs of conditions checked. One of the two must be true.");
    run.summary(F,
                ok ? "No fuzziness detected in comparison"
                   : "SERIOUS DEFECT: comparison is fuzzy: X != 1 yet (X - 1/2) - 1/2 == 0",
                ok ? Verdict::Ok : Verdict::SeriousDefect);
  }

  auto passed = [](bool b) { return b ? "passed" : "failed"; };
  // Guard digits (the annex's lines 1980-2070).
  {
    const char* M = "MULTIPLICATION GUARD BIT TESTS";
    auto r = run.many({[&](Program& p) { return p.mul(p.in(1), p.in(F9)); },
                       [&](Program& p) { return p.mul(p.in(F9), p.in(1)); },
                       [&](Program& p) { return p.mul(p.add(p.in(1), p.in(U2)), p.in(2)); },
                       [&](Program& p) { return p.mul(p.in(2), p.add(p.in(1), p.in(U2))); }});
    bool t[4] = {r[0] == F9, r[1] == F9, r[2] == 2 * (1 + U2), r[3] == r[2]};
    run.line(M, "This first checks that 1*x and x*1 behave the same");
    run.line(M, "Then it checks if (1+U2)*2 and 2*(1+U2) behave the same");
    run.line(M, std::string("Multiplication guard bit tests: ") + passed(t[0]) + " " + passed(t[1]) + " " +
                    passed(t[2]) + " " + passed(t[3]));
    bool ok = t[0] && t[1] && t[2] && t[3];
    run.summary(
        M,
        ok ? "MULTIPLICATION: Seems to have guard bit" : "MULTIPLICATION: FAILURE: * lacks a Guard Digit, so 1*X != X",
        ok ? Verdict::Ok : Verdict::Failure);
  }
  {
    // accuracy: each product one of the two floats around the exact one (faithful)
    const char* A = "MULT ACCURACY TEST";
    const float xs[] = {F9, 1 + U2, B9, 1.5f, 3.0f, 1 - U2, 0.1f, 7.0f / 3};
    std::vector<Build> bs;
    std::vector<long double> exact;
    for (float x : xs)
      for (float y : xs) {
        bs.push_back([x, y](Program& p) { return p.mul(p.in(x), p.in(y)); });
        exact.push_back(static_cast<long double>(x) * y);
      }
    auto r = run.many(bs);
    bool ok = true;
    for (size_t i = 0; i < r.size(); ++i)
      ok &= r[i] == nearest(exact[i]) || r[i] == chopped(exact[i]) ||
            r[i] == std::nextafter(chopped(exact[i]), float(exact[i] * 2));
    run.line(A, "Checks multiplication accuracy per line 1980");
    run.summary(
        A,
        ok ? "MULTIPLICATION: Accuracy tests passed" : "MULTIPLICATION: FAILURE: a product is off by more than an ulp",
        ok ? Verdict::Ok : Verdict::Failure);
  }
  {
    const char* D = "DIVISION GUARD BIT TESTS";
    auto r = run.many(
        {[&](Program& p) { return p.sub(p.div(p.in(1), p.sub(p.in(1), p.in(U2))), p.add(p.in(1), p.in(U2))); },
         [&](Program& p) { return p.div(p.in(1), p.in(3)); }, [&](Program& p) { return p.div(p.in(3), p.in(9)); },
         [&](Program& p) { return p.div(p.in(9), p.in(27)); }, [&](Program& p) { return p.div(p.in(F9), p.in(1)); },
         [&](Program& p) { return p.div(p.add(p.in(1), p.in(U2)), p.in(1)); },
         [&](Program& p) { return p.div(p.in(1), p.add(p.in(1), p.in(U2))); }});
    bool t[6] = {r[0] == 0, r[1] == r[2], r[2] == r[3], r[4] == F9, r[5] == 1 + U2, r[6] < 1};
    run.line(D, "The following three division guard bit tests are from line 2000");
    run.line(D, std::string("DIVISION: 1/(1-U2) - (1 + U2) == 0 test: ") + passed(t[0]));
    run.line(D, std::string("DIVISION: 1/3 == 3/9 test: ") + passed(t[1]));
    run.line(D, std::string("DIVISION: 3/9 == 9/27 test: ") + passed(t[2]));
    run.line(D, "These are tests of X/1 == 1 from line 2040 and 1/(1+U2) < 1 from 2070");
    run.line(D, std::string("DIVISION: F9/1 == F9 test: ") + passed(t[3]));
    run.line(D, std::string("DIVISION: (1+U2)/1 == (1+U2) test: ") + passed(t[4]));
    run.line(D, std::string("DIVISION: 1/(1+U2) < 1 test ") + passed(t[5]));
    bool ok = t[0] && t[1] && t[2] && t[3] && t[4] && t[5];
    run.summary(D, ok ? "DIVISION: Seems to have guard digit" : "DIVISION: FAILURE: Division lacks guard digit",
                ok ? Verdict::Ok : Verdict::Failure);
  }
  {
    const char* S = "ADDITION/SUBTRACTION GUARD BIT TESTS";
    auto r = run.many({[&](Program& p) { return p.sub(p.sub(p.in(1), p.in(U1)), p.in(1)); },
                       [&](Program& p) { return p.sub(p.in(F9), p.in(1)); },
                       [&](Program& p) { return p.sub(p.add(p.in(1), p.in(U2)), p.in(1)); }});
    bool t[3] = {r[0] == -U1, r[1] == -U1, r[2] == U2};
    run.line(S, std::string("Subtraction guard bit tests: ") + passed(t[0]) + " " + passed(t[1]) + " " + passed(t[2]));
    bool ok = t[0] && t[1] && t[2];
    run.summary(S,
                ok ? "SUBTRACTION: Seems to have guard bit"
                   : "SUBTRACTION: SERIOUS DEFECT: - lacks Guard Digit, so cancellation is obscured",
                ok ? Verdict::Ok : Verdict::SeriousDefect);
  }
  {
    const char* S = "SUBTRACTION COMPARISON TESTS";
    auto r = run.many({[&](Program& p) { return p.sub(p.in(1), p.in(U1)); },
                       [&](Program& p) { return p.sub(p.sub(p.in(1), p.in(U1)), p.in(1)); }});
    bool a = r[0] == 0, b = r[1] < 0;
    run.line(S, "Tests for consistency in comparison and subtraction.");
    run.line(S, "Specifically either (1-U1) == 0 or (1-U1) - 1 < 0.");
    run.line(S, std::string("Subtraction comparison tests (at least one of the following must pass): ") + passed(a) +
                    " " + passed(b));
    run.summary(S,
                a || b ? "SUBTRACTION: Comparison and Subtraction consistent (2170)"
                       : "SUBTRACTION: SERIOUS DEFECT: comparison and subtraction disagree (2170)",
                a || b ? Verdict::Ok : Verdict::SeriousDefect);
  }

  // Rounding of * (the annex's lines 2390 and 2400): operands computed on the GPU, products
  // classified against the exact product of what came back.
  {
    const char* M = "MULTIPLICATION ROUNDING TESTS";
    struct Pair {
      float a, b, da, db;  // (a + da) * (b + db), the sums on the GPU
      const char* text;
    };
    const Pair first[] = {{1.5f, 1, -U2, U2, "(1.5-U2)(1+U2) = 1.5 + 0.5*U2 - U2^2 -> 1.5"},
                          {1.5f, 1, 2 * U2, -U2, "(1.5+2*U2)(1-U2) = 1.5 + 0.5*U2 - 2*U2^2 -> 1.5"},
                          {1.5f, 1, -2 * U2, U2, "(1.5-2*U2)(1+U2) = 1.5 - 0.5*U2 - 2*U2^2 -> 1.5 - U2"},
                          {1.5f, 1, U2, -U2, "(1.5+U2)(1-U2) = 1.5 - 0.5*U2 - U2^2 <= 1.5 - U2"}};
    const Pair second[] = {{1.5f, 1, U2, U2, "(1.5+U2)(1+U2) = 1.5 + 2.5*U2 + U2^2"},
                           {1.5f, 1, -2 * U2, -U2, "(1.5-2*U2)(1-U2) = 1.5 - 3.5*U2 + U2^2"},
                           {1.5f, 1, 2 * U2, U2, "(1.5 + 2*U2)*(1+U2) = 1.5 + 3.5*U2 + U2^2"},
                           {1.5f, 1, -U2, -U2, "(1.5-U2)*(1-U2) = 1.5 - 2.5*U2 + U2^2"},
                           {1, 1, 2 * U2, -U2, "(1+2*U2)(1-U2) = 1 + U2 - 2*U2^2"},
                           {1, 1, U2, -U2, "(1+U2)(1-U2) = 1-U2^2"}};
    auto products = [&](const Pair* ps, size_t n, std::vector<long double>& exact) {
      std::vector<Build> ops, prods;
      for (size_t i = 0; i < n; ++i) {
        Pair q = ps[i];
        ops.push_back([q](Program& p) { return p.add(p.in(q.a), p.in(q.da)); });
        ops.push_back([q](Program& p) { return p.add(p.in(q.b), p.in(q.db)); });
      }
      auto o = run.many(ops);
      for (size_t i = 0; i < n; ++i) {
        float x = o[2 * i], y = o[2 * i + 1];
        exact.push_back(static_cast<long double>(x) * y);
        prods.push_back([x, y](Program& p) { return p.mul(p.in(x), p.in(y)); });
      }
      return run.many(prods);
    };
    std::vector<long double> e1, e2;
    auto r1 = products(first, 4, e1), r2 = products(second, 6, e2);
    run.line(M, "Tests on line 2390");
    bool down = true;
    for (int i = 0; i < 4; ++i) {
      bool ok = i < 2 ? r1[i] == 1.5f : r1[i] <= 1.5f - U2;
      down &= ok;
      run.line(M, std::string(" ") + first[i].text + " test: " + passed(ok));
    }
    if (!down) run.line(M, "Multiplication rounds up when it should round down (first four tests)");
    run.line(M, "Tests based on calculations on line 2400");
    std::vector<Rounding> rs;
    for (int i = 0; i < 6; ++i) {
      rs.push_back(classify(r2[i], e2[i]));
      float base = i < 4 ? 1.5f : 1.0f;
      run.line(M, std::string(" ") + second[i].text + " -> " + named(r2[i], base, U2, i < 4 ? "1.5" : "1", "U2") +
                      " so " + rounding_word(rs.back()));
    }
    for (int i = 0; i < 4; ++i) rs.push_back(classify(r1[i], e1[i]));
    rounding_verdict(run, M, "MULTIPLICATION", rs);
  }

  // Rounding of / (lines 2480 and 2490).
  {
    const char* D = "DIVISION ROUNDING TESTS";
    struct Q {
      float a, da, b, db;  // (a + da) / (b + db)
      const char* text;
    };
    const Q qs[] = {{1.5f, 2 * U2, 1, U2, "(1.5+U2+U2)/(1+U2)"},
                    {1.5f, -2 * U2, 1, -U2, "(1.5-U2-U2)/(1-U2)"},
                    {1.5f, 3 * U2, 1, U2, "((1.5+U2+U2)+U2)/(1+U2)"},
                    {1.5f, 0, 1, U2, "1.5/(1+U2)"},
                    {1.5f, -U2, 1, -U2, "(1.5-U2)/(1-U2)"},
                    {1.5f, U2, 1, U2, "(1.5+U2)/(1+U2)"},
                    {1.5f, 0, 1, -U2, "1.5/(1-U2)"},
                    {1, 2 * U2, 1, U2, "(1+U2+U2)/(1+U2)"},
                    {F9, -U1, F9, 0, "(F9-U1)/F9"}};
    std::vector<Build> ops;
    for (auto q : qs) {
      ops.push_back([q](Program& p) { return p.add(p.in(q.a), p.in(q.da)); });
      ops.push_back([q](Program& p) { return p.add(p.in(q.b), p.in(q.db)); });
    }
    auto o = run.many(ops);
    std::vector<Build> divs;
    std::vector<long double> exact;
    for (size_t i = 0; i < std::size(qs); ++i) {
      float x = o[2 * i], y = o[2 * i + 1];
      exact.push_back(static_cast<long double>(x) / y);
      divs.push_back([x, y](Program& p) { return p.div(p.in(x), p.in(y)); });
    }
    auto r = run.many(divs);
    run.line(D, "Tests on line 2480");
    // each exact quotient lies just below a halfway point: it must round down
    bool t[4] = {r[0] - 1.5f <= 0, r[1] <= 1.5f - U2, r[2] <= 1.5f + U2, r[3] <= 1.5f - U2};
    const char* text[4] = {"(1.5+U2+U2)/(1+U2) - 1.5 <= 0", "(1.5-U2-U2)/(1-U2) <= 1.5-U2",
                           "((1.5+U2+U2)+U2)/(1+U2) <= 1.5+U2", "1.5/(1+U2) <= 1.5-U2"};
    bool all = true;
    for (int i = 0; i < 4; ++i)
      all &= t[i], run.line(D, std::string("DIVISION rounding: ") + text[i] + " test: " + passed(t[i]));
    if (!all) run.line(D, "DIVISION rounds up where it should round down");
    run.line(D, "Tests based on calculations on line 2490");
    std::vector<Rounding> rs;
    for (size_t i = 0; i < std::size(qs); ++i) {
      rs.push_back(classify(r[i], exact[i]));
      run.line(D, std::string(" DIVISION rounding: ") + qs[i].text + " -> " +
                      (i == 8 ? named(r[i], 1.0f, U1, "1", "U1")
                              : named(r[i], i == 7 ? 1.0f : 1.5f, U2, i == 7 ? "1" : "1.5", "U2")) +
                      " so " + rounding_word(rs.back()));
    }
    rounding_verdict(run, D, "DIVISION", rs);
  }

  // Rounding of - (lines 2620-2720), twice: the products inside a multiply-add the compiler may
  // fuse (as the annex's first run), then with the products computed on the CPU ("less MACs").
  for (bool macs : {true, false}) {
    const std::string who = macs ? "SUBTRACTION" : "SUBTRACTION(less MACs)";
    const std::string S = macs ? "SUBTRACTION ROUNDING TESTS" : "SUBTRACTION ROUNDING TESTS - LESS MACs";
    struct T {
      float x, y, z;  // x + y·z
      const char* text;
    };
    const T ts[] = {{1, -U1, U1, "1-U1*U1"},
                    {1, U2, 0.5f - U2, "1+U2*(0.5-U2) = 1+0.5*U2 - U2^2"},
                    {1, 0.5f + U2, U2, "1+(0.5+U2)*U2 = 1+0.5*U2 + U2^2"},
                    {1, 0.5f - U2, U2, "1+(0.5-U2)*U2 = 1 + 0.5*U2 - U2^2"},
                    {1, -(0.5f + U2), U1, "1-(0.5+U2)*U1 = 1 - 0.5*U1 - U2*U1"},
                    {1, -(0.5f - U2), U1, "1 - (0.5-U2)*U1 = 1 - 0.5*U1 + U2*U1"}};
    std::vector<Build> bs;
    for (auto t : ts) {
      if (macs)
        bs.push_back([t](Program& p) { return p.mad(p.in(t.y), p.in(t.z), p.in(t.x)); });
      else
        bs.push_back([t](Program& p) { return p.add(p.in(t.x), p.in(t.y * t.z)); });
    }
    auto r = run.many(bs);
    std::vector<Rounding> rs;
    run.line(S, "Tests on line 2620: If both are true, then Paranoia presumes chopping");
    for (size_t i = 0; i < std::size(ts); ++i) {
      long double exact = static_cast<long double>(ts[i].x) + (macs ? static_cast<long double>(ts[i].y) * ts[i].z
                                                                    : static_cast<long double>(ts[i].y * ts[i].z));
      rs.push_back(classify(r[i], exact));
      if (i == 2 || i == 4)
        run.line(S,
                 std::string("Tests on line ") + (i == 2 ? "2650" : "2670") + ". Failure means not correctly rounded.");
      std::string got = r[i] < 1 ? named(r[i], 1.0f, U1, "1", "U1") : named(r[i], 1.0f, U2, "1", "U2");
      if (r[i] == F9) got = "F9";
      run.line(S, std::string(" ") + ts[i].text + " -> " + got + " (" +
                      (rs.back().exact     ? "correct"
                       : rs.back().chopped ? "chopped"
                                           : "not correct") +
                      ")");
    }
    // (X - Y) + (Y - X) == 0 for pairs around 1 (line 2720)
    const float xs[][2] = {{1 + U2, F9}, {1.5f, 1 + 2 * U2}, {3, F9}};
    std::vector<Build> ss;
    for (auto& q : xs) {
      float x = q[0], y = q[1];
      ss.push_back([x, y](Program& p) { return p.add(p.sub(p.in(x), p.in(y)), p.sub(p.in(y), p.in(x))); });
    }
    auto s = run.many(ss);
    bool zero = s[0] == 0 && s[1] == 0 && s[2] == 0;
    run.line(S, std::string(" S = (X-Y) + (Y-X) == 0 test (line 2720): ") + passed(zero));
    rounding_verdict(run, S, who, rs);
    run.summary(S, who + (zero ? ": (X-Y) + (Y-X) == 0 test passed" : ": (X-Y) + (Y-X) == 0 test failed"),
                zero ? Verdict::Ok : Verdict::Defect);
  }

  // Commutativity: 10 pairs.
  {
    const char* C = "TESTING X*Y == Y*X";
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.5f, 4.0f);
    std::vector<Build> bs;
    for (int i = 0; i < 10; ++i) {
      float x = u(rng), y = u(rng);
      bs.push_back([x, y](Program& p) { return p.mul(p.in(x), p.in(y)); });
      bs.push_back([x, y](Program& p) { return p.mul(p.in(y), p.in(x)); });
    }
    auto r = run.many(bs);
    int same = 0;
    for (int i = 0; i < 10; ++i) same += r[2 * i] == r[2 * i + 1];
    run.summary(C,
                same == 10
                    ? "MULTIPLICATION: 10 pairs commuted"
                    : "MULTIPLICATION: DEFECT: X * Y == Y * X trial fails (" + std::to_string(10 - same) + " pairs)",
                same == 10 ? Verdict::Ok : Verdict::Defect);
  }

  // The sticky bit: results just above a halfway point must round up (Paranoia's milestone 40).
  {
    const char* K = "STICKY BIT";
    // 1 + U2/2 + U2²/2 and 1 - U1/2 - U1·U2/2 lie just past halfway; so does (1 + 2^-12)(1 + 2^-12 +
    // U2) = 1 + 2^-11 + U2 + U2/2 + 2^-35: a rounder that keeps only a guard and a round bit sees ties
    const float half_plus = 0.5f * U2 * (1 + U2), x = 1 + std::ldexp(1.0f, -12), y = x + U2;
    auto r = run.many({[&](Program& p) { return p.add(p.in(1), p.in(half_plus)); },
                       [&](Program& p) { return p.sub(p.in(1), p.in(0.5f * U1 * (1 + U2))); },
                       [&](Program& p) { return p.mul(p.in(x), p.in(y)); }});
    bool ok = r[0] == 1 + U2 && r[1] == F9 && r[2] == nearest(static_cast<long double>(x) * y);
    run.summary(K, ok ? "Sticky bit apparently used correctly." : "Sticky bit used incorrectly or not at all.",
                ok ? Verdict::Ok : Verdict::Flaw);
  }

  // Square root (milestones 79-90): sqrt(X*X) == X for 20 integers, exact squares near 1, and
  // correct rounding against the exact root.
  {
    const char* Q = "SQUARE ROOT";
    std::vector<Build> bs;
    for (int i = 1; i <= 20; ++i) {
      float x = float(i * 37 % 1000 + 1);
      bs.push_back([x](Program& p) {
        uint8_t a = p.in(x);
        return p.sqrt(p.mul(a, a));
      });
    }
    auto r = run.many(bs);
    int bad = 0;
    for (int i = 1; i <= 20; ++i) bad += r[i - 1] != float(i * 37 % 1000 + 1);
    run.line(Q, "Testing if sqrt(X * X) == X for 20 Integers X.");
    run.line(Q, bad ? "DEFECT: sqrt(X*X) != X for " + std::to_string(bad) + " of them" : "Found no discrepancies.",
             bad ? Verdict::Defect : Verdict::Ok);
    std::mt19937 rng(seed + 7);
    std::uniform_real_distribution<float> u(0.5f, 8.0f);
    std::vector<float> xs;
    std::vector<Build> rb;
    for (int i = 0; i < 256; ++i) {
      float x = u(rng);
      xs.push_back(x);
      rb.push_back([x](Program& p) { return p.sqrt(p.in(x)); });
    }
    xs.push_back(F9), xs.push_back(1 + U2), xs.push_back(B9);
    rb.push_back([=](Program& p) { return p.sqrt(p.in(F9)); });
    rb.push_back([=](Program& p) { return p.sqrt(p.add(p.in(1), p.in(U2))); });
    rb.push_back([=](Program& p) { return p.sqrt(p.in(B9)); });
    auto s = run.many(rb);
    std::vector<Rounding> rs;
    for (size_t i = 0; i < s.size(); ++i) rs.push_back(classify(s[i], std::sqrt(static_cast<long double>(xs[i]))));
    bool monotone = s[s.size() - 3] <= 1 && s[s.size() - 2] >= 1;
    run.line(Q, monotone ? "Square root is monotone around 1." : "DEFECT: sqrt is not monotone around 1",
             monotone ? Verdict::Ok : Verdict::Defect);
    rounding_verdict(run, Q, "SQUARE ROOT", rs);
  }

  // Underflow: E halved on the GPU until half of it is 0; then whether X != Z implies X - Z != 0
  // near the underflow threshold (abrupt underflow breaks it: a SERIOUS DEFECT in Paranoia).
  {
    const char* U = "UNDERFLOW";
    float E = 1;
    for (int i = 0; i < 400; ++i) {
      float h = run.one([&](Program& p) { return p.mul(p.in(E), p.in(0.5f)); });
      if (h == 0) break;
      E = h;
    }
    rep.smallest = E;
    rep.gradual_underflow = E < std::numeric_limits<float>::min();
    run.line(U, fmt("Smallest strictly positive number found is E0 = %g .", E));
    float X = 1.5f * std::numeric_limits<float>::min(), Zm = std::numeric_limits<float>::min();
    float d = run.one([&](Program& p) { return p.sub(p.in(X), p.in(Zm)); });
    if (d == 0)
      run.line(U, fmt("SERIOUS DEFECT: X = %g is unequal to Z = ", X) + fmt("%g , yet X - Z yields 0 .", Zm),
               Verdict::SeriousDefect);
    run.summary(U,
                rep.gradual_underflow ? "Underflow is gradual; it incurs Absolute Error = " + fmt("%g", E) + " ."
                                      : "Underflow is abrupt: results below " +
                                            fmt("%g", std::numeric_limits<float>::min()) + " flush to 0",
                rep.gradual_underflow ? Verdict::Ok : Verdict::Defect);
  }

  // Overflow: V doubled on the GPU until it stops growing; the largest number is F9·V.
  {
    const char* O = "OVERFLOW";
    float V = 1, next = 2;
    for (int i = 0; i < 400 && std::isfinite(next) && next > V; ++i) {
      V = next;
      next = run.one([&](Program& p) { return p.mul(p.in(V), p.in(radix)); });
    }
    float big = run.one([&](Program& p) { return p.mul(p.mul(p.in(F9), p.in(V)), p.in(2)); });
    rep.overflow = big;
    run.line(O, fmt("Overflow threshold is V = %g .", big));
    auto r = run.many({[&](Program& p) { return p.add(p.in(big), p.in(big)); },
                       [&](Program& p) { return p.mul(p.in(big), p.in(radix)); }});
    bool inf = std::isinf(r[0]) && r[0] > 0 && std::isinf(r[1]);
    run.summary(O, inf ? "Overflow saturates at +Infinity" : fmt("Overflow saturates at %g", r[0]),
                inf ? Verdict::Ok : Verdict::Flaw);
  }

  // Special values (IEEE-754): infinities, NaNs and signed zeros through the operations.
  {
    const char* V = "SPECIAL VALUES";
    const float inf = std::numeric_limits<float>::infinity();
    auto r = run.many(
        {[&](Program& p) { return p.sub(p.in(inf), p.in(inf)); }, [&](Program& p) { return p.div(p.in(0), p.in(0)); },
         [&](Program& p) { return p.div(p.in(1), p.in(0)); }, [&](Program& p) { return p.mul(p.in(inf), p.in(0)); },
         [&](Program& p) { return p.mul(p.in(0), p.in(-1)); },
         [&](Program& p) { return p.div(p.in(1), p.mul(p.in(0), p.in(-1))); },
         [&](Program& p) { return p.sqrt(p.in(-1)); }, [&](Program& p) { return p.sqrt(p.mul(p.in(0), p.in(-1))); }});
    struct Want {
      const char* what;
      bool ok;
    };
    const Want w[] = {{"Infinity - Infinity = NaN", std::isnan(r[0])},
                      {"0 / 0 = NaN", std::isnan(r[1])},
                      {"1 / 0 = +Infinity", std::isinf(r[2]) && r[2] > 0},
                      {"Infinity * 0 = NaN", std::isnan(r[3])},
                      {"0 * (-1) = -0", r[4] == 0 && std::signbit(r[4])},
                      {"1 / (-0) = -Infinity", std::isinf(r[5]) && r[5] < 0},
                      {"sqrt(-1) = NaN", std::isnan(r[6])},
                      {"sqrt(-0) = -0", r[7] == 0 && std::signbit(r[7])}};
    int bad = 0;
    for (auto& x : w) {
      bad += !x.ok;
      run.line(V, std::string(x.what) + (x.ok ? ", as it should be." : ": NOT so here."),
               x.ok ? Verdict::Ok : Verdict::Defect);
    }
    run.summary(V,
                bad ? std::to_string(bad) + " of 8 special values not as IEEE 754 says"
                    : "Infinities, NaNs and signed zeros as IEEE 754 says",
                Verdict::Ok);
  }

  // Error bounds of + - * / over random operands (the annex's last four lines): a in [1, 2), b in
  // [1, 2) scaled by 2^-k, k = 0..11 (so sums and differences shift b's digits out); in ulps of
  // the exact result's binade, signed: got - exact.
  {
    const char* E = "ERROR MEASUREMENT TESTS";
    run.summary(E, "----BEGINNING ERROR MEASUREMENT TESTS----");
    std::mt19937 rng(seed + 11);
    std::uniform_real_distribution<float> u(1.0f, 2.0f);
    std::vector<float> a(random_pairs), b(random_pairs);
    for (uint32_t i = 0; i < random_pairs; ++i) a[i] = u(rng), b[i] = std::ldexp(u(rng), -int(i % 12));
    struct O {
      const char* name;
      VmOp op;
    };
    for (O o : {O{"mult", VmOp::Mul}, O{"div", VmOp::Div}, O{"sub", VmOp::Sub}, O{"add", VmOp::Add}}) {
      // five pairs a program
      std::vector<Program> ps;
      std::vector<std::array<uint8_t, 5>> at;
      for (uint32_t i = 0; i < random_pairs; i += 5) {
        Program p;
        std::array<uint8_t, 5> r{};
        for (uint32_t k = 0; k < 5 && i + k < random_pairs; ++k) r[k] = p.op(o.op, p.in(a[i + k]), p.in(b[i + k]));
        ps.push_back(p), at.push_back(r);
      }
      auto regs = eval(ps);
      ParanoiaReport::Bound bound{o.name, 0, 0, random_pairs};
      for (uint32_t i = 0; i < random_pairs; ++i) {
        float got = regs[i / 5][at[i / 5][i % 5]];
        long double x = a[i], y = b[i];
        long double exact = o.op == VmOp::Mul ? x * y : o.op == VmOp::Div ? x / y : o.op == VmOp::Sub ? x - y : x + y;
        if (exact == 0) continue;
        int e;
        std::frexp(static_cast<double>(exact), &e);
        long double ulp = std::ldexp(1.0L, e - 24);
        double err = double((static_cast<long double>(got) - exact) / ulp);
        bound.lo = std::min(bound.lo, err), bound.hi = std::max(bound.hi, err);
      }
      rep.bounds.push_back(bound);
      char buf[128];
      std::snprintf(buf, sizeof buf, "Error bound for %s= [%g,%g] ULPs", o.name, bound.lo, bound.hi);
      bool ok = bound.lo >= -0.5 && bound.hi <= 0.5;
      run.summary(E, buf, ok ? Verdict::Ok : Verdict::Flaw);
    }
  }
  return rep;
}

}  // namespace floatlab
