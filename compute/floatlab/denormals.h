// Abecassis 2012, SIMSURF §14.3.2: denormal numbers ("nombres dénormalisés": subnormals, the
// floats below FLT_MIN that fill the gap down to 0) are "often treated as exceptions" by a CPU's
// floating-point instructions and can slow it down a lot; its DAZ (denormals are zero: subnormal
// operands read as 0) and FTZ (flush to zero: subnormal results written as 0) modes remove them;
// on the GPU "there is no time penalty". The same loop, y = c·y + d repeated, timed on normal and
// on subnormal values: on this CPU with DAZ and FTZ off, then on; on the GPU, whose compute stage
// keeps or flushes subnormals as its float controls say (controls.h).
#pragma once
#include "compute/gpu/context.h"

#include <string>
#include <vector>

namespace floatlab {

struct DenormalRow {
  std::string where;       // "CPU", "CPU, DAZ and FTZ on", "GPU"
  bool subnormal = false;  // the loop's values: subnormal, or normal
  double ms = 0, ns_per_operation = 0;
  double over_normal = 1;  // this row's time over the same place's normal loop
  float sample = 0;        // a result: 0 where the values were flushed
  bool results_subnormal = false, results_zero = false;
};

struct DenormalPenalty {
  std::string cpu, gpu;
  uint32_t count = 0, iterations = 0;  // values, and iterations of the loop each
  float c = 0.5f, d_normal = 0, d_subnormal = 0;
  bool daz_ftz = false;           // this CPU has the modes (SSE's MXCSR); else that row is missing
  std::vector<DenormalRow> rows;  // CPU normal, subnormal, subnormal with DAZ+FTZ; GPU normal, subnormal
};

// The loop on this CPU (one thread) and on the GPU, each timed as a median.
DenormalPenalty denormal_penalty(gpu::Context& ctx, uint32_t count = 1u << 16, uint32_t iterations = 256);

// The CPU's loop alone, its results into `out` (count values); `daz_ftz`: with the modes on.
void denormal_loop_cpu(std::vector<float>& out, uint32_t iterations, float c, float d, bool daz_ftz);

}  // namespace floatlab
