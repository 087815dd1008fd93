// Abecassis 2012, SIMSURF §4.3: a display's watchdog (chien de garde) kills a GPU computation that
// runs too long (10 s on Linux then; a frame's worth in a window today), so the tool path is
// milled in partitions, a submission each. §4.3.1, static partitioning: a fixed count of
// positions a submission (too few: the launches cost; too many: a timeout). §4.3.2, dynamic
// partitioning: each submission's measured time feeds back into the next one's size, smaller
// when it came close to the limit, larger when not; it cannot promise that no submission
// overruns, and the report notes so. DynamicPartition is that feedback; mill_in_partitions()
// runs a whole path either way and times every submission (the bench's section 4.3).
#pragma once
#include "compute/machining/zbuffer.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace machining {

class DynamicPartition {
 public:
  // budget_ms: the time a submission may take; first: the first submission's positions;
  // most: the largest (the path's length).
  DynamicPartition(double budget_ms, uint32_t first, uint32_t most);
  uint32_t next() const { return next_; }
  double budget_ms() const { return budget_ms_; }
  // The submission that milled `count` positions took `ms` on the GPU: aim the next at
  // kAim of the budget at that rate, growing at most twice a submission.
  void feed(uint32_t count, double ms);
  static constexpr double kAim = 0.8;  // the margin the report's variance asks for

 private:
  double budget_ms_;
  uint32_t next_, most_;
};

// One submission: the positions it milled and its GPU time.
struct Submission {
  uint32_t positions = 0;
  double ms = 0;
};

// Every submission of a run and what a user reads from them.
struct PartitionStats {
  std::vector<Submission> submissions;
  double budget_ms = 0;  // 0: no budget (static partitioning)
  double wall_ms = 0;    // the whole path, submissions and their waits included
  uint64_t positions() const;
  double gpu_ms() const;
  double median_ms() const;
  double max_ms() const;
  uint32_t over_budget() const;  // submissions longer than the budget (a watchdog's timeouts)
};

// Mills the whole path from the flat stock with engine `e`, a submission at a time, waiting for
// each: `fixed` positions each (§4.3.1), or, without it, sized by a DynamicPartition of
// `budget_ms` starting at `first` (§4.3.2).
PartitionStats mill_in_partitions(gpu::Context& ctx, Machine& m, Engine e, std::optional<uint32_t> fixed,
                                  double budget_ms, uint32_t first = 1);

}  // namespace machining
