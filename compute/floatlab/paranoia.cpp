#include "compute/floatlab/paranoia.h"

#include "compute/floatlab/paranoia_run.h"

#include <cmath>
#include <cstdio>
#include <cstring>
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

int ParanoiaReport::count(Verdict v, bool without_pow) const {
  int n = 0;
  for (auto& l : lines) n += l.verdict == v && !(without_pow && l.of_pow());
  return n;
}

// paranoia.c's closing words (its milestone 220) for the tally.
std::string ParanoiaReport::diagnosis(bool without_pow) const {
  const int f = count(Verdict::Failure, without_pow), s = count(Verdict::SeriousDefect, without_pow),
            d = count(Verdict::Defect, without_pow), fl = count(Verdict::Flaw, without_pow);
  if (f)
    return "The arithmetic diagnosed has unacceptable Serious Defects. Potentially fatal FAILURE may have spoiled "
           "this program's subsequent diagnoses.";
  if (s) return "The arithmetic diagnosed has unacceptable Serious Defects.";
  if (d) return "The arithmetic diagnosed may be Acceptable despite inconvenient Defects.";
  if (fl) return "The arithmetic diagnosed seems Satisfactory though flawed.";
  return rounded_all ? "The arithmetic diagnosed appears to be Excellent!"
                     : "The arithmetic diagnosed seems Satisfactory.";
}

std::vector<const ParanoiaLine*> ParanoiaReport::disagreements() const {
  std::vector<const ParanoiaLine*> out;
  for (auto& l : lines)
    if (l.disagrees()) out.push_back(&l);
  return out;
}

