// Common Vulkan include for vklab: every file reaches Vulkan through volk.
#pragma once
#include <volk.h>

#include <stdexcept>
#include <string>

namespace gpu {

const char* result_name(VkResult r);

struct VulkanError : std::runtime_error {
  VkResult result;
  VulkanError(VkResult r, const std::string& what) : std::runtime_error(what), result(r) {}
};

[[noreturn]] void throw_vk(VkResult r, const char* expr, const char* file, int line);

}  // namespace gpu

#define VK_CHECK(expr)                                                          \
  do {                                                                          \
    VkResult vk_check_r_ = (expr);                                              \
    if (vk_check_r_ < 0) gpu::throw_vk(vk_check_r_, #expr, __FILE__, __LINE__); \
  } while (0)
