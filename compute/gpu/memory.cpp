#include "compute/gpu/memory.h"

#include <algorithm>
#include <stdexcept>

namespace gpu {

namespace {
VkDeviceSize round_up(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }
}  // namespace

MemoryOptions parse_memory_options(const std::string& text) {
  MemoryOptions o;
  if (text == "dedicated") {
    o.pooled = false;
    return o;
  }
  auto bad = [&] {
    return std::invalid_argument(
        "--memory takes dedicated or pooled[:ALIGN[:BLOCK_MIB]] (ALIGN a power of two of bytes up to 2^30, "
        "BLOCK_MIB 1 to 16384), not '" +
        text + "'");
  };
  if (text.rfind("pooled", 0) != 0) throw bad();
  std::vector<uint64_t> numbers;
  for (size_t at = 6; at < text.size();) {
    if (text[at] != ':') throw bad();
    size_t end = text.find(':', at + 1);
    std::string n = text.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
    if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos || n.size() > 12) throw bad();
    numbers.push_back(std::stoull(n));
    at = end == std::string::npos ? text.size() : end;
  }
  if (numbers.size() > 2) throw bad();
  if (numbers.size() > 0) o.align = numbers[0];
  if (numbers.size() > 1) o.block = numbers[1] << 20;
  // Alignments up to 1 GiB, blocks up to 16 GiB.
  if (o.align == 0 || (o.align & (o.align - 1)) || o.align > (1u << 30) || o.block < (1u << 20) ||
      o.block > (uint64_t(16) << 30))
    throw bad();
  return o;
}

std::string describe(const MemoryOptions& o) {
  if (!o.pooled) return "dedicated (one allocation a resource)";
  auto size = [](VkDeviceSize b) {
    return b >= (1u << 20) ? std::to_string(b >> 20) + " MiB" : std::to_string(b) + " B";
  };
  return "pooled, " + size(o.block) + " blocks, " + size(o.align) + " alignment";
}

Allocator::Allocator(VkDevice device, const VkPhysicalDeviceMemoryProperties& props, MemoryOptions options)
    : device_(device), props_(props), options_(options) {}

Allocator::~Allocator() {
  for (auto& b : blocks_)
    if (b.memory) vkFreeMemory(device_, b.memory, nullptr);
}

uint32_t Allocator::memory_type(uint32_t bits, VkMemoryPropertyFlags flags) const {
  for (uint32_t i = 0; i < props_.memoryTypeCount; ++i)
    if ((bits & (1u << i)) && (props_.memoryTypes[i].propertyFlags & flags) == flags) return i;
  throw std::runtime_error("no memory type with the needed properties");
}

bool Allocator::offers(uint32_t bits, VkMemoryPropertyFlags flags) const {
  for (uint32_t i = 0; i < props_.memoryTypeCount; ++i)
    if ((bits & (1u << i)) && (props_.memoryTypes[i].propertyFlags & flags) == flags) return true;
  return false;
}

VkDeviceMemory Allocator::raw(VkDeviceSize size, uint32_t type, VkBuffer buffer, VkImage image, void** mapped) {
  VkMemoryDedicatedAllocateInfo dedicated{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
  dedicated.buffer = buffer;
  dedicated.image = image;
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, (buffer || image) ? &dedicated : nullptr};
  ai.allocationSize = size;
  ai.memoryTypeIndex = type;
  if (options_.budget && stats_.reserved + size > options_.budget)
    throw VulkanError(VK_ERROR_OUT_OF_DEVICE_MEMORY,
                      "out of GPU memory: " + std::to_string((stats_.reserved + size + (1 << 20) - 1) >> 20) +
                          " MiB would pass the budget of " + std::to_string(options_.budget >> 20) +
                          " MiB (--memory-budget)");
  VkDeviceMemory mem;
  VkResult got = vkAllocateMemory(device_, &ai, nullptr, &mem);
  if (got == VK_ERROR_OUT_OF_DEVICE_MEMORY || got == VK_ERROR_OUT_OF_HOST_MEMORY)
    throw VulkanError(got, "out of GPU memory: the driver refused a block of " +
                               std::to_string((size + (1 << 20) - 1) >> 20) + " MiB (" +
                               std::to_string(stats_.reserved >> 20) + " MiB already taken" +
                               (options_.pooled ? "; --memory pooled:ALIGN:BLOCK_MIB sets the block size)" : ")"));
  VK_CHECK(got);
  *mapped = nullptr;
  if (props_.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
    VkResult r = vkMapMemory(device_, mem, 0, VK_WHOLE_SIZE, 0, mapped);
    if (r != VK_SUCCESS) {
      vkFreeMemory(device_, mem, nullptr);
      VK_CHECK(r);
    }
  }
  stats_.reserved += size;
  ++stats_.allocations;
  return mem;
}

