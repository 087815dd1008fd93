// The allocation experiment of docs/PERF.md: does where a buffer's memory comes from change
// how fast a streaming kernel reads it? Saxpy (y = a x + y) over fresh allocations, trial
// after trial in one process, for several array sizes and allocation strategies: one
// dedicated allocation per array, sub-allocation from blocks of the default size, and both
// arrays sub-allocated from one large block; each trial's time, and how many trials ran slow.
// And whether a GPU left idle (as while the CPU prepares data or times its reference) is slow
// to come back to speed, for warm-ups of several lengths.
#pragma once
#include "compute/gpu/context.h"

#include <nlohmann/json.hpp>

namespace gpu {

struct MemoryTrialSet {
  std::string strategy;  // describe(MemoryOptions)
  uint64_t array_bytes = 0;
  std::vector<double> ms;  // one median saxpy time a trial (fresh allocations each)
  double min_ms = 0, median_ms = 0, max_ms = 0;
  uint32_t slow = 0;                  // trials more than 25 % slower than the fastest
  double idle_s = 0, warmup_ms = 50;  // the GPU idle before each trial; time_gpu's warm-up
};

// Prints a line a set as it is measured; sizes past the device's memory are skipped. Then, at
// the second size, the GPU's clocks: trials after 0 and `idle_s` seconds idle, with warm-ups
// of 50, 200 and 1000 ms times `warm_scale`.
std::vector<MemoryTrialSet> memory_experiment(Context& ctx, const std::vector<uint64_t>& array_bytes, int trials,
                                              double idle_s, double warm_scale = 1);
nlohmann::json to_json(const std::vector<MemoryTrialSet>& sets);

}  // namespace gpu
