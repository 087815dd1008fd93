// Common Vulkan include for vklab: every file reaches Vulkan through volk.
#pragma once
#include <volk.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

namespace gpu {

const char* result_name(VkResult r);

struct VulkanError : std::runtime_error {
  VkResult result;
  VulkanError(VkResult r, const std::string& what) : std::runtime_error(what), result(r) {}
};

// The GPU did not finish within the context's wait limit (result VK_TIMEOUT) or the device was
// lost (VK_ERROR_DEVICE_LOST). The context's queue cannot be trusted after it: the app says so
// in one line, saves what it can, and headless exits with code 4 (app/main.cpp).
struct GpuFailure : VulkanError {
  using VulkanError::VulkanError;
};

[[noreturn]] void throw_vk(VkResult r, const char* expr, const char* file, int line);

// One owned handle (a fence, a pool, a surface, a window): `destroy` runs once, on reset()
// or when the owner goes, so a constructor that throws half way frees what it made.
//   gpu::Unique<VkFence> fence(f, [d](VkFence f) { vkDestroyFence(d, f, nullptr); });
template <class H>
class Unique {
 public:
  Unique() = default;
  Unique(H h, std::function<void(H)> destroy) : h_(h), destroy_(std::move(destroy)) {}
  Unique(Unique&& o) noexcept : h_(std::exchange(o.h_, H{})), destroy_(std::move(o.destroy_)) {}
  Unique& operator=(Unique&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, H{});
      destroy_ = std::move(o.destroy_);
    }
    return *this;
  }
  ~Unique() { reset(); }
  void reset() {
    if (h_ != H{} && destroy_) destroy_(h_);
    h_ = H{};
  }
  H get() const { return h_; }
  const H* ptr() const { return &h_; }
  operator H() const { return h_; }

 private:
  H h_{};
  std::function<void(H)> destroy_;
};

}  // namespace gpu

#define VK_CHECK(expr)                                                          \
  do {                                                                          \
    VkResult vk_check_r_ = (expr);                                              \
    if (vk_check_r_ < 0) gpu::throw_vk(vk_check_r_, #expr, __FILE__, __LINE__); \
  } while (0)
