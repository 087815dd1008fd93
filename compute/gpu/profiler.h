// GPU timestamp profiler: named scopes around passes, each declaring the bytes it must
// move and the flops it must do, so every pass reports ms, GB/s and GFLOP/s.
// Scopes of the same name in one frame add up (e.g. 10 diffusion steps = one line).
#pragma once
#include "compute/gpu/context.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace gpu {

struct PassTiming {
  std::string name;
  uint32_t count = 0;  // scopes of this name in the frame
  double ms = 0;       // summed GPU time
  double bytes = 0;    // summed declared traffic
  double flops = 0;    // summed declared arithmetic
  double gbps() const { return ms > 0 ? bytes / (ms * 1e6) : 0; }
  double gflops() const { return ms > 0 ? flops / (ms * 1e6) : 0; }
};

// One scope of the last resolved frame on the GPU's timeline, in ms from its first timestamp.
struct PassSpan {
  std::string name;
  double start_ms = 0, end_ms = 0;
  double work = 0;  // what its begin() said the scope did (positions, elements), or 0
};

class Profiler {
 public:
  explicit Profiler(Context& ctx, uint32_t max_scopes = 256);
  ~Profiler();
  Profiler(const Profiler&) = delete;
  Profiler& operator=(const Profiler&) = delete;

  bool supported() const { return pool_ != VK_NULL_HANDLE; }
  const char* unsupported_reason() const { return "GPU timestamps are not supported on this device's queue"; }

  // Call once per command buffer, outside any rendering, before the first scope.
  void begin_frame(VkCommandBuffer cmd);
  // `work`: a count of the caller's units the scope does, read back with its span (spans()), so a
  // caller can size the next submission from this one's time (SIMSURF's dynamic partitioning).
  uint32_t begin(VkCommandBuffer cmd, const std::string& name, double bytes, double flops, double work = 0);
  // A scope whose traffic and arithmetic are known only once the GPU has run it (the wave's CG
  // and its iterations): resolve() calls `cost` for {bytes, flops}, the command buffer complete
  // (what it captures must outlive that resolve(); begin_frame() drops it unread).
  using LateCost = std::function<std::pair<double, double>()>;
  uint32_t begin(VkCommandBuffer cmd, const std::string& name, LateCost cost);
  void end(VkCommandBuffer cmd, uint32_t scope);
  // After the command buffer has completed: the frame's passes in first-seen order.
  std::vector<PassTiming> resolve();
  // The frame resolve() read last: every scope in recording order (vklab records on one queue);
  // empty after a frame without scopes.
  const std::vector<PassSpan>& spans() const { return spans_; }
  // How many frames resolve() has read: a reader of spans() can tell a new frame from one it read.
  uint64_t resolved() const { return resolved_; }

  struct Scope {  // RAII helper: Profiler::Scope s(prof, cmd, "pass", bytes, flops);
    Scope(Profiler& p, VkCommandBuffer c, const std::string& n, double bytes, double flops)
        : prof(p), cmd(c), id(p.begin(c, n, bytes, flops)) {}
    ~Scope() { prof.end(cmd, id); }
    Profiler& prof;
    VkCommandBuffer cmd;
    uint32_t id;
  };

 private:
  struct Pending {
    std::string name;
    double bytes, flops, work;
    LateCost late;
    bool ended = false;
  };
  Context& ctx_;
  VkQueryPool pool_ = VK_NULL_HANDLE;
  uint32_t max_scopes_;
  double ns_per_tick_ = 1;
  uint64_t mask_ = ~0ull;
  std::vector<Pending> pending_;
  std::vector<PassSpan> spans_;
  bool overflowed_ = false;
  uint64_t resolved_ = 0;
};

}  // namespace gpu
