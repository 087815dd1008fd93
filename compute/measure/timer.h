// The timer every bench uses: time_gpu, a warmed-up median of a recorded application's GPU
// time; and the medians of CPU wall-clock times (the CPU references).
#pragma once
#include "compute/gpu/context.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <vector>

namespace gpu {

double median(std::vector<double> v);
// The median wall-clock time of calls of `run`, in ms (the CPU references), on as few calls as
// give a stable figure: up to `repeats`, fewer once three calls agree within 2 % or the calls
// have taken `budget_ms` together (one call at least: a call of seconds is its own figure).
double median_wall_ms(const std::function<void()>& run, int repeats, double budget_ms = 500);

struct GpuTiming {
  double median_ms = 0, min_ms = 0;
  int repeats = 0;
  nlohmann::json warm_up;  // how the warm-up ended, after how long (time_gpu)
};
// Times one application recorded by `record`: first warms the GPU up (whole command
// buffers of repeated applications for at least `warmup_ms`, until the time per application
// has settled and a clock probe, a fixed chain of multiply-adds, runs as fast as it ever has
// on this context: the clocks are back at their top, caches and pipelines primed; or, where
// recording costs more than the GPU's work and the GPU idles half the time, once twice the
// warm-up has passed on the wall clock), then
// `repeats` submissions of one timed application each. Needs timestamps (all zero otherwise).
// With one repeat, a first warm-up application of a second or more, run at the top clock, is
// that repeat (a run of seconds is its own warm-up: it is not run again).
GpuTiming time_gpu(Context& ctx, const std::function<void(VkCommandBuffer)>& record, int repeats,
                   double warmup_ms = 200);

}  // namespace gpu
