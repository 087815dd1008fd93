// The device's own reference: a streaming saxpy (y = a*x + y over float4) whose
// measured GB/s is what every pass's GB/s is compared with.
#pragma once
#include "compute/gpu/pipeline.h"

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

}  // namespace gpu
