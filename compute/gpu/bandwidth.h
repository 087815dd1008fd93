// The device's own reference: a streaming saxpy (y = a*x + y over float4) whose
// measured GB/s is what every pass's GB/s is compared with.
#pragma once
#include "compute/gpu/pipeline.h"
#include "compute/gpu/profiler.h"

#include <functional>

namespace gpu {

class Saxpy {
 public:
  explicit Saxpy(Context& ctx);
  // y = a*x + y for n floats (n a multiple of 4); bytes = 12 n, flops = 2 n.
  void record(VkCommandBuffer cmd, const Buffer& x, const Buffer& y, float a, uint32_t n) const;

 private:
  Context& ctx_;
  Pipeline pipeline_;
};

struct BandwidthResult {
  double bytes_per_array = 0;
  double median_ms = 0;
  double gbps = 0;  // read x, read y, write y counted
};

// Median of `repeats` timed saxpys over two buffers of `bytes` each.
// Needs timestamps; returns gbps = 0 where they are missing.
BandwidthResult measure_bandwidth(Context& ctx, VkDeviceSize bytes, int repeats = 9);

double median(std::vector<double> v);
// The median wall-clock time of `repeats` calls of `run`, in ms (the CPU references).
double median_wall_ms(const std::function<void()>& run, int repeats);

struct GpuTiming {
  double median_ms = 0, min_ms = 0;
  int repeats = 0;
};
// Times one application recorded by `record`: first warms the GPU up (whole command
// buffers of repeated applications for at least `warmup_ms`, until the time per application
// has settled and a clock probe, a fixed chain of multiply-adds, runs as fast as it ever has
// on this context: the clocks are back at their top, caches and pipelines primed), then
// `repeats` submissions of one timed application each. Needs timestamps (all zero otherwise).
GpuTiming time_gpu(Context& ctx, const std::function<void(VkCommandBuffer)>& record, int repeats,
                   double warmup_ms = 200);

}  // namespace gpu
