// The saxpy reference (saxpy.h).
#include "compute/measure/saxpy.h"

#include "compute/gpu/profiler.h"
#include "compute/measure/timer.h"
#include "shaders/common/gpu_push.h"

#include <algorithm>
#include <stdexcept>

namespace gpu {

using push::SaxpyPush;  // shaders/common/gpu_push.h

Saxpy::Saxpy(Context& ctx) : ctx_(ctx), pipeline_(make_compute(ctx, "gpu/saxpy.comp", sizeof(SaxpyPush))) {}

void Saxpy::record(VkCommandBuffer cmd, const Buffer& x, const Buffer& y, float a, uint32_t n) const {
  if (n % 4) throw std::invalid_argument("Saxpy: n must be a multiple of 4");
  SaxpyPush push{.a = a, .n4 = n / 4};
  pipeline_.bind(cmd, {storage_buffer(x), storage_buffer(y)}, push);
  // A grid-stride loop in the shader covers what one dispatch dimension cannot.
  uint32_t max_groups = std::min<uint32_t>(ctx_.props.limits.maxComputeWorkGroupCount[0], 65535);
  vkCmdDispatch(cmd, std::clamp<uint32_t>(pipeline_.groups(n / 4).x, 1, max_groups), 1, 1);
}

BandwidthResult measure_bandwidth(Context& ctx, VkDeviceSize bytes, int repeats) {
  BandwidthResult r;
  bytes = std::min<VkDeviceSize>(bytes, ctx.props.limits.maxStorageBufferRange) / 16 * 16;
  r.bytes_per_array = double(bytes);
  if (!Profiler(ctx, 1).supported()) return r;
  Saxpy saxpy(ctx);
  Buffer x(ctx, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT), y(ctx, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  auto n = uint32_t(bytes / 4);
  // Incompressible data: GPUs that compress memory traffic would flatter constant fills.
  std::vector<float> data(n);
  uint32_t state = 0x9e3779b9u;
  for (auto& v : data) {
    state ^= state << 13, state ^= state >> 17, state ^= state << 5;
    v = 1.0f + float(state >> 8) * (1.0f / 16777216.0f);
  }
  x.upload(data);
  y.upload(data);
  auto t = time_gpu(
      ctx,
      [&](VkCommandBuffer cmd) {
        barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
        saxpy.record(cmd, x, y, 0.5f, n);
      },
      repeats);
  r.median_ms = t.median_ms;
  r.gbps = r.median_ms > 0 ? 3.0 * double(bytes) / (r.median_ms * 1e6) : 0;
  return r;
}

}  // namespace gpu
