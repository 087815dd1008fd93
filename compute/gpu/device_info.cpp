#include "compute/gpu/device_info.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <vector>

namespace gpu {

namespace {

std::string version_string(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

const char* type_name(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "cpu";
    default:
      return "other";
  }
}

}  // namespace

int type_rank(VkPhysicalDeviceType t) {  // discrete, else integrated, else the rest, CPU last
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return 1;
    default:
      return 0;
  }
}

bool has_extension(VkPhysicalDevice pd, const char* name) {
  uint32_t n = 0;
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> exts(n);
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, exts.data());
  return std::any_of(exts.begin(), exts.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

int graphics_compute_family(VkPhysicalDevice pd) {
  uint32_t n = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
  std::vector<VkQueueFamilyProperties> fams(n);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, fams.data());
  for (uint32_t i = 0; i < n; ++i) {
    VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    if ((fams[i].queueFlags & need) == need) return int(i);
  }
  return -1;
}

// Vulkan 1.2 with the two extensions 1.3 promoted that vklab relies on: what RenderDoc
// offers when it cannot capture buffer device addresses (lavapipe), so vklab runs under it.
bool vulkan12_with_extensions(VkPhysicalDevice pd, uint32_t api) {
  return api >= VK_API_VERSION_1_2 && has_extension(pd, VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME) &&
         has_extension(pd, VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME);
}

DeviceInfo describe(VkPhysicalDevice pd, uint32_t index) {
  DeviceInfo d;
  d.index = index;
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, &driver};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(pd, &props);
  d.name = props.properties.deviceName;
  d.type = type_name(props.properties.deviceType);
  d.driver = std::string(driver.driverName) + " " + driver.driverInfo;
  d.api = version_string(props.properties.apiVersion);
  d.subgroup_size = subgroup.subgroupSize;
  if (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) d.subgroup_ops = subgroup.supportedOperations;

  VkPhysicalDeviceMemoryProperties mem;
  vkGetPhysicalDeviceMemoryProperties(pd, &mem);
  for (uint32_t i = 0; i < mem.memoryHeapCount; ++i)
    if (mem.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      d.device_local_mib = std::max<uint64_t>(d.device_local_mib, mem.memoryHeaps[i].size >> 20);

  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 feats{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  bool atomic_ext = has_extension(pd, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  if (atomic_ext) feats.pNext = &atomic;
  vkGetPhysicalDeviceFeatures2(pd, &feats);
  d.fp64 = feats.features.shaderFloat64;
  d.int64 = feats.features.shaderInt64;
  d.atomic_float_add = atomic_ext && atomic.shaderBufferFloat32AtomicAdd;
  d.portability_subset = has_extension(pd, kPortabilitySubset);
  if (d.portability_subset) d.fp64 = false;  // as the context makes it (context.cpp)

  int family = graphics_compute_family(pd);
  if (family >= 0) {
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
    std::vector<VkQueueFamilyProperties> fams(n);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, fams.data());
    d.timestamps = fams[family].timestampValidBits > 0 && props.properties.limits.timestampPeriod > 0;
  }
  if (props.properties.apiVersion < VK_API_VERSION_1_3 && !vulkan12_with_extensions(pd, props.properties.apiVersion))
    d.why_not = "needs Vulkan 1.3 (or 1.2 with VK_KHR_synchronization2 and VK_KHR_dynamic_rendering)";
  else if (family < 0)
    d.why_not = "no graphics+compute queue";
  else if (!has_extension(pd, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME))
    d.why_not = "no VK_KHR_push_descriptor";
  d.usable = d.why_not.empty();
  return d;
}

std::string format_device_table(const std::vector<DeviceInfo>& devices) {
  std::ostringstream s;
  for (auto& d : devices) {
    s << "[" << d.index << "] " << d.name << "\n"
      << "    type " << d.type << ", driver " << d.driver << ", Vulkan " << d.api << "\n"
      << "    device-local memory " << d.device_local_mib << " MiB, subgroup size " << d.subgroup_size << "\n"
      << "    fp64 " << (d.fp64 ? "yes" : "no") << ", int64 " << (d.int64 ? "yes" : "no") << ", atomic float add "
      << (d.atomic_float_add ? "yes" : "no") << ", timestamps " << (d.timestamps ? "yes" : "no") << "\n"
      << (d.portability_subset ? "    behind a portability layer (MoltenVK), or as --portability makes it: no fp64 in "
                                 "shaders, no 64-bit atomics\n"
                               : "")
      << "    " << (d.usable ? "usable by vklab" : "not usable: " + d.why_not) << "\n";
  }
  if (devices.empty()) s << "no Vulkan device found\n";
  return s.str();
}

}  // namespace gpu