std::vector<std::string> ParanoiaReport::summary() const {
  std::vector<std::string> s = {"SUMMARY", "Stage = " + stage};
  for (auto& l : lines)
    if (l.summary) s.push_back(l.message);
  char buf[300];
  std::snprintf(buf, sizeof buf, "FAILUREs %d, SERIOUS DEFECTs %d, DEFECTs %d, FLAWs %d (counted as paranoia.c counts)",
                count(Verdict::Failure), count(Verdict::SeriousDefect), count(Verdict::Defect), count(Verdict::Flaw));
  s.push_back(buf);
  int from_pow = 0;
  for (Verdict v : {Verdict::Failure, Verdict::SeriousDefect, Verdict::Defect, Verdict::Flaw})
    from_pow += count(v) - count(v, true);
  if (from_pow) {
    std::snprintf(buf, sizeof buf,
                  "of these, %d from GLSL's pow built-in (milestones 90-150); without them: FAILUREs %d, SERIOUS "
                  "DEFECTs %d, DEFECTs %d, FLAWs %d",
                  from_pow, count(Verdict::Failure, true), count(Verdict::SeriousDefect, true),
                  count(Verdict::Defect, true), count(Verdict::Flaw, true));
    s.push_back(buf);
  }
  if (size_t n = disagreements().size())
    s.push_back(std::to_string(n) + (n == 1 ? " line names" : " lines name") +
                " another class than the one paranoia.c counts for it (see the log)");
  s.push_back(diagnosis());
  if (from_pow) s.push_back("Without the pow built-in's lines: " + diagnosis(true));
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

using namespace paranoia_detail;

ParanoiaReport paranoia(const Evaluator& eval, const std::string& stage, uint32_t random_pairs, uint32_t seed) {
  ParanoiaReport rep;
  rep.stage = stage;
  Run run(eval, rep);

  // Readback: special values and a denormal through a move (the annex's "Readback seems to work";
  // not one of paranoia.c's checks, so not in its tally).
  {
    const float vals[] = {std::numeric_limits<float>::infinity(), -0.0f, std::numeric_limits<float>::denorm_min(),
                          3.0f};
    std::vector<Build> bs;
    for (float v : vals) bs.push_back([v](Program& p) { return p.in(v); });
    auto got = run.many(bs);
    bool same = true;
    for (size_t i = 0; i < got.size(); ++i) same &= std::memcmp(&got[i], &vals[i], 4) == 0;
    run.summary("READBACK", same ? "Readback seems to work" : "FAILURE: values change on their way through the GPU",
                Verdict::Ok, same ? Verdict::Ok : Verdict::Failure);
  }

  small_integers(run);  // milestones 7 and 10

  // Radix and precision (milestone 10): W doubled on the GPU until ((W + 1) - W) - 1 is not 0;
  // then the radix is the first nonzero (W + Y) - W for Y = 1, 2, 4...; then the digits: W
  // multiplied by the radix until (W + 1) - W is not 1.
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
  if (radix < 2) radix = 1;
  run.line(RP, fmt("Radix = %f .", radix));
  double digits = 0;
  W = 1;
  for (float y = 1; radix != 1 && y == 1 && digits < 300;) {
    ++digits;
    W = run.one([&](Program& p) { return p.mul(p.in(W), p.in(radix)); });
    y = run.one([&](Program& p) { return p.sub(p.add(p.in(W), p.in(1)), p.in(W)); });
  }

  // U1 = 1/W (the gap below 1), U2 = radix·U1 (above 1), then found again another way (the rest
  // of milestone 10); F9 = (1/2 - U1) + 1/2, B9 = ((radix - 1) - U2) + 1 (milestone 25), all on
  // the GPU; then verified as the annex does.
  const char* UV = "U1 U2 F9 B9";
  Constants k{radix, 0, 0, 0, 0, W, float(digits)};
  k.U1 = calc(run, [&](Program& p) { return 1 / dev(p, W); });
  k.U2 = calc(run, [&](Program& p) { return dev(p, radix) * k.U1; });
  run.line(UV, fmt("Closest relative separation found is U1 = %.7e .", k.U1));
  recalculate_precision(run, k);
  const float U1 = k.U1, U2 = k.U2;
  k.F9 = calc(run, [&](Program& p) { return (0.5f - dev(p, U1)) + 0.5f; });
  const float F9 = k.F9;
  k.B9 = run.one([&](Program& p) { return p.add(p.sub(p.sub(p.in(radix), p.in(1)), p.in(U2)), p.in(1)); });
  const float B9 = k.B9;
  rep.radix = k.radix, rep.precision = k.precision;
  rep.u1 = U1, rep.u2 = U2;
  run.line(UV, "Verifying U1 U2 F9 and B9");
  auto c = run.many({[&](Program& p) { return p.sub(p.in(1), p.in(U1)); },
                     [&](Program& p) { return p.add(p.in(F9), p.in(U1)); },
                     [&](Program& p) { return p.sub(p.add(p.in(1), p.in(U2)), p.in(1)); },
                     [&](Program& p) { return p.add(p.in(B9), p.in(U2)); }});
  bool verified = c[0] == F9 && c[1] == 1 && c[2] == U2 && c[3] == radix && U1 == std::ldexp(1.0f, -24);
  // the annex's words; paranoia.c's own check of F9 + U1 and B9 + U2 (its milestone 50) is a FAILURE
  const bool carry = c[1] == 1 && c[3] == radix;
  run.summary(UV,
              verified ? "U1 U2 F9 B9 Verified"
                       : "VERIFY U1, U2, F9, B9, FAILURE CAN ALSO MEAN INCOMPLETE CARRY PROPOGATION: FAILURE",
              carry ? Verdict::Ok : Verdict::Failure, verified || !carry ? Verdict::Ok : Verdict::Failure);
  run.line(UV, fmt("The gap between 1 and the next number up is U2 = %.7e .", U2));
  precision_checks(run, k);  // milestones 25 and 30
  run.summary("", "----BEGINNING PARANOIA TESTS----");

  Findings f;
  paranoia_detail::annex_checks(run, k, seed, f);
  paranoia_detail::classic_checks(run, k, rep, eval, random_pairs, seed, f);
  return rep;
}

}  // namespace floatlab
