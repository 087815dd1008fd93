// paranoia.c's milestones 160 to 200 on the float machine: the overflow threshold V and what
// overflow saturates at (V0), comparisons near the limits, square roots at the thresholds, the
// balance of the range (UfThold * V near 1), and X / X = 1 for five X, the largest finite one
// included (a division built as X * (1/X), its reciprocal flushed to 0, fails there).
#include "compute/floatlab/paranoia_run.h"

#include <cmath>

namespace floatlab::paranoia_detail {

void overflow(Run& run, const Constants& c, Range& g, ParanoiaReport& rep) {
  const char* O = "OVERFLOW";
  const float radix = c.radix, U1 = c.U1, U2 = c.U2, HInvrse = g.HInvrse, E9 = g.E9;
  // Milestone 160: -1/C multiplied by HInvrse while it grows in magnitude (a GPU does not trap).
  run.line(O, "Searching for Overflow threshold:");
  float Y = calc(run, [&](Program&p) { return -dev(p, g.CInvrse); }), V = Y;
  float V9 = calc(run, [&](Program& p) { return dev(p, HInvrse) * Y; });
  for (int i = 0; i < 1000; ++i) {
    V = Y, Y = V9;
    V9 = calc(run, [&](Program& p) { return dev(p, HInvrse) * Y; });
    if (!(V9 < Y)) break;
  }
  const float Z = V9;
  run.line(O, say("Can `Z = -Y' overflow? Trying it on Y = %.17e .", Y));
  const float V0 = calc(run, [&](Program& p) { return -dev(p, Y); });
  auto s = run.values([&](Program& p) {
    Dev v = dev(p, V);
    return std::vector<uint8_t>{(v - Y).r, (v + V0).r};
  });
  if (s[0] == s[1])
    run.line(O, "Seems O.K.");
  else
    run.line(O, "finds a FLAW: -(-Y) differs from Y.", Verdict::Flaw);
  if (Z != Y) run.line(O, say("SERIOUS DEFECT: overflow past %.17e shrinks to %.17e .", Y, Z), Verdict::SeriousDefect);
  // V: the largest finite number, from the last V before overflow
  auto t = run.values([&](Program& p) {
    Dev h = dev(p, HInvrse), u = dev(p, U2), v = dev(p, V);
    Dev y = v * (h * u - h), z = y + ((1 - h) * u) * v;
    return std::vector<uint8_t>{y.r, z.r};
  });
  float Yv = t[0];
  if (t[1] < V0) Yv = t[1];
  if (Yv < V0) V = Yv;
  if (calc(run, [&](Program& p) { return dev(p, V0) - V; }) < V0) V = V0;
  run.line(O, say("Overflow threshold is V  = %.17e .", V));
  run.summary(O, say("Overflow saturates at V0 = %g .", V0));
  auto k = run.values([&](Program& p) {
    Dev v = dev(p, V);
    return std::vector<uint8_t>{(v * 1).r, (v / 1).r};
  });
  run.line(O, say("No Overflow should be signaled for V * 1 = %.17e nor for V / 1 = %.17e .", k[0], k[1]));
  g.V = V, g.V0 = V0;
  rep.overflow = V, rep.saturation = V0;

  // Milestone 170: comparisons with the negated thresholds.
  const char* L = "LIMITS";
  auto n = run.values([&](Program& p) {
    return std::vector<uint8_t>{(-dev(p, V)).r, (-dev(p, V0)).r, (-dev(p, g.UfThold)).r};
  });
  if (!(n[0] < V && n[1] < V0 && n[2] < V && g.UfThold < V))
    run.line(L, say("FAILURE: Comparisons involving +-%g, +-%g and +-%g are confused by Overflow.", V, V0, g.UfThold),
             Verdict::Failure);

  // Milestone 175: sqrt(Z)^2 against Z at the underflow thresholds.
  for (float z : {g.UfThold, g.E0, g.PseudoZero}) {
    if (z == 0) continue;
    auto q = run.values([&](Program& p) {
      Dev v9 = sqrt(dev(p, z)), y = v9 * v9, re = dev(p, radix) * E9;
      return std::vector<uint8_t>{v9.r, y.r, (y / (1 - re)).r, ((1 + re) * z).r};
    });
    if (q[2] < z || q[1] > q[3]) {
      const bool serious = q[0] > U1;
      run.line(L,
               say("%s: Comparison alleges that what prints as Z = %.17e is too far from sqrt(Z) ^ 2 = %.17e .",
                   serious ? "SERIOUS DEFECT" : "DEFECT", z, q[1]),
               serious ? Verdict::SeriousDefect : Verdict::Defect);
    }
  }

  // Milestone 180: the same at the overflow threshold and the saturation value.
  for (float z : {V, V0}) {
    auto q = run.values([&](Program& p) {
      Dev zz = dev(p, z), v9 = sqrt(zz), one = dev(p, 1), r = dev(p, radix), e9 = dev(p, E9);
      Dev x = (one - r * e9) * v9, v = v9 * x;
      return std::vector<uint8_t>{x.r, v.r, ((one - 2 * r * e9) * zz).r};
    });
    if (q[1] < q[2] || q[1] > z) {
      const bool serious = q[0] < c.W;
      run.line(L,
               say("%s: Comparison alleges that Z = %.17e is too far from sqrt(Z) ^ 2 (%.17e) .",
                   serious ? "SERIOUS DEFECT" : "DEFECT", z, q[1]),
               serious ? Verdict::SeriousDefect : Verdict::Defect);
    }
  }

  // Milestone 190: UfThold * V should be near 1.
  auto b = run.values([&](Program& p) {
    Dev x = dev(p, g.UfThold) * V, y = dev(p, radix) * radix;
    return std::vector<uint8_t>{x.r, y.r, (x * y).r, (y / U1).r};
  });
  const float X = b[0], Yr = b[1], XY = b[2];
  if (XY < 1 || X > Yr) {
    const bool badly = XY < U1 || X > b[3];
    run.line(L,
             say("%s unbalanced range; UfThold * V = %.17e is too far from 1.", badly ? "DEFECT: Badly" : "FLAW:", X),
             badly ? Verdict::Defect : Verdict::Flaw);
  }

  // Milestone 200: X / X - 1/2 - 1/2 = 0 for X = F9, 1 + U2, V, UfThold, radix.
  const char* D = "X / X";
  const float one_up = calc(run, [&](Program& p) { return 1 + dev(p, U2); });
  const float xs[] = {c.F9, one_up, V, g.UfThold, radix};
  int bad = 0;
  for (int i = 0; i < 5; ++i) {
    const float x = xs[i];
    const float v9 = calc(run, [&](Program& p) {
      Dev d = dev(p, x);
      return (d / d - 0.5f) - 0.5f;
    });
    if (v9 == 0) continue;
    ++bad;
    // one ulp below 1 is a FLAW, anything else (and any miss at X = radix) a SERIOUS DEFECT
    const bool flaw = v9 == -U1 && i < 4;
    run.line(D,
             say("%s: X / X differs from 1 when X = %.17e instead, X / X - 1/2 - 1/2 = %.17e .",
                 flaw ? "FLAW" : "SERIOUS DEFECT", x, v9),
             flaw ? Verdict::Flaw : Verdict::SeriousDefect);
  }
  if (!bad) run.line(D, "X / X = 1 for X = F9, 1 + U2, V, UfThold and the radix.");
}

}  // namespace floatlab::paranoia_detail
