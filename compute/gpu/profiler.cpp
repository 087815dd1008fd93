#include "compute/gpu/profiler.h"

#include <cstdio>
#include <tuple>

namespace gpu {

Profiler::Profiler(Context& ctx, uint32_t max_scopes) : ctx_(ctx), max_scopes_(max_scopes) {
  if (ctx.timestamp_valid_bits == 0 || ctx.props.limits.timestampPeriod <= 0) return;
  ns_per_tick_ = ctx.props.limits.timestampPeriod;
  mask_ = ctx.timestamp_valid_bits >= 64 ? ~0ull : ((1ull << ctx.timestamp_valid_bits) - 1);
  VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qi.queryCount = 2 * max_scopes;
  VK_CHECK(vkCreateQueryPool(ctx.device, &qi, nullptr, &pool_));
}

Profiler::~Profiler() {
  if (pool_) vkDestroyQueryPool(ctx_.device, pool_, nullptr);
}

void Profiler::begin_frame(VkCommandBuffer cmd) {
  pending_.clear();
  overflowed_ = false;
  if (pool_) vkCmdResetQueryPool(cmd, pool_, 0, 2 * max_scopes_);
}

uint32_t Profiler::begin(VkCommandBuffer cmd, const std::string& name, double bytes, double flops, double work) {
  if (!pool_) return 0;
  if (pending_.size() >= max_scopes_) {
    overflowed_ = true;
    return UINT32_MAX;
  }
  uint32_t id = uint32_t(pending_.size());
  pending_.push_back({name, bytes, flops, work});
  vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool_, 2 * id);
  return id;
}

uint32_t Profiler::begin(VkCommandBuffer cmd, const std::string& name, LateCost cost) {
  uint32_t id = begin(cmd, name, 0, 0);
  if (id < pending_.size()) pending_[id].late = std::move(cost);
  return id;
}

void Profiler::end(VkCommandBuffer cmd, uint32_t scope) {
  if (!pool_ || scope == UINT32_MAX) return;
  vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool_, 2 * scope + 1);
  pending_[scope].ended = true;
}

std::vector<PassTiming> Profiler::resolve() {
  std::vector<PassTiming> out;
  spans_.clear();
  ++resolved_;
  if (!pool_ || pending_.empty()) return out;
  for (auto& p : pending_)
    if (!p.ended) throw std::logic_error("profiler scope '" + p.name + "' was never ended");
  std::vector<uint64_t> ticks(2 * pending_.size());
  VK_CHECK(vkGetQueryPoolResults(ctx_.device, pool_, 0, uint32_t(ticks.size()), ticks.size() * 8, ticks.data(), 8,
                                 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  for (size_t i = 0; i < pending_.size(); ++i) {
    double ms = double((ticks[2 * i + 1] - ticks[2 * i]) & mask_) * ns_per_tick_ * 1e-6;
    double start = double((ticks[2 * i] - ticks[0]) & mask_) * ns_per_tick_ * 1e-6;
    spans_.push_back({pending_[i].name, start, start + ms, pending_[i].work});
    PassTiming* t = nullptr;
    for (auto& o : out)
      if (o.name == pending_[i].name) t = &o;
    if (!t) {
      out.push_back({pending_[i].name});
      t = &out.back();
    }
    if (pending_[i].late) std::tie(pending_[i].bytes, pending_[i].flops) = pending_[i].late();
    t->count++;
    t->ms += ms;
    t->bytes += pending_[i].bytes;
    t->flops += pending_[i].flops;
  }
  if (overflowed_)
    std::fprintf(stderr, "vklab: more than %u timed passes in one frame; the rest were not timed\n", max_scopes_);
  pending_.clear();
  return out;
}

}  // namespace gpu