// A dedicated allocation where the driver asks for one, else the first fit among the blocks
// of the memory type, else a new block.
Allocation Allocator::allocate(const VkMemoryRequirements& req, VkMemoryPropertyFlags flags, VkBuffer buffer,
                               VkImage image) {
  std::lock_guard lock(mutex_);
  Allocation a = place(req, flags, buffer, image);
  a.flags = props_.memoryTypes[memory_type(req.memoryTypeBits, flags)].propertyFlags;
  if (!options_.map_device_local && !(flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) a.mapped = nullptr;
  return a;
}

Allocation Allocator::place(const VkMemoryRequirements& req, VkMemoryPropertyFlags flags, VkBuffer buffer,
                            VkImage image) {
  uint32_t type = memory_type(req.memoryTypeBits, flags);
  Allocation a;
  if (!options_.pooled) {
    a.memory = raw(req.size, type, buffer, image, &a.mapped);
    a.size = req.size;
    a.owner = owner_;
    owners_[owner_].second += a.size;
    stats_.used += a.size;
    ++stats_.resources;
    return a;
  }
  bool big = req.size >= options_.align;
  VkDeviceSize align = std::max(req.alignment, big ? options_.align : VkDeviceSize(256));
  VkDeviceSize size = round_up(req.size, big ? options_.align : align);
  bool linear = image == VK_NULL_HANDLE;
  auto place = [&](size_t bi) -> bool {
    Block& b = blocks_[bi];
    for (auto [offset, bytes] : b.holes) {
      VkDeviceSize at = round_up(offset, align);
      if (at + size > offset + bytes) continue;
      b.holes.erase(offset);
      if (at > offset) b.holes[offset] = at - offset;
      if (at + size < offset + bytes) b.holes[at + size] = offset + bytes - at - size;
      ++b.users;
      a.memory = b.memory, a.offset = at, a.size = size, a.block = int(bi);
      a.mapped = b.mapped ? static_cast<char*>(b.mapped) + at : nullptr;
      a.owner = owner_;
      owners_[owner_].second += size;
      stats_.used += size;
      ++stats_.resources;
      return true;
    }
    return false;
  };
  for (size_t bi = 0; bi < blocks_.size(); ++bi)
    if (blocks_[bi].memory && blocks_[bi].type == type && blocks_[bi].linear == linear && place(bi)) return a;
  Block b;
  b.size = std::max(options_.block, round_up(size, options_.align));
  b.type = type, b.linear = linear;
  b.memory = raw(b.size, type, VK_NULL_HANDLE, VK_NULL_HANDLE, &b.mapped);
  b.holes[0] = b.size;
  auto slot = std::find_if(blocks_.begin(), blocks_.end(), [](const Block& x) { return !x.memory; });
  size_t bi = size_t(slot - blocks_.begin());
  if (slot == blocks_.end())
    blocks_.push_back(std::move(b));
  else
    *slot = std::move(b);
  place(bi);
  return a;
}

void Allocator::free(const Allocation& a) {
  if (!a.memory) return;
  std::lock_guard lock(mutex_);
  stats_.used -= a.size;
  owners_[a.owner].second -= a.size;
  --stats_.resources;
  if (a.block < 0) {
    vkFreeMemory(device_, a.memory, nullptr);
    stats_.reserved -= a.size;
    --stats_.allocations;
    return;
  }
  Block& b = blocks_[size_t(a.block)];
  auto [it, inserted] = b.holes.emplace(a.offset, a.size);
  if (auto next = std::next(it); next != b.holes.end() && it->first + it->second == next->first) {
    it->second += next->second;
    b.holes.erase(next);
  }
  if (it != b.holes.begin())
    if (auto prev = std::prev(it); prev->first + prev->second == it->first) {
      prev->second += it->second;
      b.holes.erase(it);
    }
  if (--b.users == 0) {  // an empty block goes back to the driver (another lab may need the room)
    vkFreeMemory(device_, b.memory, nullptr);
    stats_.reserved -= b.size;
    --stats_.allocations;
    b = Block{};
  }
}

Allocator::Owner::Owner(Allocator& a, const std::string& name) : a_(a) {
  std::lock_guard lock(a.mutex_);
  previous_ = a.owner_;
  auto it = std::find_if(a.owners_.begin(), a.owners_.end(), [&](auto& o) { return o.first == name; });
  if (it == a.owners_.end()) it = a.owners_.insert(a.owners_.end(), {name, 0});
  a.owner_ = uint32_t(it - a.owners_.begin());
}

Allocator::Owner::~Owner() {
  std::lock_guard lock(a_.mutex_);
  a_.owner_ = previous_;
}

std::vector<std::pair<std::string, uint64_t>> Allocator::owners() const {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<std::string, uint64_t>> out;
  for (auto& o : owners_)
    if (o.second > 0) out.push_back(o);
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.second > b.second; });
  return out;
}

Allocator::Stats Allocator::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace gpu
