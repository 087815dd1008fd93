// paranoia.c's milestones 110 to 130 on the float machine: the underflow thresholds (UfThold,
// below which relative error may grow, and E0, the smallest positive number), whether underflow
// is gradual, and what it does to X - Z and to a power. As the program counts: abrupt underflow
// itself counts nothing; X != Z yet X - Z = 0 counts a FLAW, though its words call it "a SERIOUS
// DEFECT" should it not signal underflow (a GPU signals nothing).
#include "compute/floatlab/paranoia_run.h"

#include <cmath>

namespace floatlab::paranoia_detail {

namespace {

const char* U = "UNDERFLOW";

// TstPtUf: a value Z the comparisons call nonzero must survive (Z + Z) / Z, Z * 1, 1 * Z, Z / 1.
void test_partial_underflow(Run& run, const Constants& c, Range& g, float Z) {
  g.N = 0;
  if (Z == 0) return;
  run.line(U, "Since comparison denies Z = 0, evaluating (Z + Z) / Z should be safe.");
  auto r = run.values([&](Program& p) {
    Dev z = dev(p, Z), q9 = (z + z) / z;
    return std::vector<uint8_t>{q9.r, (q9 - 2).r, (dev(p, c.radix) * c.U2).r, (z * 1).r, (1 * z).r, (z / 1).r};
  });
  const float Q9 = r[0];
  run.line(U, say("What the machine gets for (Z + Z) / Z is %.17e .", Q9));
  if (std::fabs(r[1]) < r[2]) {
    run.line(U, "This is O.K., provided Over/Underflow has NOT just been signaled.");
  } else if (Q9 < 1 || Q9 > 2) {
    g.N = 1;
    run.line(U, "This is a VERY SERIOUS DEFECT!", Verdict::SeriousDefect);
  } else {
    g.N = 1;
    run.line(U, "This is a DEFECT!", Verdict::Defect);
  }
  const float times_one = r[3], one_times = r[4], over_one = r[5];
  if (Z == times_one && Z == one_times && Z == over_one) return;
  g.N = 1;
  run.line(U,
           say("DEFECT: What prints as Z = %.17e compares different from Z * 1 = %.17e, 1 * Z = %.17e, Z / 1 = "
               "%.17e",
               Z, times_one, one_times, over_one),
           Verdict::Defect);
  if (one_times != times_one) {  // the program counts this one twice
    run.line(U, "DEFECT: Multiplication does not commute!", Verdict::Defect);
    run.line(U, say("DEFECT: Comparison alleges that 1 * Z = %.17e differs from Z * 1 = %.17e", one_times, times_one),
             Verdict::Defect);
  }
}

// A loop of paranoia.c's form: from (Y, Z), step Y = Z, Z = f(Z) while Y > Z and Z + Z > Z; the
// products and sums on the device. Returns the last (C, Y, Z): C the value before Y.
struct Walk {
  float C, Y, Z;
};
template <class Step>
Walk walk_down(Run& run, float Y, float Z, Step step) {
  float C = Y;
  for (int i = 0; i < 1000; ++i) {
    C = Y, Y = Z;
    auto r = run.values([&](Program& p) {
      Dev z = step(dev(p, Y));
      return std::vector<uint8_t>{z.r, (z + z).r};
    });
    Z = r[0];
    if (!(Y > Z && r[1] > Z)) break;
  }
  return {C, Y, Z};
}

}  // namespace

void underflow(Run& run, const Constants& c, Range& g, ParanoiaReport& rep) {
  // Milestone 110: D, a power of 1/radix; squared, then multiplied by D, down to the underflow.
  run.line(U, "Seeking Underflow thresholds UfThold and E0.");
  float D = c.U1;
  if (c.precision != std::floor(c.precision)) {
    D = g.BInvrse;
    for (float x = c.precision; x > 0; x -= 1) D = calc(run, [&](Program& p) { return dev(p, D) * g.BInvrse; });
  }
  Walk w = walk_down(run, 1, D, [](Dev y) { return y * y; });
  w = walk_down(run, w.C, calc(run, [&](Program& p) { return dev(p, w.C) * D; }), [&](Dev y) { return y * D; });
  const float C = w.C;
  g.C = C;
  g.HInvrse = c.radix < 2 ? 2 : c.radix;
  g.H = calc(run, [&](Program& p) { return 1 / dev(p, g.HInvrse); });
  const float H = g.H, HInvrse = g.HInvrse;
  g.CInvrse = calc(run, [&](Program& p) { return 1 / dev(p, C); });
  // E0: C halved until it underflows
  w = walk_down(run, C, calc(run, [&](Program& p) { return dev(p, C) * H; }), [&](Dev e) { return e * H; });
  float E0 = w.Y, Y = w.C, Z = w.Z;
  float UfThold = E0, E1 = 0, Q = 0, E9 = c.U2, Underflow = 0, Y1 = 0, PseudoZero = 0;
  float S = calc(run, [&](Program& p) { return 1 + dev(p, E9); });
  D = calc(run, [&](Program& p) { return dev(p, C) * S; });
  if (D <= C) {
    // as the program is written, a C (1 + radix ulp) above C leaves Underflow, Y1 and PseudoZero
    // as they were (0 here): the search below runs only when C (1 + ulp) is above C
    E9 = calc(run, [&](Program& p) { return dev(p, c.radix) * c.U2; });
    S = calc(run, [&](Program& p) { return 1 + dev(p, E9); });
    D = calc(run, [&](Program& p) { return dev(p, C) * S; });
    if (D <= C) {
      run.line(U, "FAILURE: multiplication gets too many last digits wrong.", Verdict::Failure);
      Underflow = E0, Y1 = 0, PseudoZero = Z;
    }
  } else {
    // C (1 + ulp) halved: where halving and doubling back first lose the last bit, UfThold.
    Underflow = D;
    PseudoZero = calc(run, [&](Program& p) { return dev(p, Underflow) * H; });
    UfThold = 0;
    for (int i = 0; i < 1000; ++i) {
      Y1 = Underflow, Underflow = PseudoZero;
      auto r = run.values([&](Program& p) {
        Dev e1 = dev(p, E1), y2 = dev(p, Underflow) * HInvrse, pz = dev(p, PseudoZero) * H;
        return std::vector<uint8_t>{(e1 + e1).r, y2.r, (dev(p, Y1) - y2).r, pz.r, (pz + pz).r};
      });
      if (r[0] <= E1) {
        const float Y2 = r[1];
        E1 = std::fabs(r[2]);
        Q = Y1;
        if (UfThold == 0 && Y1 != Y2) UfThold = Y1;
      }
      PseudoZero = r[3];
      if (!(Underflow > PseudoZero && r[4] > PseudoZero)) break;
    }
  }
  if (PseudoZero != 0) {
    if (PseudoZero <= 0)
      run.line(U,
               say("FAILURE: Positive expressions can underflow to an allegedly negative value PseudoZero that "
                   "prints out as: %g .",
                   PseudoZero),
               Verdict::Failure);
    else
      run.line(U,
               say("FLAW: Underflow can stick at an allegedly positive value PseudoZero that prints out as %g .",
                   PseudoZero),
               Verdict::Flaw);
    test_partial_underflow(run, c, g, PseudoZero);
  }

  // Milestone 120: E0, gradual or not, and what X - Z gives near the threshold.
  auto cy = run.values([&](Program& p) {
    Dev ci = dev(p, g.CInvrse);
    return std::vector<uint8_t>{(ci * Y).r, (ci * Y1).r};
  });
  if (cy[0] > cy[1]) {
    S = calc(run, [&](Program& p) { return dev(p, H) * S; });
    E0 = Underflow;
  }
  if (!(E1 == 0 || E1 == E0)) {
    if (E1 < E0) {
      run.line(U, "DEFECT: Products underflow at a higher threshold than differences.", Verdict::Defect);
      if (PseudoZero == 0) E0 = E1;
    } else {
      run.line(U, "DEFECT: Difference underflows at a higher threshold than products.", Verdict::Defect);
    }
  }
  run.line(U, say("Smallest strictly positive number found is E0 = %g .", E0));
  test_partial_underflow(run, c, g, E0);
  Underflow = E0;
  if (g.N == 1) Underflow = Y;
  int I = 4;
  if (E1 == 0) I = 3;
  if (UfThold == 0) I -= 2;
  bool gradual = false;
  switch (I) {
    case 1:
      UfThold = Underflow;
      if (calc(run, [&](Program& p) { return dev(p, g.CInvrse) * Q; }) !=
          calc(run, [&](Program& p) { return (dev(p, g.CInvrse) * Y) * S; })) {
        UfThold = Y;
        run.line(U,
                 say("FAILURE: Either accuracy deteriorates as numbers approach a threshold = %.17e coming down "
                     "from %.17e or else multiplication gets too many last digits wrong.",
                     UfThold, C),
                 Verdict::Failure);
      }
      break;
    case 2:
      run.line(U,
               say("FAILURE: Underflow confuses Comparison, which alleges that Q == Y while denying that |Q - Y| "
                   "== 0; these values print out as Q = %.17e, Y = %.17e .",
                   Q, Y),
               Verdict::Failure);
      UfThold = Q;
      break;
    case 4:
      if (Q == UfThold && E1 == E0 &&
          std::fabs(calc(run, [&](Program& p) { return dev(p, UfThold) - dev(p, E1) / E9; })) <= E1) {
        gradual = true;
        run.summary(U, "Underflow is gradual; it incurs Absolute Error = (roundoff in UfThold) < E0.");
      }
      break;
    default:
      break;
  }
  if (!gradual) {
    // R = sqrt(Underflow / UfThold); X and Z a hair apart just above the threshold
    const float R = calc(run, [&](Program& p) { return sqrt(dev(p, Underflow) / UfThold); });
    auto xz = run.values([&](Program& p) {
      Dev r = dev(p, R), h = dev(p, H), one = dev(p, 1);
      Dev z = R <= H ? r * UfThold : dev(p, UfThold);
      Dev x = R <= H ? z * (one + r * h * (one + h)) : z * (one + h * h * (one + h));
      return std::vector<uint8_t>{x.r, z.r, (x - z).r, ((x / z - 0.5f) - 0.5f).r};
    });
    const float X = xz[0], Zz = xz[1];
    if (!(X == Zz || xz[2] != 0)) {
      run.line(U,
               say("FLAW: X = %.17e is not equal to Z = %.17e . yet X - Z yields %.17e . Should this NOT signal "
                   "Underflow, this is a SERIOUS DEFECT that causes confusion when innocent statements like if (X "
                   "== Z) ... else ... (f(X) - f(Z)) / (X - Z) ... encounter Division by Zero although actually X / "
                   "Z = 1 + %g .",
                   X, Zz, xz[2], xz[3]),
               Verdict::Flaw, false, Verdict::SeriousDefect);
    }
    run.summary(U, say("Underflow is abrupt: below %g results flush to 0 (paranoia.c counts nothing for this)", E0));
  }
  run.line(U, say("The Underflow threshold is %.17e, below which calculation may suffer larger Relative error than "
                  "merely roundoff.",
                  UfThold));
  auto ur = run.values([&](Program& p) {
    Dev u = dev(p, c.U1), y2 = u * u, y = y2 * y2;
    return std::vector<uint8_t>{y.r, (y * u).r};
  });
  if (ur[1] <= UfThold) {
    const bool defect = ur[0] > E0;
    run.line(U, say("%s: Range is too narrow; U1^%d Underflows.", defect ? "DEFECT" : "SERIOUS DEFECT", defect ? 5 : 4),
             defect ? Verdict::Defect : Verdict::SeriousDefect);
  }
  g.E0 = E0, g.E9 = E9, g.UfThold = UfThold, g.PseudoZero = PseudoZero;
  rep.smallest = E0, rep.underflow_threshold = UfThold, rep.gradual_underflow = gradual;

  // Milestone 130: HInvrse^(2 LOG(UfThold)/LOG(HInvrse)) must underflow to a value between 0 and
  // the threshold (the exponent: bookkeeping).
  const float Yp = float(-std::floor(0.5 - 240 * std::log(double(UfThold)) / std::log(double(HInvrse))) / 240);
  auto v = run.values([&](Program& p) {
    Dev y = dev(p, Yp), y2 = y + y, v9 = pow(dev(p, HInvrse), y2);
    Dev r = dev(p, c.radix), hi = (r + r + E9) * UfThold, lo = dev(p, UfThold) * (1 + dev(p, E9));
    return std::vector<uint8_t>{y2.r, v9.r, hi.r, lo.r};
  });
  const float V9 = v[1];
  const char* P = "POWERS AT THE UNDERFLOW";
  run.line(P, say("Since underflow occurs below the threshold UfThold = (%.17e) ^ (%.17e) only underflow should "
                  "afflict the expression (%.17e) ^ (%.17e); actually calculating yields: %.17e .",
                  HInvrse, Yp, HInvrse, v[0], V9));
  if (!(V9 >= 0 && V9 <= v[2]))
    run.line(P, say("SERIOUS DEFECT: this is not between 0 and underflow threshold = %.17e .", UfThold),
             Verdict::SeriousDefect);
  else if (!(V9 > v[3]))
    run.line(P, "This computed value is O.K.");
  else
    run.line(P, say("DEFECT: this is not between 0 and underflow threshold = %.17e .", UfThold), Verdict::Defect);
}

}  // namespace floatlab::paranoia_detail
