// Abecassis 2012, SIMSURF: simulation de surfaces usinées sur GPU (SIMSURF: machined surfaces
// simulated on GPUs), §14.2.2 and §14.5.1, run on the GPU (shaders/floatlab/ulp_cancel*.comp):
// - the table of rounding examples in single precision: v, rn(v) (the float the shader holds),
//   ULP(rn(v)) from its bits (eq. 14.2: eps * 2^e) and rn(v) + ULP, beside the printed values;
// - "catastrophic cancellation": the small root of x^2 + 200x - 0.000015 = 0 and
//   f(x) = (1 - cos x) / x^2 at x = 1.1e-8, each the textbook way and the stable way, in float
//   and (with shaderFloat64) double, against MPFR at 256 bits, in correct digits.
#pragma once
#include "compute/gpu/context.h"

#include <cstdint>
#include <string>
#include <vector>

namespace floatlab {

// One row of §14.2.2's table. The report's columns as printed (its decimal commas as points).
struct UlpRow {
  std::string v;         // the decimal asked, "0.3" (the last row may be the user's)
  double v_double = 0;   // its nearest double: what the GPU rounds with shaderFloat64
  bool printed = false;  // a row of the report's table
  std::string printed_rn, printed_ulp, printed_next;
  std::string reading_rn;           // printed_rn as we read it (a 0 the print dropped put back)
  float rn = 0, ulp = 0, next = 0;  // from the GPU
  uint32_t rn_bits = 0, next_bits = 0;
  float cpu_rn = 0;  // the CPU's conversion of the decimal (strtof: correctly rounded)
  bool rn_agrees = false, ulp_agrees = false, next_agrees = false;  // GPU vs print (reading_rn for rn)
  std::string note;                                                 // where the print and the GPU part
};

// One computed value of §14.5.1.
struct CancelRow {
  std::string example;               // "small root of x^2 + 200x - 0.000015" or "(1 - cos x) / x^2"
  std::string precision;             // "float", "double", "decimal, 10 digits"
  std::string method;                // the formula
  bool on_gpu = true;                // false: the report's 10-digit thought experiment, done on the CPU
  bool stable = false;               // the rewritten formula
  double value = 0, exact = 0;       // exact: MPFR (256 bits) at the inputs this precision holds
  double rel_error = 0, digits = 0;  // |value - exact| / |exact|; -log10 of it, in [0, 17]
  std::string report;                // what the report found for this value, or ""
};

struct UlpCancellation {
  std::string device;
  bool rounded_on_gpu = false;  // the table's rn(v) by float(double) in a shader (shaderFloat64)
  bool fp64 = false;            // the double rows ran
  double x = 1.1e-8;            // example 2's x
  std::vector<UlpRow> table;
  std::vector<CancelRow> rows;
};

// The report's five rows; `extra` (> 0) adds a sixth, a value of the user's. x: example 2's x,
// in [1e-12, 1] (the series the shaders use for sin and cos hold to |x| <= 1).
UlpCancellation ulp_and_cancellation(gpu::Context& ctx, double extra = 0, double x = 1.1e-8);

// Agrees with a printed decimal to its last digit: |value - printed| <= one unit of that digit
// (the report rounds some values and truncates others).
bool agrees_with_print(long double value, const std::string& printed);
// -log10(relative error), 17 for none, 0 for 100% or worse.
double correct_digits(double rel_error);
// Rounded to 10 significant decimal digits (the report's thought experiment rounds each operation).
long double round_decimal10(long double v);

}  // namespace floatlab
