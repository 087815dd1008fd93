// Da Graça 2006 like for like: its GPUs chopped (rounded towards zero) their sums and products
// (§3.1, §3.3) where ours round to nearest, so its table 3.1 and table 4.1 measured other
// arithmetic than ours. Here the same probes and float-float operators run under rounding towards
// zero: on the GPU with SPIR-V's RoundingModeRTZ (a shader float control, only where the device
// offers it: shaderRoundingModeRTZFloat32), and always on this CPU under
// fesetround(FE_TOWARDZERO), IEEE-754's rounding towards zero, the reference the GPU's results
// are compared with bit for bit. Beside them: the report's figures and today's round to nearest.
#pragma once
#include "compute/floatlab/floatfloat.h"
#include "compute/floatlab/table31.h"

#include <functional>
#include <string>
#include <vector>

namespace floatlab {

// Runs f with this CPU's rounding mode towards zero, then puts back the mode it found.
void with_rounding_toward_zero(const std::function<void()>& f);

// One probe operation (Add, Sub, Mul, SubSub, Div) on this CPU in binary32, in the current
// rounding mode, no fusing (this file is built with -ffp-contract=off -frounding-math).
float cpu_probe(Op op, float a, float b, float c);

// A probe of the adders (TEST 3, 5, 6): its answer on the GPU under RTZ ("-" where the device
// cannot), on this CPU under RTZ, on the GPU as it rounds by default, and on the 7800GTX (2006).
struct ChoppedProbe {
  std::string test, question, gpu, cpu, nearest, gtx7800;
};

// Table 3.1's error range of + - * / in ulps on positive operands, under RTZ on the GPU and on
// this CPU and as the GPU rounds by default, beside the report's "Troncature" (chopping) column
// and its R300 and NV35.
struct ChoppedRange {
  std::string op;
  ErrorRange gpu, cpu, nearest;  // gpu.count == 0 where the device cannot
  uint64_t differing = 0;        // GPU results not equal to the CPU's, bit for bit
  std::string chopping, r300, nv35;
};

// Table 4.1's operators under RTZ: correct bits on the GPU and on this CPU, results differing,
// and the same operator under today's round to nearest on the GPU.
struct ChoppedOperator {
  FfAccuracy gpu, cpu, nearest;  // gpu.count == 0 where the device cannot
  uint64_t differing = 0;
};

struct Chopped {
  std::string device;
  bool offered = false;  // shaderRoundingModeRTZFloat32
  std::string why_not;   // where not offered: what the device lacks
  uint32_t count = 0;    // random inputs a row
  std::vector<ChoppedProbe> probes;
  std::vector<ChoppedRange> ranges;
  std::vector<ChoppedOperator> operators;
};

// `count` random inputs an operation (at least 64).
Chopped chopped_arithmetic(gpu::Context& ctx, uint32_t count = 1u << 16, uint32_t seed = 1);

}  // namespace floatlab
