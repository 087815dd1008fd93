// What vklab asks of a physical device and how it describes one (--list-devices, the
// context's choice): extensions, the graphics+compute queue family, Vulkan 1.3 or 1.2 with
// the two extensions it relies on.
#pragma once
#include "compute/gpu/context.h"

namespace gpu {

int type_rank(VkPhysicalDeviceType t);  // discrete, else integrated, else the rest, CPU last
bool has_extension(VkPhysicalDevice pd, const char* name);
// VK_KHR_portability_subset's name (its header is among the beta extensions): a device behind a
// portability layer such as MoltenVK.
constexpr const char* kPortabilitySubset = "VK_KHR_portability_subset";
int graphics_compute_family(VkPhysicalDevice pd);  // -1: none
bool vulkan12_with_extensions(VkPhysicalDevice pd, uint32_t api);
DeviceInfo describe(VkPhysicalDevice pd, uint32_t index);

}  // namespace gpu
