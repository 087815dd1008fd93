// The allocation experiment of docs/PERF.md: does where a buffer's memory comes from change
// how fast a streaming kernel reads it? Saxpy (y = a x + y) over fresh allocations, trial
// after trial in one process, for several array sizes and allocation strategies: one
// dedicated allocation per array, sub-allocation from blocks of the default size, and both
// arrays sub-allocated from one large block; each trial's time, and how many trials ran slow.
#pragma once
#include "context.h"

#include <nlohmann/json.hpp>

namespace gpu {

struct MemoryTrialSet {
  std::string strategy;    // describe(MemoryOptions)
  uint64_t array_bytes = 0;
  std::vector<double> ms;  // one median saxpy time a trial (fresh allocations each)
  double min_ms = 0, median_ms = 0, max_ms = 0;
  uint32_t slow = 0;  // trials more than 25 % slower than the fastest
};

// Prints a line a set as it is measured; sizes past the device's memory are skipped.
std::vector<MemoryTrialSet> memory_experiment(Context& ctx, const std::vector<uint64_t>& array_bytes, int trials);
nlohmann::json to_json(const std::vector<MemoryTrialSet>& sets);

}  // namespace gpu
