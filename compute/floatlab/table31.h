// Table 3.1 of Da Graça 2006: the signed error range in ulps of each operation on the GPU,
// measured here against MPFR on many inputs: random over the whole float range and the hard
// cases (operands near powers of two, denormals, sums and differences that cancel), for + - * /
// (the report's four) and sqrt, inversesqrt, 1/x, exp2, log2, sin, cos, pow (beyond it), beside
// the report's 2006 figures (R300 and NV35 in its table 3.1, the 7800 GTX's in annex A). a / b is
// measured over Vulkan's domain for it (|b| in [2^-126, 2^126]), and outside it in a row of its
// own, labelled so. The report read its division's error as "dividend times the rounded
// reciprocal of the divisor": division.h asks that of this GPU bit for bit.
#pragma once
#include "compute/floatlab/probes.h"

#include <functional>
#include <string>
#include <vector>

namespace floatlab {

struct ErrorRange {
  std::string op, domain;
  uint64_t count = 0;               // inputs measured
  uint64_t skipped = 0;             // inputs whose exact result is not a finite float
  double lo = 0, hi = 0;            // signed error, (gpu - exact) / ulp(exact), over the inputs with no denormal
  double correctly_rounded = 0;     // share equal to the exact value rounded to nearest
  std::string vulkan;               // what Vulkan allows
  std::string r300, nv35, gtx7800;  // the report's 2006 figures, "-" where it gives none
  // inputs where an operand or the exact result is a denormal, apart from the range (Vulkan lets
  // a driver flush them, and the 2006 GPUs had none), and the share of them correctly rounded
  uint64_t denormal_count = 0;
  double denormal_correct = 0;
};

// Where the exact results come from: + - * / sqrt and 1 / x from double arithmetic rounded once
// (exact enough: 53 >= 2 * 24 + 2 bits), exp2, log2, pow and inversesqrt from long double, sin and
// cos from MPFR (Fastest); or all from MPFR (the tests compare the two).
enum class Exact { Fastest, Mpfr };

// The signed error range in ulps of results `got` of `op` (table 3.1's rows; Add, Sub, Mul,
// Div, Sqrt, InverseSqrt, Rcp, Exp2, Log2, Sin, Cos, Pow) on operands a, b, against the exact ones.
ErrorRange ulp_errors(Op op, const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& got,
                      Exact exact = Exact::Fastest);

// `count` inputs an operation and domain, in chunks (the count is ours: the report does not say
// how many inputs its table 3.1, another group's Paranoia adaptation, used); `progress` hears
// about each finished row.
std::vector<ErrorRange> error_ranges(Probes& probes, uint64_t count, uint32_t seed = 1,
                                     const std::function<void(const ErrorRange&)>& progress = {},
                                     Exact exact = Exact::Fastest);

}  // namespace floatlab
