#include "bandwidth.h"

#include <algorithm>

namespace gpu {

namespace {
struct SaxpyPush {
  float a;
  uint32_t n4;
};
}  // namespace

Saxpy::Saxpy(Context& ctx)
    : ctx_(ctx),
      pipeline_(make_compute(ctx, "gpu/saxpy.comp",
                             {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                             sizeof(SaxpyPush))) {}

void Saxpy::record(VkCommandBuffer cmd, const Buffer& x, const Buffer& y, float a, uint32_t n) const {
  if (n % 4) throw std::invalid_argument("Saxpy: n must be a multiple of 4");
  SaxpyPush push{a, n / 4};
  pipeline_.bind(cmd, {storage_buffer(x), storage_buffer(y)}, push);
  // A grid-stride loop in the shader covers what one dispatch dimension cannot.
  uint32_t max_groups = std::min<uint32_t>(ctx_.props.limits.maxComputeWorkGroupCount[0], 65535);
  vkCmdDispatch(cmd, std::clamp<uint32_t>(groups(n / 4, 256), 1, max_groups), 1, 1);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

BandwidthResult measure_bandwidth(Context& ctx, VkDeviceSize bytes, int repeats) {
  BandwidthResult r;
  bytes = std::min<VkDeviceSize>(bytes, ctx.props.limits.maxStorageBufferRange) / 16 * 16;
  r.bytes_per_array = double(bytes);
  Profiler prof(ctx, 2);
  if (!prof.supported()) return r;
  Saxpy saxpy(ctx);
  Buffer x(ctx, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT), y(ctx, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  auto n = uint32_t(bytes / 4);
  ctx.submit_now([&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, x.handle(), 0, VK_WHOLE_SIZE, 0x3f800000);  // 1.0f
    vkCmdFillBuffer(cmd, y.handle(), 0, VK_WHOLE_SIZE, 0);
    barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  });
  std::vector<double> ms;
  for (int i = 0; i < repeats + 1; ++i) {  // the first run warms up and is dropped
    ctx.submit_now([&](VkCommandBuffer cmd) {
      prof.begin_frame(cmd);
      barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
              VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
      Profiler::Scope s(prof, cmd, "saxpy", 12.0 * n, 2.0 * n);
      saxpy.record(cmd, x, y, 0.5f, n);
    });
    auto t = prof.resolve();
    if (i > 0 && !t.empty()) ms.push_back(t[0].ms);
  }
  r.median_ms = median(ms);
  r.gbps = r.median_ms > 0 ? 3.0 * double(bytes) / (r.median_ms * 1e6) : 0;
  return r;
}

}  // namespace gpu
