// Paranoia on the GPU (Kahan's 1983 program, in the form the seed's annex A prints it for a
// GeForce 7800 GTX: Da Graça 2006, "Arithmétique flottante sur processeurs graphiques",
// annexe A, and the milestones of netlib's C translation, paranoia.c, the annex left out). Every
// floating-point operation of every check runs on the float machine (machine.h) in one stage,
// compute, vertex or fragment, or on the CPU for the reference; only the comparisons of the
// results and the program's bookkeeping (FLOOR, LOG of its loop bounds) are the CPU's. The
// checks: small integers (milestones 7, 10), radix and precision (10, 25), extra-precise
// subexpressions (30), the constants U1 U2 F9 B9, comparison fuzz, guard digits of * / -, the
// annex's rounding tests of * / - (its line numbers kept) with and without multiply-adds, the
// sticky bit, square root, commutativity, powers (90-100, 140-150), underflow (110-130),
// overflow (160-180), range balance (190), X / X (200), special values, and the error bound of
// + - * / over random operands.
//
// The tally is paranoia.c's: each line carries the class the program counts for it (FAILURE,
// SERIOUS DEFECT, DEFECT, FLAW, or none), which is not always the class its words name: where
// X != Z yet X - Z = 0 the program prints "this is a SERIOUS DEFECT" but counts a FLAW; the
// annex's "DIVISION: FAILURE: Division lacks guard digit" is a DEFECT (and a SERIOUS DEFECT where
// X/1 != X) in paranoia.c's count; failures to round or chop count one FLAW in all; the checks
// beyond the program (readback, special values, the annex's error bounds) count nothing.
#pragma once
#include "compute/floatlab/machine.h"

#include <functional>
#include <string>
#include <vector>

namespace floatlab {

enum class Verdict { Ok, Flaw, Defect, SeriousDefect, Failure };
const char* verdict_name(Verdict v);  // "", "FLAW", "DEFECT", "SERIOUS DEFECT", "FAILURE"

struct ParanoiaLine {
  std::string check;              // "DIVISION GUARD BIT TESTS"
  std::string message;            // as Paranoia (or the annex's adaptation) prints it
  Verdict verdict = Verdict::Ok;  // what paranoia.c counts for it (Ok: nothing)
  bool summary = false;           // one of the SUMMARY block's lines
  Verdict says = Verdict::Ok;     // the class its words name, where that is not the one counted
  bool disagrees() const { return says != Verdict::Ok && says != verdict; }
  // a line of the milestones that judge GLSL's pow built-in (90-150, checks "POWERS..."), not the
  // arithmetic: Vulkan lets pow be as coarse as exp2(y * log2(x))
  bool of_pow() const { return check.rfind("POWERS", 0) == 0; }
};

struct ParanoiaReport {
  std::string stage;
  std::vector<ParanoiaLine> lines;
  double radix = 0, precision = 0;                   // in digits of the radix
  float u1 = 0, u2 = 0, smallest = 0, overflow = 0;  // smallest: E0; overflow: the threshold V
  float underflow_threshold = 0, saturation = 0;     // UfThold, V0
  bool gradual_underflow = false;
  bool rounded_all = false;  // *, /, +- and sqrt correctly rounded (paranoia.c's "Excellent!" needs it)
  // Error bound of + - * / in ulps over random operands, [lo, hi] (the annex's last lines).
  struct Bound {
    std::string op;
    double lo = 0, hi = 0;
    uint64_t count = 0;
  };
  std::vector<Bound> bounds;
  // Lines counted as v, as paranoia.c counts; without_pow: leaving out the pow built-in's lines.
  int count(Verdict v, bool without_pow = false) const;
  std::string diagnosis(bool without_pow = false) const;   // paranoia.c's closing sentence for the tally
  std::vector<std::string> summary() const;                // the SUMMARY block, as the annex prints it
  std::vector<const ParanoiaLine*> disagreements() const;  // lines whose words name another class
};

// Runs a batch of programs somewhere (a stage of FloatMachine, the CPU, or a test's own).
using Evaluator = std::function<std::vector<Registers>(const std::vector<Program>&)>;

// `random_pairs`: operands for each error bound.
ParanoiaReport paranoia(const Evaluator& eval, const std::string& stage, uint32_t random_pairs = 1u << 16,
                        uint32_t seed = 1);

// The SUMMARY block of the seed's annex A (Paranoia23, profile fp40, GeForce 7800 GTX), verbatim.
const std::vector<std::string>& annex_a_7800gtx();

}  // namespace floatlab
