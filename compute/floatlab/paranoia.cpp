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

using namespace paranoia_detail;

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

  paranoia_detail::Constants k{radix, U1, U2, F9, B9};
  paranoia_detail::annex_checks(run, k, seed);
  paranoia_detail::classic_checks(run, k, rep, eval, random_pairs, seed);
  return rep;
}

}  // namespace floatlab
