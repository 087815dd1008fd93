// Float-float operators (Da Graça 2006, ch. 4) run on the GPU (shaders/common/floatfloat.glsl,
// shaders/floatlab/add22_priest.glsl) and their accuracy measured against MPFR. Two Add22: the
// report's as it prints it (Add22Priest: seven Priest Add12, no renormalisation) and ours, improved
// (Add22: seven TwoSum, then a renormalising fast Add12), measured the same way.
#pragma once
#include "compute/gpu/pipeline.h"

#include <array>
#include <string>
#include <vector>

namespace floatlab {

enum class FfOp : uint32_t {
  Add12,
  Mul12,
  Mul12Fma,
  Add22,  // ours, improved: "add22_improved"
  Mul22,
  Div22,
  Sqrt22,
  Add12Priest,
  Add,
  Mul,
  Mad,
  Add22Priest  // the report's theorem 4 as printed: "add22_priest"
};
const char* ff_name(FfOp op);
const char* ff_variant(FfOp op);  // whose operator it is: the report's, ours, beyond the report

using Ff = std::array<float, 2>;  // hi, lo

// The operators on the CPU, as floatfloat.glsl writes them (Add, Mul, Mad: hi only; Mad: a*b + b.lo).
Ff ff_cpu(FfOp op, Ff a, Ff b);

struct FfAccuracy {
  std::string op;
  uint64_t count = 0;
  bool exact = false;                      // every result's hi + lo equals the exact value (Add12, Mul12)
  double bits = 0;                         // worst case: -log2(|result - exact| / scale)
  std::string seed_theory, seed_measured;  // table 4.1, "-" where it gives none for this operator
  std::string variant;                     // ff_variant()
};

// Time of `reps` dependent operations per element, in registers (the seed's ch. 4.3.1).
struct FfThroughput {
  std::string op;
  uint32_t elements = 0, reps = 0;
  double median_ms = 0;
  double gops = 0;             // operations per second / 1e9
  double relative_to_add = 0;  // the seed's unit: one float addition = 1
};

// How the operators' kernel is built: as written (every step `precise`), Loose (without
// `precise`: the driver free to contract; controls.h), TowardZero (every float operation rounded
// towards zero, as the 2006 GPUs chopped; only where the device offers it: chopped.h).
enum class FfBuild { Precise, Loose, TowardZero };

// The worst-case correct bits of the results r of op over a and b, against MPFR on every core,
// with table 4.1's figures beside the report's own operators.
FfAccuracy ff_accuracy(FfOp op, const std::vector<Ff>& a, const std::vector<Ff>& b, const std::vector<Ff>& r);

class FloatFloat {
 public:
  explicit FloatFloat(gpu::Context& ctx, FfBuild build = FfBuild::Precise);
  std::vector<Ff> run(FfOp op, const std::vector<Ff>& a, const std::vector<Ff>& b);
  // Seed 002 annex B: `op` over a and b timed as the report timed it, with the transfers (upload
  // both, run, download: wall clock, median of `repeats`), and the kernel alone (GPU timestamps).
  struct RoundTrip {
    double median_ms = 0, kernel_ms = 0;
  };
  RoundTrip time_round_trip(FfOp op, const std::vector<Ff>& a, const std::vector<Ff>& b, int repeats,
                            double warmup_ms = 20);  // the kernel's warm-up (gpu::time_gpu)
  // Random normalised inputs (no denormals, as in the seed), error measured with MPFR.
  std::vector<FfAccuracy> accuracy(uint32_t count, uint32_t seed);
  // float add/mul/fma, the float-float operators, and native fp64 add/mul/div/sqrt where
  // the device has shaderFloat64.
  std::vector<FfThroughput> throughput(uint32_t elements, uint32_t reps, double warmup_ms);

 private:
  gpu::Context& ctx_;
  gpu::Pipeline pipeline_, throughput_, fp64_;
};

// Random float-float values hi + lo, |lo| <= ulp(hi)/2, exponents in [-20, 20], both signs.
std::vector<Ff> random_ff(uint32_t count, uint32_t seed, bool positive = false);

}  // namespace floatlab
