#include "compute/mesh/group_tuning.h"

#include <algorithm>
#include <cmath>

namespace mesh {

GroupTuning::GroupTuning(gpu::Context& ctx) {
  if (ctx.timestamp_valid_bits == 0 || ctx.props.limits.timestampPeriod <= 0) return;
  const auto& lim = ctx.props.limits;
  for (uint32_t s : kGroupSizes)
    if (s <= lim.maxComputeWorkGroupSize[0] && s <= lim.maxComputeWorkGroupInvocations) sizes_.push_back(s);
  VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qi.queryCount = uint32_t(2 * sizes_.size() * kGroupRounds);  // each query written once
  VK_CHECK(vkCreateQueryPool(ctx.device, &qi, nullptr, &pool_));
  vkResetQueryPool(ctx.device, pool_, 0, qi.queryCount);  // unavailable until written
  ctx_ = &ctx;
  done_ = false;
  next_ = sizes_.front();
  ns_per_tick_ = lim.timestampPeriod;
  mask_ = ctx.timestamp_valid_bits >= 64 ? ~0ull : ((1ull << ctx.timestamp_valid_bits) - 1);
}

GroupTuning::~GroupTuning() { reset(); }

void GroupTuning::reset() {
  if (pool_) vkDestroyQueryPool(ctx_->device, pool_, nullptr);
  pool_ = VK_NULL_HANDLE;
}

GroupTuning& GroupTuning::operator=(GroupTuning&& o) noexcept {
  if (this != &o) {
    reset();
    ctx_ = o.ctx_, pool_ = o.pool_, sizes_ = std::move(o.sizes_), round_ = o.round_;
    recorded_ = o.recorded_, read_ = o.read_, timing_ = o.timing_, done_ = o.done_, next_ = o.next_;
    now_ = std::move(o.now_), last_ = std::move(o.last_), ns_per_tick_ = o.ns_per_tick_, mask_ = o.mask_;
    o.pool_ = VK_NULL_HANDLE, o.done_ = true;
  }
  return *this;
}

uint32_t GroupTuning::fastest(const std::map<uint32_t, double>& t) const {
  return std::min_element(t.begin(), t.end(), [](auto& a, auto& b) { return a.second < b.second; })->first;
}

uint32_t GroupTuning::size() {
  if (done_) return next_;
  // Round r's try t runs at sizes_[t] (r even) or sizes_[n − 1 − t] (r odd), queries 2·(r·n + t).
  const size_t n = sizes_.size();
  auto at = [&](size_t t) { return round_ % 2 ? sizes_[n - 1 - t] : sizes_[t]; };
  while (read_ < recorded_) {  // the tries the GPU has finished, in order
    uint64_t r[4] = {};        // two timestamps, each with its availability
    VkResult res =
        vkGetQueryPoolResults(ctx_->device, pool_, uint32_t(2 * (round_ * n + read_)), 2, sizeof r, r,
                              2 * sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
    if (res != VK_SUCCESS || r[1] == 0 || r[3] == 0) break;
    now_[at(read_)] = double((r[2] - r[0]) & mask_) * ns_per_tick_ * 1e-6;
    ++read_;
  }
  if (read_ == n) {  // a whole round: does it agree with the one before?
    uint32_t best = fastest(now_);
    bool agree = !last_.empty() && fastest(last_) == best && std::abs(now_[best] - last_[best]) <= 0.03 * now_[best];
    last_ = std::move(now_);
    now_.clear();
    recorded_ = read_ = 0;
    if (agree || round_ + 1 == kGroupRounds) {
      done_ = true;
      return next_ = best;
    }
    ++round_;
  }
  if (recorded_ < n)
    next_ = at(recorded_);
  else if (!last_.empty())
    next_ = fastest(last_);
  else if (!now_.empty())
    next_ = fastest(now_);
  return next_;
}

void GroupTuning::begin(VkCommandBuffer cmd) {
  const size_t n = sizes_.size();
  timing_ = !done_ && recorded_ < n && next_ == (round_ % 2 ? sizes_[n - 1 - recorded_] : sizes_[recorded_]);
  if (timing_)
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool_, uint32_t(2 * (round_ * n + recorded_)));
}

void GroupTuning::end(VkCommandBuffer cmd) {
  if (!timing_) return;
  vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool_,
                       uint32_t(2 * (round_ * sizes_.size() + recorded_) + 1));
  ++recorded_;
  timing_ = false;
}

}  // namespace mesh
