// The annex's checks (Da Graça 2006, annexe A: the Paranoia adaptation run on a 7800 GTX), with
// its line numbers and its words; every operation on the float machine, the comparisons on the
// CPU. What each line counts is what netlib's paranoia.c counts for the same finding: where the
// annex's words name another class (its "FAILURE: Division lacks guard digit"), the line counts
// nothing and paranoia.c's own lines follow it with their classes.
#include "compute/floatlab/paranoia_run.h"

#include <cmath>
#include <random>

namespace floatlab::paranoia_detail {

void annex_checks(Run& run, const Constants& c, uint32_t seed, Findings& found) {
  const float U1 = c.U1, U2 = c.U2, F9 = c.F9, B9 = c.B9;
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
    run.summary(F, ok ? "No fuzziness detected in comparison" : "FAILURE: Comparison is fuzzy, X=1 but X-1/2-1/2 != 0",
                ok ? Verdict::Ok : Verdict::Failure);
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
    found.guard_mul = ok;
    // paranoia.c counts a missing guard digit of * as a SERIOUS DEFECT
    run.summary(
        M,
        ok ? "MULTIPLICATION: Seems to have guard bit" : "MULTIPLICATION: FAILURE: * lacks a Guard Digit, so 1*X != X",
        ok ? Verdict::Ok : Verdict::SeriousDefect, ok ? Verdict::Ok : Verdict::Failure);
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
    for (size_t i = 0; i < r.size(); ++i) {
      const float down = chopped(exact[i]);  // faithful: the floats on either side of an inexact product
      const bool inexact = static_cast<long double>(down) != exact[i];
      ok &= r[i] == down || (inexact && r[i] == std::nextafter(down, float(exact[i] * 2)));
    }
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
    // the annex's words; paranoia.c's count (its milestone 35) follows in its own lines
    run.summary(D, ok ? "DIVISION: Seems to have guard digit" : "DIVISION: FAILURE: Division lacks guard digit",
                Verdict::Ok, ok ? Verdict::Ok : Verdict::Failure);
    if (!(t[0] && t[1] && t[2]))
      run.summary(D,
                  "DEFECT: Division lacks a Guard Digit, so error can exceed 1 ulp or 1/3 and 3/9 and 9/27 may "
                  "disagree",
                  Verdict::Defect);
    found.guard_div = t[3] && t[4] && t[2];
    if (!found.guard_div)
      run.summary(D, "SERIOUS DEFECT: Division lacks a Guard Digit, so X/1 != X", Verdict::SeriousDefect);
    if (!t[5]) run.summary(D, "SERIOUS DEFECT: Computed value of 1/1.000..1 >= 1", Verdict::SeriousDefect);
  }
  {
    const char* S = "ADDITION/SUBTRACTION GUARD BIT TESTS";
    auto r = run.many({[&](Program& p) { return p.sub(p.sub(p.in(1), p.in(U1)), p.in(1)); },
                       [&](Program& p) { return p.sub(p.in(F9), p.in(1)); },
                       [&](Program& p) { return p.sub(p.add(p.in(1), p.in(U2)), p.in(1)); }});
    bool t[3] = {r[0] == -U1, r[1] == -U1, r[2] == U2};
    run.line(S, std::string("Subtraction guard bit tests: ") + passed(t[0]) + " " + passed(t[1]) + " " + passed(t[2]));
    bool ok = t[0] && t[1] && t[2];
    found.guard_sub = ok;
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
    found.mul = rounding_verdict(run, M, "MULTIPLICATION", rs);
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
    // each exact quotient must round to the bound or below (the first three lie just below a halfway
    // point; 1.5/(1+U2) just above one, so its nearest float is 1.5-U2)
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
    found.div = rounding_verdict(run, D, "DIVISION", rs);
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
    // paranoia.c's add/subtract rounding and its "(X - Y) + (Y - X) is non zero!" FLAW: from the
    // run without multiply-adds, whose sums are the program's (a product rounded, then added)
    Rounds rounds = rounding_verdict(run, S, who, rs);
    if (!macs) found.add_sub = rounds;
    run.summary(S, who + (zero ? ": (X-Y) + (Y-X) == 0 test passed" : ": (X-Y) + (Y-X) == 0 test failed"),
                zero || macs ? Verdict::Ok : Verdict::Flaw);
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
}

}  // namespace floatlab::paranoia_detail
