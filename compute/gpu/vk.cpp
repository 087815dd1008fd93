// Vulkan results as names, and the exception VK_CHECK throws (vk.h).
#include "compute/gpu/vk.h"

#include <sstream>
#include <utility>

namespace gpu {

const char* result_name(VkResult r) {
#define NAME(x) \
  { x, #x }
  static const std::pair<VkResult, const char*> names[] = {
      NAME(VK_SUCCESS),
      NAME(VK_NOT_READY),
      NAME(VK_TIMEOUT),
      NAME(VK_INCOMPLETE),
      NAME(VK_ERROR_OUT_OF_HOST_MEMORY),
      NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY),
      NAME(VK_ERROR_INITIALIZATION_FAILED),
      NAME(VK_ERROR_DEVICE_LOST),
      NAME(VK_ERROR_MEMORY_MAP_FAILED),
      NAME(VK_ERROR_LAYER_NOT_PRESENT),
      NAME(VK_ERROR_EXTENSION_NOT_PRESENT),
      NAME(VK_ERROR_FEATURE_NOT_PRESENT),
      NAME(VK_ERROR_INCOMPATIBLE_DRIVER),
      NAME(VK_ERROR_TOO_MANY_OBJECTS),
      NAME(VK_ERROR_FORMAT_NOT_SUPPORTED),
      NAME(VK_ERROR_SURFACE_LOST_KHR),
      NAME(VK_ERROR_OUT_OF_DATE_KHR),
      NAME(VK_SUBOPTIMAL_KHR),
      NAME(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR),
      NAME(VK_ERROR_INVALID_SHADER_NV),
  };
#undef NAME
  for (auto& [value, name] : names)
    if (value == r) return name;
  return "VK_ERROR_(unknown)";
}

void throw_vk(VkResult r, const char* expr, const char* file, int line) {
  std::ostringstream s;
  s << result_name(r) << " from " << expr << " (" << file << ":" << line << ")";
  if (r == VK_ERROR_DEVICE_LOST) throw GpuFailure(r, "the GPU device was lost (" + s.str() + ")");
  throw VulkanError(r, s.str());
}

}  // namespace gpu
