// Step back: the grid labs' state after each frame, copied on the GPU into a ring of
// snapshots (within a memory budget), so a class can scrub back to the moment something
// happened. Recording costs one buffer copy a frame, no wait; going back downloads one
// snapshot and hands it to the lab (Lab::restore_state).
#pragma once
#include "app/core/lab.h"

#include <deque>

class History {
 public:
  explicit History(gpu::Context& ctx, VkDeviceSize budget = 256ull << 20, size_t most = 300);
  // Records, into the frame's command buffer after the lab's steps, a copy of its state.
  // A lab without state parts, or whose state is larger than the budget, records nothing.
  void record(VkCommandBuffer cmd, const Lab& lab);
  size_t size() const { return entries_.size(); }
  size_t cursor() const { return cursor_; }  // the snapshot shown now (size() - 1 while running)
  size_t capacity() const { return slots_; }
  uint64_t step(size_t i) const { return entries_[i].step; }  // 0: the oldest kept
  // With the GPU idle: puts snapshot i back into the lab. The later ones stay (scrub forward
  // again) until the lab steps on from here, which drops them.
  void restore(Lab& lab, size_t i);
  void clear() { entries_.clear(), cursor_ = 0; }
  VkDeviceSize bytes_each() const { return slot_bytes_; }

 private:
  struct Entry {
    size_t slot;
    uint64_t step;
  };
  gpu::Context& ctx_;
  VkDeviceSize budget_;
  size_t most_;
  std::vector<VkDeviceSize> part_bytes_;
  VkDeviceSize slot_bytes_ = 0;
  size_t slots_ = 0;
  gpu::Buffer ring_;
  std::deque<Entry> entries_;
  size_t cursor_ = 0;
};
