// Kahan's classic Paranoia checks the annex's adaptation left out (sticky bit, square root, the
// milestones 90-200 in their own files), special values, and the annex's error bounds of + - * /.
#include "compute/floatlab/paranoia_run.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace floatlab::paranoia_detail {

void classic_checks(Run& run, const Constants& c, ParanoiaReport& rep, const Evaluator& eval, uint32_t random_pairs,
                    uint32_t seed, Findings& found) {
  const float U1 = c.U1, U2 = c.U2, F9 = c.F9, B9 = c.B9;
  // The sticky bit: results just above a halfway point must round up (Paranoia's milestone 50).
  // The program prints its finding and counts nothing.
  {
    const char* K = "STICKY BIT";
    // 1 + U2/2 + U2²/2 and 1 - U1/2 - U1·U2/2 lie just past halfway; so does (1 + 2^-12)(1 + 2^-12 +
    // U2) = 1 + 2^-11 + U2 + U2/2 + 2^-35: a rounder that keeps only a guard and a round bit sees ties
    const float half_plus = 0.5f * U2 * (1 + U2), x = 1 + std::ldexp(1.0f, -12), y = x + U2;
    auto r = run.many({[&](Program& p) { return p.add(p.in(1), p.in(half_plus)); },
                       [&](Program& p) { return p.sub(p.in(1), p.in(0.5f * U1 * (1 + U2))); },
                       [&](Program& p) { return p.mul(p.in(x), p.in(y)); }});
    bool ok = r[0] == 1 + U2 && r[1] == F9 && r[2] == nearest(static_cast<long double>(x) * y);
    run.summary(K, ok ? "Sticky bit apparently used correctly." : "Sticky bit used incorrectly or not at all.");
  }
  // paranoia.c's milestone 50: every missing guard digit and every failure to round or chop noted
  // above counts as one FLAW in all.
  if (!found.guard_mul || !found.guard_div || !found.guard_sub || found.mul == Rounds::Other ||
      found.div == Rounds::Other || found.add_sub == Rounds::Other)
    run.summary("ROUNDING",
                "FLAW: lack(s) of guard digits or failure(s) to correctly round or chop (noted above) count as one "
                "flaw in the final tally below",
                Verdict::Flaw);

  // Square root (milestones 70-85): sqrt(X*X) == X for 20 integers, exact squares near 1, and
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
    double lo = 0, hi = 0;  // signed error in ulps of the root
    for (size_t i = 0; i < s.size(); ++i) {
      const long double exact = std::sqrt(static_cast<long double>(xs[i]));
      rs.push_back(classify(s[i], exact));
      int e;
      std::frexp(static_cast<double>(exact), &e);
      const double err = double((static_cast<long double>(s[i]) - exact) / std::ldexp(1.0L, e - 24));
      lo = std::min(lo, err), hi = std::max(hi, err);
    }
    bool monotone = s[s.size() - 3] <= 1 && s[s.size() - 2] >= 1;
    run.line(Q, monotone ? "Square root is monotone around 1." : "DEFECT: sqrt is not monotone around 1",
             monotone ? Verdict::Ok : Verdict::Defect);
    found.sqrt = rounding_verdict(run, Q, "SQUARE ROOT", rs);
    // neither rounded nor chopped counts nothing, unless the errors spread over radix^2 ulps (its
    // milestone 85)
    if (found.sqrt == Rounds::Other && hi - lo >= double(c.radix) * c.radix)
      run.line(Q, say("SERIOUS DEFECT: sqrt gets too many last digits wrong (errors from %g to %g ulps)", lo, hi),
               Verdict::SeriousDefect);
  }
  rep.rounded_all = found.mul == Rounds::Rounded && found.div == Rounds::Rounded && found.add_sub == Rounds::Rounded &&
                    found.sqrt == Rounds::Rounded;

  Range g;
  powers_of_integers(run, c, g);  // 90, 100
  underflow(run, c, g, rep);      // 110-130
  powers_near_limits(run, c, g);  // 140, 150
  overflow(run, c, g, rep);       // 160-200

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
    // beyond paranoia.c (its milestone 210 only prints 1/0 and 0/0): reported, not counted
    int bad = 0;
    for (auto& x : w) {
      bad += !x.ok;
      run.line(V, std::string(x.what) + (x.ok ? ", as it should be." : ": NOT so here."));
    }
    run.summary(V, bad ? std::to_string(bad) + " of 8 special values not as IEEE 754 says (not in Paranoia's tally)"
                       : "Infinities, NaNs and signed zeros as IEEE 754 says");
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
      run.summary(E, buf);  // the annex's measure, beyond paranoia.c: counted nowhere
    }
  }
}

}  // namespace floatlab::paranoia_detail
