// paranoia.c's milestones 90, 100, 140 and 150 on the float machine: Z^i by the device's pow
// against repeated products, X^((X + 1) / (X - 1)) against exp(2) as X -> 1, and powers near the
// underflow and overflow. The C program's POW is the C library's; here it is GLSL's pow built-in
// (VmOp::Pow), which Vulkan lets be as coarse as exp2(y * log2(x)) and leaves undefined for a
// negative base: these lines judge that built-in, not the adder or the multiplier.
#include "compute/floatlab/paranoia_run.h"

#include <cmath>

namespace floatlab::paranoia_detail {

namespace {

const char* P = "POWERS";

// IsYeqX: Y = Z^Q against X; the first discrepancy of a run (N == 0) counts a DEFECT, but a
// power of zero to a non-positive exponent only warns; N counts them all.
void is_y_eq_x(Run& run, Range& g, float X, float Y, float Z, float Q) {
  if (Y == X) return;
  if (g.N <= 0) {
    std::string what =
        say("computing (%.17e) ^ (%.17e) yielded %.17e; which compared unequal to correct %.17e ; "
            "they differ by %.17e .",
            Z, Q, Y, X, double(Y) - double(X));
    if (Z == 0 && Q <= 0)
      run.line(P, "WARNING: " + what);
    else
      run.line(P, "DEFECT: " + what, Verdict::Defect);
  }
  ++g.N;
}

// SR3980: Y = Z^I against X, for I up to M, X multiplied by Z after each, while X < W; X and I
// are left as the loop leaves them (the program reads them afterwards).
void powers_from(Run& run, const Constants& c, Range& g, float Z, float& X, int& I, int M) {
  for (;;) {
    const float Q = float(I), x = X;
    auto r = run.values([&](Program& p) {
      Dev z = dev(p, Z);
      return std::vector<uint8_t>{pow(z, dev(p, Q)).r, (z * x).r};
    });
    is_y_eq_x(run, g, X, r[0], Z, Q);
    if (++I > M) break;
    X = r[1];
    if (!(X < c.W)) break;
  }
}
void powers_from(Run& run, const Constants& c, Range& g, float Z, int M) {  // X = Z, I = 1
  float X = Z;
  int I = 1;
  powers_from(run, c, g, Z, X, I, M);
}

void print_if_n_positive(Run& run, const Range& g) {
  if (g.N > 0) run.line(P, say("Similar discrepancies have occurred %d times.", g.N));
}

}  // namespace

void powers_of_integers(Run& run, const Constants& c, Range& g) {
  // A1 (milestone 40): the smallest of 2 and 10 whose powers the radix is, else the radix; on
  // the device, the divisions; FLOOR is bookkeeping.
  float A1 = 2, X = 0;
  for (bool done = false; !done;) {
    float a = c.radix;
    do {
      X = a;
      a = calc(run, [&](Program& p) { return dev(p, a) / A1; });
    } while (std::floor(a) == a);
    done = X == 1 || A1 > 3;
    if (!done) A1 = 10;
  }
  if (X == 1) A1 = c.radix;
  g.A1 = A1;
  g.AInvrse = calc(run, [&](Program& p) { return 1 / dev(p, A1); });
  g.BInvrse = calc(run, [&](Program& p) { return 1 / dev(p, c.radix); });

  // Milestone 90: powers of zero, then of -1. GLSL's pow of a negative base is undefined, so, as
  // paranoia.c's own comment says where (-1)^N is invalid, 1 replaces -1.
  run.line(P, "Testing powers Z^i for small Integers Z and i.");
  g.N = 0;
  float Z = -0.0f;
  for (int first = 0;;) {
    float X = 1;
    int I = first;
    powers_from(run, c, g, Z, X, I, 3);
    if (I <= 10) {
      I = 1023;  // Z^1023 against the X the last pass left
      powers_from(run, c, g, Z, X, I, 3);
    }
    if (Z == 1) break;
    Z = 1, first = -4;
  }
  print_if_n_positive(run, g);
  const int N1 = g.N;
  g.N = 0;
  // powers of A1 and of 1/A1, up to M = FLOOR(2 LOG(W) / LOG(A1))
  const int M = int(std::floor(2 * std::log(double(c.W)) / std::log(double(A1))));
  for (float z : {A1, g.AInvrse}) powers_from(run, c, g, z, M);

  // Milestone 100: a few primes, 3 to 23, up to their 20th power.
  for (float z = 3; z < 24;) {
    powers_from(run, c, g, z, 20);
    do z += 2;
    while (3 * std::floor(z / 3) == z);  // bookkeeping: odd numbers not multiples of 3
  }
  if (g.N > 0) run.line(P, "Errors like this may invalidate financial calculations involving interest rates.");
  print_if_n_positive(run, g);
  g.N += N1;
  if (g.N == 0) run.line(P, "... no discrepancies found.");
}

void powers_near_limits(Run& run, const Constants& c, Range& g) {
  const float U1 = c.U1, U2 = c.U2, F9 = c.F9, BInvrse = g.BInvrse;
  // Milestone 140: exp(2) summed as a series on the device, then X^((X + 1) / (X - 1)) for X
  // approaching 1 from both sides, which tends to it.
  float X = 0, Y = 6, Q = 0, Z = 0;  // Y = Two * Three
  for (int I = 3; I < 100; ++I) {
    Z = X;
    auto r = run.values([&](Program& p) {
      Dev y = dev(p, Y) / float(I + I), rr = y + Q, x = dev(p, Z) + rr, q = (dev(p, Z) - x) + rr;
      return std::vector<uint8_t>{y.r, x.r, q.r};
    });
    Y = r[0], X = r[1], Q = r[2];
    if (!(X > Z)) break;
  }
  const float Exp2 = calc(run, [&](Program& p) {
    Dev z = (1.5f + 1 / dev(p, 8)) + X / (1.5f * dev(p, 32)), x = z * z;
    return x * x;
  });
  const char* E = "POWERS NEAR 1";
  run.line(E, say("Testing X^((X + 1) / (X - 1)) vs. exp(2) = %.17e as X -> 1.", Exp2));
  g.N = 0;
  X = F9;
  Y = calc(run, [&](Program& p) { return dev(p, X) - U1; });
  const float limit = calc(run, [&](Program& p) { return dev(p, 240) * U2; });
  for (int I = 1; I < 1000;) {
    auto r = run.values([&](Program& p) {  // Z = (X + 1) / ((X - 1/B) - (1 - 1/B)); POW(X, Z) - exp(2)
      Dev x = dev(p, X), d = (x - BInvrse) - (1 - dev(p, BInvrse)), z = (x + 1) / d, pz = pow(x, z);
      return std::vector<uint8_t>{z.r, pz.r, (pz - Exp2).r, d.r};
    });
    if (std::fabs(r[2]) > limit) {
      g.N = 1;
      run.line(E,
               say("DEFECT: Calculated %.17e for (1 + (%.17e) ^ (%.17e); differs from correct value by %.17e . This "
                   "much error may spoil financial calculations involving tiny interest rates.",
                   r[1], r[3], r[0], r[2]),
               Verdict::Defect);
      break;
    }
    auto n = run.values([&](Program& p) {
      Dev x = dev(p, X), y = dev(p, Y), z = (y - x) * 2 + y, d = y - F9;
      return std::vector<uint8_t>{z.r, (1 + d * d).r};
    });
    X = Y, Y = n[0];
    if (n[1] > 1 && I < 20) {  // NoTrials
      ++I;
      continue;
    }
    if (X > 1) {
      if (g.N == 0) run.line(E, "Accuracy seems adequate.");
      break;
    }
    X = calc(run, [&](Program& p) { return 1 + dev(p, U2); });
    Y = calc(run, [&](Program& p) { return (dev(p, U2) + U2) + X; });
    I = 1;
  }

  // Milestone 150: A1^Q and A1^-Q against 1/C and C, Q = FLOOR(1/2 - LOG(C) / LOG(A1)), then
  // the same for 1/A1.
  const char* L = "POWERS AT THE EXTREMES";
  run.line(L, "Testing powers Z^Q at four nearly extreme values.");
  g.N = 0;
  Z = g.A1;
  Q = float(std::floor(0.5 - std::log(double(g.C)) / std::log(double(g.A1))));
  // A1, then 1/A1; the program loops until Z < 1, for ever where 1/A1 is not below 1 (a chopping
  // CPU makes its recalculated radix 1, and A1 with it): two passes at most here
  for (int pass = 0; pass < 2; ++pass) {
    auto r = run.values([&](Program& p) {
      Dev z = dev(p, Z);
      return std::vector<uint8_t>{pow(z, dev(p, Q)).r, pow(z, -dev(p, Q)).r};
    });
    is_y_eq_x(run, g, g.CInvrse, r[0], Z, Q);
    Q = -Q;
    is_y_eq_x(run, g, g.C, r[1], Z, Q);
    if (Z < 1) break;
    Z = g.AInvrse;
  }
  if (g.N > 0) run.line(L, say("Similar discrepancies have occurred %d times.", g.N));
  if (g.N == 0) run.line(L, " ... no discrepancies found.");
}

}  // namespace floatlab::paranoia_detail
