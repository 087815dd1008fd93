// Device memory for every buffer and image. By default sub-allocated from a few large blocks
// (vkAllocateMemory is called rarely, offsets of large resources aligned to 2 MiB so they sit
// on the GPU's large pages); `--memory dedicated` gives each resource a dedicated allocation
// instead, as vklab did before the allocation experiment of docs/PERF.md.
#pragma once
#include "compute/gpu/vk.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace gpu {

struct MemoryOptions {
  bool pooled = true;
  VkDeviceSize block = 256ull << 20;  // bytes a block; a larger resource gets a block of its own
  VkDeviceSize align = 2ull << 20;    // offset (and size) alignment of resources of at least this size
  // Bytes the allocator may take from the driver (0: no limit of its own). Past it an
  // allocation fails as the driver's would (VK_ERROR_OUT_OF_DEVICE_MEMORY): --memory-budget,
  // and the tests that check a lab refused for memory leaves the running one whole.
  VkDeviceSize budget = 0;
  // false: memory asked for as device-local is never handed out mapped, even where it is
  // host-visible (lavapipe, integrated GPUs), so uploads and downloads go through the staging
  // buffer as on a discrete GPU (the tests of that path).
  bool map_device_local = true;
};
// "pooled" (the default), "pooled:ALIGN" (bytes), "pooled:ALIGN:BLOCK_MIB" or "dedicated";
// throws std::invalid_argument naming the text.
MemoryOptions parse_memory_options(const std::string& text);
std::string describe(const MemoryOptions& o);  // "pooled, 256 MiB blocks, 2 MiB alignment"

struct Allocation {
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize offset = 0, size = 0;
  void* mapped = nullptr;           // host-visible memory: the resource's first byte
  int block = -1;                   // its block, or -1 for a dedicated allocation
  uint32_t owner = 0;               // Allocator::owners()' index: who asked for it
  VkMemoryPropertyFlags flags = 0;  // its memory type's properties
  explicit operator bool() const { return memory != VK_NULL_HANDLE; }
};

class Allocator {
 public:
  Allocator(VkDevice device, const VkPhysicalDeviceMemoryProperties& props, MemoryOptions options);
  ~Allocator();
  Allocator(const Allocator&) = delete;
  Allocator& operator=(const Allocator&) = delete;

  // Memory for a buffer (linear) or an image (optimal tiling: never in a buffer's block, so
  // bufferImageGranularity cannot bite). Host-visible memory comes mapped.
  // Whether a memory type among `bits` has every one of `flags`.
  bool offers(uint32_t bits, VkMemoryPropertyFlags flags) const;
  Allocation allocate(const VkMemoryRequirements& req, VkMemoryPropertyFlags flags, VkBuffer buffer, VkImage image);
  void free(const Allocation& a);

  struct Stats {
    uint64_t used = 0;      // bytes handed to live resources
    uint64_t reserved = 0;  // bytes allocated from the driver (blocks and dedicated)
    uint32_t resources = 0, allocations = 0;
  };
  Stats stats() const;
  const MemoryOptions& options() const { return options_; }
  void set_budget(VkDeviceSize bytes) { options_.budget = bytes; }  // 0: no limit of its own

  // Who the memory is for: allocations made while an Owner lives are counted under its name
  // ("linalg", ...); the rest under "other". For the panel's memory per lab.
  class Owner {
   public:
    Owner(Allocator& a, const std::string& name);
    ~Owner();
    Owner(const Owner&) = delete;
    Owner& operator=(const Owner&) = delete;

   private:
    Allocator& a_;
    uint32_t previous_;
  };
  // Bytes in use by each owner that holds some, largest first.
  std::vector<std::pair<std::string, uint64_t>> owners() const;

 private:
  // allocate() under the lock: the placement in a block, or a dedicated allocation.
  Allocation place(const VkMemoryRequirements& req, VkMemoryPropertyFlags flags, VkBuffer buffer, VkImage image);
  struct Block {
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0;
    uint32_t type = 0;
    bool linear = true;
    void* mapped = nullptr;
    std::map<VkDeviceSize, VkDeviceSize> holes;  // offset -> bytes, free
    uint32_t users = 0;
  };
  uint32_t memory_type(uint32_t bits, VkMemoryPropertyFlags flags) const;
  VkDeviceMemory raw(VkDeviceSize size, uint32_t type, VkBuffer buffer, VkImage image, void** mapped);
  VkDevice device_;
  VkPhysicalDeviceMemoryProperties props_;
  MemoryOptions options_;
  mutable std::mutex mutex_;
  std::vector<Block> blocks_;  // a freed block's slot is reused
  Stats stats_;
  std::vector<std::pair<std::string, uint64_t>> owners_ = {{"other", 0}};  // name, bytes in use
  uint32_t owner_ = 0;                                                     // the current one
};

}  // namespace gpu
