// paranoia.c's milestones 7, 10, 25 and 30 on the float machine: the small integers the program
// relies on, U1 and U2 found a second way, the precision's worth, and extra-precise
// subexpressions. Every sum, product and quotient is the device's; comparisons, FABS (exact) and
// the program's bookkeeping (FLOOR, LOG) are the CPU's.
#include "compute/floatlab/paranoia_run.h"

#include <cmath>

namespace floatlab::paranoia_detail {

namespace {
// The checks fail as paranoia.c's TstCond(Failure, ...) does: one line each, counted.
void must(Run& run, const char* check, bool ok, const char* what) {
  if (!ok) run.line(check, std::string("FAILURE: ") + what, Verdict::Failure);
}
}  // namespace

void small_integers(Run& run) {
  const char* K = "SMALL INTEGERS";
  run.line(K, "Program is now RUNNING tests on small integers:");
  // The program's constants as its main() makes them (Two = One + One, ...), on the device.
  auto k = run.values([](Program& p) {
    Dev one = dev(p, 1), two = one + one, three = two + one, four = three + one, five = four + one;
    Dev eight = four + four, nine = three * three, half = one / two;
    return std::vector<uint8_t>{two.r, three.r, four.r, five.r, eight.r, nine.r, half.r};
  });
  const float two = k[0], three = k[1], four = k[2], five = k[3], eight = k[4], nine = k[5], half = k[6];
  auto k2 = run.values([&](Program& p) {
    Dev t = dev(p, three), f = dev(p, four), n = dev(p, nine), e = dev(p, eight);
    Dev twenty_seven = n * t, thirty_two = f * e, two_forty = f * dev(p, five) * t * f, minus_one = -dev(p, 1);
    return std::vector<uint8_t>{twenty_seven.r, thirty_two.r, two_forty.r, minus_one.r};
  });
  const float twenty_seven = k2[0], thirty_two = k2[1], two_forty = k2[2], minus_one = k2[3];

  // Milestone 7.
  auto r = run.values([&](Program& p) {
    Dev z = dev(p, 0), o = dev(p, 1);
    return std::vector<uint8_t>{(z + z).r, (o - o).r, (o + o).r, (-z).r};
  });
  must(run, K, r[0] == 0 && r[1] == 0 && 1 > 0 && r[2] == two, "0+0 != 0, 1-1 != 0, 1 <= 0, or 1+1 != 2");
  if (r[3] != 0) run.line(K, "FAILURE: Comparison alleges that -0.0 is Non-zero!", Verdict::Failure);
  r = run.values([&](Program& p) {
    Dev o = dev(p, 1), t = dev(p, two), th = dev(p, three), f = dev(p, four);
    return std::vector<uint8_t>{(t + o).r, (th + o).r, (f + t * (-t)).r, (f - th - o).r};
  });
  must(run, K, three == r[0] && four == r[1] && r[2] == 0 && r[3] == 0,
       "3 != 2+1, 4 != 3+1, 4+2*(-2) != 0, or 4-3-1 != 0");
  r = run.values([&](Program& p) {
    Dev o = dev(p, 1), m = dev(p, minus_one);
    return std::vector<uint8_t>{(0 - o).r, (m + o).r, (o + m).r, (m + dev(p, std::fabs(1.0f))).r, (m + m * m).r};
  });
  must(run, K, minus_one == r[0] && r[1] == 0 && r[2] == 0 && r[3] == 0 && r[4] == 0,
       "-1+1 != 0, (-1)+abs(1) != 0, or -1+(-1)*(-1) != 0");
  must(run, K, calc(run, [&](Program& p) { return dev(p, half) + minus_one + half; }) == 0, "1/2 + (-1) + 1/2 != 0");

  // Milestone 10.
  r = run.values([&](Program& p) {
    Dev t = dev(p, three), n = dev(p, nine), f = dev(p, four), e = dev(p, eight);
    return std::vector<uint8_t>{(t * t).r, (n * t).r, (f + f).r, (e * f).r,
                                (dev(p, thirty_two) - twenty_seven - f - 1).r};
  });
  must(run, K, nine == r[0] && twenty_seven == r[1] && eight == r[2] && thirty_two == r[3] && r[4] == 0,
       "9 != 3*3, 27 != 9*3, 32 != 8*4, or 32-27-4-1 != 0");
  r = run.values([&](Program& p) {  // two programs: 16 registers each
    Dev f = dev(p, four), fi = dev(p, five), t = dev(p, three), tf = dev(p, two_forty);
    return std::vector<uint8_t>{(f + 1).r, (f * fi * t * f).r, (tf / t - f * f * fi).r};
  });
  auto r2 = run.values([&](Program& p) {
    Dev f = dev(p, four), fi = dev(p, five), t = dev(p, three), tf = dev(p, two_forty);
    return std::vector<uint8_t>{(tf / f - fi * t * f).r, (tf / fi - f * t * f).r};
  });
  r.insert(r.end(), r2.begin(), r2.end());
  must(run, K, five == r[0] && two_forty == r[1] && r[2] == 0 && r[3] == 0 && r[4] == 0,
       "5 != 4+1, 240/3 != 80, 240/4 != 60, or 240/5 != 48");
  if (!run.failed()) run.line(K, "-1, 0, 1/2, 1, 2, 3, 4, 5, 9, 27, 32 & 240 are O.K.");
}

void recalculate_precision(Run& run, Constants& c) {
  const char* RP = "RADIX AND PRECISION";
  run.line(RP, "Recalculating radix and precision");
  const float E0 = c.radix, E1 = c.U1;
  // U2 from 4/3: X = |(1/2 - Third) + (1/2 - Third) - Third|, Third = 4/3 - 1, then grown to one ulp of 1+.
  float X = std::fabs(calc(run, [&](Program& p) {
    Dev third = 4 / dev(p, 3) - 1, f6 = 0.5f - third;
    return (f6 + f6) - third;
  }));
  if (X < c.U2) X = c.U2;
  float U2 = 0;
  for (int i = 0; i < 100; ++i) {
    U2 = X;
    X = calc(run, [&](Program& p) {
      Dev u = dev(p, U2);
      return (1 + (0.5f * u + 32 * u * u)) - 1;
    });
    if (U2 <= X || X <= 0) break;
  }
  // U1 from 2/3, then grown to one ulp of 1-.
  X = std::fabs(calc(run, [&](Program& p) {
    Dev f6 = 2 / dev(p, 3) - 0.5f, third = f6 + f6;
    return (third - 0.5f) + f6;
  }));
  if (X < c.U1) X = c.U1;
  float U1 = 0;
  for (int i = 0; i < 100; ++i) {
    U1 = X;
    X = calc(run, [&](Program& p) {
      Dev u = dev(p, U1), h = dev(p, 0.5f), y = h - (h * u + 32 * u * u), x = h + y, y2 = h - x;
      return h + y2;
    });
    if (U1 <= X || X <= 0) break;
  }
  run.line(RP, U1 == E1 ? "confirms closest relative separation U1 ."
                        : say("gets better closest relative separation U1 = %.7e .", U1));
  c.U1 = U1, c.U2 = U2;
  c.W = calc(run, [&](Program& p) { return 1 / dev(p, U1); });
  c.radix = std::floor(0.01f + calc(run, [&](Program& p) { return dev(p, U2) / U1; }));  // FLOOR: bookkeeping
  run.line(RP, c.radix == E0 ? "Radix confirmed." : say("MYSTERY: recalculated Radix = %.7e .", c.radix));
  if (!(c.radix <= 16)) run.line(RP, "DEFECT: Radix is too big: roundoff problems", Verdict::Defect);
  if (!(c.radix == 2 || c.radix == 10 || c.radix == 1))
    run.line(RP, "FLAW: Radix is not as good as 2 or 10", Verdict::Flaw);
}

void precision_checks(Run& run, const Constants& c) {
  const char* RP = "RADIX AND PRECISION";
  // Milestone 20's consistency of F9 with 1/2 (the annex's fuzz test follows).
  if (!(calc(run, [&](Program& p) { return dev(p, c.F9) - 0.5f; }) < 0.5f))
    run.line(RP, "FAILURE: (1-U1)-1/2 < 1/2 is FALSE, prog. fails?", Verdict::Failure);
  // Milestone 25: the precision in digits of the radix, "purified" to an integer as the program
  // does (its LOG and FLOOR: bookkeeping, here in double on the CPU).
  double precision = c.precision;
  if (c.radix != 1) {
    double x = -240 * std::log(double(c.U1)) / std::log(double(c.radix)), y = std::floor(0.5 + x);
    if (std::fabs(x - y) * 4 < 1) x = y;
    precision = x / 240;
    y = std::floor(0.5 + precision);
    if (std::fabs(precision - y) * 240 < 0.5) precision = y;
  }
  if (precision != std::floor(precision) || c.radix == 1)
    run.line(RP,
             "Precision cannot be characterized by an Integer number of significant digits but, by itself, this is "
             "a minor flaw.");
  run.line(RP, c.radix == 1 ? "logarithmic encoding has precision characterized solely by U1."
                            : fmt("The number of significant digits of the Radix is %f .", precision));
  if (!(calc(run, [&](Program& p) { return dev(p, c.U2) * 9 * 9 * 240; }) < 1))
    run.line(RP, "SERIOUS DEFECT: Precision worse than 5 decimal figures", Verdict::SeriousDefect);

  // Milestone 30: extra-precise subexpressions. The same quantity, one ulp of 1 (above: Z2; below:
  // Z1, Y1, X1), reached three ways; registers wider than the format would make them disagree.
  const char* XP = "EXTRA-PRECISE SUBEXPRESSIONS";
  auto grow_up = [&](float x) {  // X = (One + (Half * Z + ThirtyTwo * Z * Z)) - One until it stops shrinking
    float z = 0;
    for (int i = 0; i < 100; ++i) {
      z = x;
      x = calc(run, [&](Program& p) {
        Dev v = dev(p, z);
        return (1 + (0.5f * v + 32 * v * v)) - 1;
      });
      if (z <= x || x <= 0) break;
    }
    return z;
  };
  auto below = [&](float z, bool one_over_two) {  // (1/2 - ((1/2 - (Half*Z + 32*Z*Z)) + 1/2)) + 1/2
    return calc(run, [&](Program& p) {
      Dev v = dev(p, z), h = one_over_two ? 1 / dev(p, 2) : dev(p, 0.5f);
      return (h - ((h - (0.5f * v + 32 * v * v)) + h)) + h;
    });
  };
  const float Z2 = grow_up(
      std::fabs(calc(run, [&](Program& p) { return ((4 / dev(p, 3) - 1) - 1 / dev(p, 4)) * 3 - 1 / dev(p, 4); })));
  const float start =
      std::fabs(calc(run, [&](Program& p) { return (3 / dev(p, 4) - 2 / dev(p, 3)) * 3 - 1 / dev(p, 4); }));
  float Z = start, Z1 = 0;
  for (int i = 0; i < 100; ++i) {
    Z1 = Z, Z = below(Z1, true);
    if (Z1 <= Z || Z <= 0) break;
  }
  float X = start, Y = start, X1 = 0, Y1 = 0;
  for (int j = 0; j < 100; ++j) {
    for (int i = 0; i < 100; ++i) {
      Y1 = Y, Y = below(Y1, false);
      if (Y1 <= Y || Y <= 0) break;
    }
    X1 = X;
    X = calc(run, [&](Program& p) {
      Dev v = dev(p, X1);
      return ((0.5f * v + 32 * v * v) - c.F9) + c.F9;
    });
    if (X1 <= X || X <= 0) break;
  }
  if (X1 != Y1 || X1 != Z1) {
    run.line(XP,
             say("SERIOUS DEFECT: Disagreements among the values X1, Y1, Z1, respectively %.7e, %.7e, %.7e, are "
                 "symptoms of inconsistencies introduced by extra-precise evaluation of arithmetic subexpressions.",
                 X1, Y1, Z1),
             Verdict::SeriousDefect);
  } else if (Z1 != c.U1 || Z2 != c.U2) {
    if (Z1 >= c.U1 || Z2 >= c.U2)
      run.line(XP,
               say("FAILURE: Precision test appears to be inconsistent: U1 = %.7e, Z1 - U1 = %.7e; U2 = %.7e, "
                   "Z2 - U2 = %.7e",
                   c.U1, Z1 - c.U1, c.U2, Z2 - c.U2),
               Verdict::Failure);
    else
      run.line(XP, say("Some subexpressions appear to be calculated extra precisely (Z1 = %.7e, Z2 = %.7e); "
                       "that feature is not tested further by this program.",
                       Z1, Z2));
  } else {
    run.line(XP, "No extra-precise subexpressions found: X1 = Y1 = Z1 = U1 and Z2 = U2.");
  }
}

}  // namespace floatlab::paranoia_detail
