// Paranoia on the GPU (Kahan's 1983 program, in the form the seed's annex A prints it for a
// GeForce 7800 GTX: Da Graça 2006, "Arithmétique flottante sur processeurs graphiques",
// annexe A). Every floating-point operation of every check runs on the float machine
// (machine.h) in one stage, compute, vertex or fragment, or on the CPU for the reference;
// only the comparisons of the results are the CPU's. The checks: radix and precision, the
// constants U1 U2 F9 B9, comparison fuzz, guard digits of * / -, the annex's rounding tests of *
// / - (its line numbers kept) with and without multiply-adds, the sticky bit, square root,
// commutativity, underflow (gradual or abrupt), overflow, special values, and the error bound
// of + - * / over random operands. Each line carries Paranoia's classes: FAILURE, SERIOUS
// DEFECT, DEFECT, FLAW.
#pragma once
#include "compute/floatlab/machine.h"

#include <functional>
#include <string>
#include <vector>

namespace floatlab {

enum class Verdict { Ok, Flaw, Defect, SeriousDefect, Failure };
const char* verdict_name(Verdict v);  // "", "FLAW", "DEFECT", "SERIOUS DEFECT", "FAILURE"

struct ParanoiaLine {
  std::string check;    // "DIVISION GUARD BIT TESTS"
  std::string message;  // as Paranoia (or the annex's adaptation) prints it
  Verdict verdict = Verdict::Ok;
  bool summary = false;  // one of the SUMMARY block's lines
};

struct ParanoiaReport {
  std::string stage;
  std::vector<ParanoiaLine> lines;
  double radix = 0, precision = 0;  // in digits of the radix
  float u1 = 0, u2 = 0, smallest = 0, overflow = 0;
  bool gradual_underflow = false;
  // Error bound of + - * / in ulps over random operands, [lo, hi] (the annex's last lines).
  struct Bound {
    std::string op;
    double lo = 0, hi = 0;
    uint64_t count = 0;
  };
  std::vector<Bound> bounds;
  int count(Verdict v) const;
  std::string diagnosis() const;             // Paranoia's closing sentence
  std::vector<std::string> summary() const;  // the SUMMARY block, as the annex prints it
};

// Runs a batch of programs somewhere (a stage of FloatMachine, the CPU, or a test's own).
using Evaluator = std::function<std::vector<Registers>(const std::vector<Program>&)>;

// `random_pairs`: operands for each error bound.
ParanoiaReport paranoia(const Evaluator& eval, const std::string& stage, uint32_t random_pairs = 1u << 16,
                        uint32_t seed = 1);

// The SUMMARY block of the seed's annex A (Paranoia23, profile fp40, GeForce 7800 GTX), verbatim.
const std::vector<std::string>& annex_a_7800gtx();

}  // namespace floatlab
