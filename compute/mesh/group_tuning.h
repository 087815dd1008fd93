// GMlib's calibration of a kernel's workgroup size (Maréchal 2020, GmlLaunchKernel: its first
// launches try one size after another and keep the fastest), with GPU timestamps. A kernel's
// launches try every size of kGroupSizes in rounds, each launch of a round at the next size,
// timed; a round starts once the one before is read back, in the other order. The tuning ends
// when a round agrees with the one before (the same fastest size, its time within 3 %: the GPU
// ran both at the same clock) or after kGroupRounds; from then on every launch runs at the last
// round's fastest. A launch waits for nothing: times are read when the GPU has written them,
// and launches in between run at the fastest size seen so far.
#pragma once
#include "compute/gpu/context.h"

#include <map>
#include <vector>

namespace mesh {

// Invocations a workgroup, tried in this order (64 first: the size before any try is back).
inline const std::vector<uint32_t> kGroupSizes = {64, 128, 256, 512, 1024, 32, 16, 8};
constexpr int kGroupRounds = 6;

class GroupTuning {
 public:
  GroupTuning() = default;  // not tuning: every launch at kGroupSizes[0]
  // Tries the sizes the device allows (maxComputeWorkGroupSize[0], ...Invocations); needs
  // timestamps, else does not tune.
  explicit GroupTuning(gpu::Context& ctx);
  ~GroupTuning();
  GroupTuning(GroupTuning&& o) noexcept { *this = std::move(o); }
  GroupTuning& operator=(GroupTuning&& o) noexcept;
  GroupTuning(const GroupTuning&) = delete;
  GroupTuning& operator=(const GroupTuning&) = delete;

  // Reads the tries the GPU has finished, then says the size the next launch runs at.
  uint32_t size();
  // Around the launch's dispatches, at size(): a try is timed (nothing once tuned).
  void begin(VkCommandBuffer cmd);
  void end(VkCommandBuffer cmd);
  bool tuned() const { return done_; }
  uint32_t last() const { return next_; }  // what size() said last
  int rounds() const { return round_ + (done_ && pool_ ? 1 : 0); }
  // Each size's time in the last round read back whole, in ms.
  const std::map<uint32_t, double>& times() const { return last_; }

 private:
  void reset();
  uint32_t fastest(const std::map<uint32_t, double>& t) const;
  gpu::Context* ctx_ = nullptr;
  VkQueryPool pool_ = VK_NULL_HANDLE;
  std::vector<uint32_t> sizes_;     // those the device allows, in kGroupSizes' order
  int round_ = 0;                   // the round being tried
  size_t recorded_ = 0, read_ = 0;  // tries of this round recorded, read back
  bool timing_ = false;             // between begin() and end() of a try
  bool done_ = true;
  uint32_t next_ = 64;                     // what size() said last
  std::map<uint32_t, double> now_, last_;  // this round's times, the last whole round's
  double ns_per_tick_ = 1;
  uint64_t mask_ = ~0ull;
};

}  // namespace mesh
