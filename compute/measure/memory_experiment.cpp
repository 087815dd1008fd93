#include "compute/measure/memory_experiment.h"

#include "compute/gpu/pipeline.h"
#include "compute/measure/saxpy.h"
#include "compute/measure/timer.h"
#include "shaders/common/gpu_push.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <thread>

namespace gpu {

namespace {

// A storage buffer on memory from `alloc` (not the context's allocator), for the experiment.
struct RawBuffer {
  Context& ctx;
  Allocator& alloc;
  VkBuffer buffer = VK_NULL_HANDLE;
  Allocation memory;
  VkDeviceSize bytes;
  RawBuffer(Context& c, Allocator& a, VkDeviceSize size) : ctx(c), alloc(a), bytes(size) {
    VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = size;
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VK_CHECK(vkCreateBuffer(ctx.device, &bi, nullptr, &buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(ctx.device, buffer, &req);
    memory = alloc.allocate(req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, buffer, VK_NULL_HANDLE);
    VK_CHECK(vkBindBufferMemory(ctx.device, buffer, memory.memory, memory.offset));
  }
  ~RawBuffer() {
    vkDestroyBuffer(ctx.device, buffer, nullptr);
    alloc.free(memory);
  }
  Bind bind() const { return {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {buffer, 0, bytes}, {}}; }
  // The first touch as the labs do it: a copy from a host buffer of incompressible data.
  void fill(const Buffer& source) const {
    ctx.submit_now([&](VkCommandBuffer cmd) {
      VkBufferCopy region{0, 0, bytes};
      vkCmdCopyBuffer(cmd, source.handle(), buffer, 1, &region);
      barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
              VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    });
  }
};

// Incompressible data, copied into every fresh array (the first touch).
Buffer random_source(Context& ctx, uint64_t bytes) {
  Buffer source(ctx, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1, 1);
  for (size_t i = 0; i < bytes / 4; ++i) static_cast<float*>(source.mapped())[i] = u(rng);
  return source;
}

}  // namespace

// For each size and strategy, then each idle time and warm-up: every trial allocates, fills
// and times afresh, so that no trial inherits another's memory or clocks.
std::vector<MemoryTrialSet> memory_experiment(Context& ctx, const std::vector<uint64_t>& sizes, int trials,
                                              double idle_s, double warm_scale) {
  std::vector<MemoryTrialSet> out;
  Pipeline saxpy = make_compute(ctx, "gpu/saxpy.comp", sizeof(push::SaxpyPush));
  // One trial: fresh x and y from `alloc`, filled, the GPU left idle for `idle` seconds, then
  // saxpy timed (median of 9) after a warm-up of `warm` ms.
  auto trial = [&](Allocator& alloc, const Buffer& source, uint64_t bytes, double idle, double warm) {
    RawBuffer x(ctx, alloc, bytes), y(ctx, alloc, bytes);
    x.fill(source), y.fill(source);
    if (idle > 0) std::this_thread::sleep_for(std::chrono::duration<double>(idle));
    push::SaxpyPush p{.a = 1.0001f, .n4 = uint32_t(bytes / 16)};
    uint32_t groups_x = std::clamp<uint32_t>(saxpy.groups(uint32_t(bytes / 16)).x, 1, 65535);
    return time_gpu(
               ctx,
               [&](VkCommandBuffer cmd) {
                 saxpy.bind(cmd, {x.bind(), y.bind()}, p);
                 vkCmdDispatch(cmd, groups_x, 1, 1);
                 barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                         VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
               },
               9, warm)
        .median_ms;
  };
  auto finish = [&](MemoryTrialSet& set) {
    auto sorted = set.ms;
    std::sort(sorted.begin(), sorted.end());
    set.min_ms = sorted.front(), set.max_ms = sorted.back(), set.median_ms = median(sorted);
    for (double m : set.ms) set.slow += m > 1.25 * set.min_ms;
    std::string list;
    for (double m : set.ms) {
      char b[16];
      std::snprintf(b, sizeof b, " %.3f", m);
      list += b;
    }
    std::printf("%-52s %6llu MiB %5.1f s %6.0f ms %9.4f %9.4f %9.4f %3u/%-2zu %s\n", set.strategy.c_str(),
                (unsigned long long)(set.array_bytes >> 20), set.idle_s, set.warmup_ms, set.min_ms, set.median_ms,
                set.max_ms, set.slow, set.ms.size(), list.c_str());
    std::fflush(stdout);
  };
  std::printf("%-52s %10s %7s %9s %9s %9s %9s %6s  trials (ms)\n", "strategy", "array", "idle", "warm-up", "min ms",
              "median ms", "max ms", "slow");
  for (uint64_t bytes : sizes) {
    if (bytes > ctx.props.limits.maxStorageBufferRange || 3 * bytes > uint64_t(ctx.info.device_local_mib) << 20) {
      std::printf("array of %llu MiB skipped: past this device's limits\n", (unsigned long long)(bytes >> 20));
      continue;
    }
    Buffer source = random_source(ctx, bytes);
    MemoryOptions dedicated, pooled, one_block;
    dedicated.pooled = false;
    one_block.block = std::max<uint64_t>(one_block.block, 2 * bytes + (4u << 20));
    const MemoryOptions* strategies[] = {&dedicated, &pooled, &one_block};
    for (const MemoryOptions* o : strategies) {
      Allocator alloc(ctx.device, ctx.memory, *o);
      MemoryTrialSet set{describe(*o) + (o == &one_block ? ", x and y in one" : ""), bytes};
      for (int t = 0; t < trials; ++t) set.ms.push_back(trial(alloc, source, bytes, 0, 50));
      finish(set);
      out.push_back(std::move(set));
    }
  }
  // Then the GPU's clocks: the same trial after the GPU sat idle, with warm-ups of several
  // lengths (time_gpu stops warming once two batches agree within 2 %).
  uint64_t bytes = sizes.empty() ? 0 : sizes[std::min<size_t>(1, sizes.size() - 1)];
  if (bytes && bytes <= ctx.props.limits.maxStorageBufferRange) {
    Buffer source = random_source(ctx, bytes);
    MemoryOptions pooled;
    Allocator alloc(ctx.device, ctx.memory, pooled);
    for (double idle : {0.0, idle_s})
      for (double warm : {50.0, 200.0, 1000.0}) {
        warm *= warm_scale;
        MemoryTrialSet set{describe(pooled), bytes};
        set.idle_s = idle, set.warmup_ms = warm;
        for (int t = 0; t < trials; ++t) set.ms.push_back(trial(alloc, source, bytes, idle, warm));
        finish(set);
        out.push_back(std::move(set));
      }
  }
  return out;
}

nlohmann::json to_json(const std::vector<MemoryTrialSet>& sets) {
  nlohmann::json j = nlohmann::json::array();
  for (auto& s : sets)
    j.push_back({{"strategy", s.strategy},
                 {"array_bytes", s.array_bytes},
                 {"trial_ms", s.ms},
                 {"min_ms", s.min_ms},
                 {"median_ms", s.median_ms},
                 {"max_ms", s.max_ms},
                 {"gbps_at_median", s.median_ms > 0 ? 3.0 * double(s.array_bytes) / (s.median_ms * 1e6) : 0},
                 {"slow_trials", s.slow},
                 {"idle_s", s.idle_s},
                 {"warmup_ms", s.warmup_ms}});
  return j;
}

}  // namespace gpu
