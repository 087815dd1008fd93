#include "compute/gpu/context.h"

#include "compute/gpu/device_info.h"
#include "compute/io/platform.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <thread>
#include <utility>

namespace gpu {

namespace {

bool instance_offers(const char* extension) {
  uint32_t n = 0;
  vkEnumerateInstanceExtensionProperties(nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> all(n);
  vkEnumerateInstanceExtensionProperties(nullptr, &n, all.data());
  return std::any_of(all.begin(), all.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, extension) == 0; });
}

void load_vulkan() {
  static bool loaded = false;
  if (loaded) return;
  if (volkInitialize() != VK_SUCCESS)
    throw std::runtime_error("the Vulkan loader (libvulkan.so.1) was not found; install libvulkan1 and a driver");
  loaded = true;
}

VkInstance make_instance(const std::vector<std::string>& extensions, bool validation) {
  load_vulkan();
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "vklab";
  app.apiVersion = VK_API_VERSION_1_3;
  std::vector<const char*> exts;
  for (auto& e : extensions) exts.push_back(e.c_str());
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  // Devices behind a portability layer (MoltenVK on macOS) are listed only when asked for.
  if (instance_offers(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
    exts.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
    ci.flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
  }
  std::vector<const char*> layers;
  VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;
  ci.pApplicationInfo = &app;
  if (validation) {
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, nullptr);
    std::vector<VkLayerProperties> props(n);
    vkEnumerateInstanceLayerProperties(&n, props.data());
    bool found = std::any_of(props.begin(), props.end(), [](const VkLayerProperties& p) {
      return std::strcmp(p.layerName, "VK_LAYER_KHRONOS_validation") == 0;
    });
    if (!found)
      throw std::runtime_error(
          "validation was asked for but VK_LAYER_KHRONOS_validation is not installed "
#ifdef _WIN32
          "(it comes with the Vulkan SDK, vulkan.lunarg.com)");
#else
          "(Debian: vulkan-validationlayers)");
#endif
    layers.push_back("VK_LAYER_KHRONOS_validation");
    exts.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    ci.pNext = &features;
  }
  ci.enabledLayerCount = uint32_t(layers.size());
  ci.ppEnabledLayerNames = layers.data();
  ci.enabledExtensionCount = uint32_t(exts.size());
  ci.ppEnabledExtensionNames = exts.data();
  VkInstance instance;
  VK_CHECK(vkCreateInstance(&ci, nullptr, &instance));
  // Device functions are loaded through the instance too: the loader's trampolines
  // dispatch on the device handle, so several contexts (tests, --list-devices) can live
  // side by side. Per-device tables would save one indirection per call, not worth it here.
  volkLoadInstance(instance);
  return instance;
}

std::vector<VkPhysicalDevice> physical_devices(VkInstance instance) {
  uint32_t n = 0;
  VK_CHECK(vkEnumeratePhysicalDevices(instance, &n, nullptr));
  std::vector<VkPhysicalDevice> pds(n);
  VK_CHECK(vkEnumeratePhysicalDevices(instance, &n, pds.data()));
  return pds;
}

std::filesystem::path find_shader_dir() {
  if (const char* env = std::getenv("VKLAB_SHADER_DIR")) return env;
  if (auto exe = platform::executable(); !exe.empty()) {
    auto beside = exe.parent_path() / "shaders";
    if (std::filesystem::is_directory(beside)) return beside;
    auto installed = exe.parent_path().parent_path() / "share" / "vklab" / "shaders";
    if (std::filesystem::is_directory(installed)) return installed;
  }
  return VKLAB_BUILD_SHADER_DIR;
}

}  // namespace

std::vector<DeviceInfo> list_devices(bool portability) {
  VkInstance instance = make_instance({}, false);
  std::vector<DeviceInfo> out;
  auto pds = physical_devices(instance);
  for (uint32_t i = 0; i < pds.size(); ++i) {
    out.push_back(describe(pds[i], i));
    if (portability) out.back().portability_subset = true, out.back().fp64 = false;  // as the context makes it
  }
  vkDestroyInstance(instance, nullptr);
  return out;
}

namespace {

// An explicit --device (by index or name substring), else the best-ranked usable device
// (discrete before integrated before CPU, then the most device-local memory).
int choose_device(VkInstance instance, const std::vector<VkPhysicalDevice>& pds, const std::vector<DeviceInfo>& infos,
                  const ContextOptions& options) {
  int chosen = -1;
  auto usable_here = [&](uint32_t i) {
    if (!infos[i].usable) return false;
    if (!options.can_present) return true;
    return options.can_present(instance, pds[i], uint32_t(graphics_compute_family(pds[i])));
  };
  if (!options.device.empty()) {
    bool numeric = std::all_of(options.device.begin(), options.device.end(), ::isdigit);
    for (uint32_t i = 0; i < pds.size(); ++i) {
      bool match =
          numeric ? std::to_string(i) == options.device : infos[i].name.find(options.device) != std::string::npos;
      if (match) {
        chosen = int(i);
        break;
      }
    }
    if (chosen < 0) throw std::invalid_argument("no Vulkan device matches --device " + options.device);
    if (!infos[chosen].usable)
      throw std::runtime_error("device '" + infos[chosen].name + "' is not usable: " + infos[chosen].why_not);
  } else {
    for (uint32_t i = 0; i < pds.size(); ++i) {
      if (!usable_here(i)) continue;
      VkPhysicalDeviceProperties a, b;
      vkGetPhysicalDeviceProperties(pds[i], &a);
      if (chosen >= 0) vkGetPhysicalDeviceProperties(pds[chosen], &b);
      if (chosen < 0 || type_rank(a.deviceType) > type_rank(b.deviceType) ||
          (type_rank(a.deviceType) == type_rank(b.deviceType) &&
           infos[i].device_local_mib > infos[chosen].device_local_mib))
        chosen = int(i);
    }
    if (chosen < 0) throw std::runtime_error("no usable Vulkan 1.3 device found (try --list-devices)");
  }
  return chosen;
}

}  // namespace

Context::Context(const ContextOptions& options) : Context(Empty{}) {
  print_messages_ = options.print_messages;
  wait_limit = options.wait_limit;
  simulate_lost_at_ = options.simulate_lost_at;
  shader_dir = find_shader_dir();
  instance = make_instance(options.instance_extensions, options.validation);
  if (options.validation) create_messenger();
  auto pds = physical_devices(instance);
  std::vector<DeviceInfo> infos;
  for (uint32_t i = 0; i < pds.size(); ++i) infos.push_back(describe(pds[i], i));
  int chosen = choose_device(instance, pds, infos, options);
  physical = pds[chosen];
  info = infos[chosen];
  queue_family = uint32_t(graphics_compute_family(physical));
  vkGetPhysicalDeviceProperties(physical, &props);
  vkGetPhysicalDeviceMemoryProperties(physical, &memory);
  {
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &n, nullptr);
    std::vector<VkQueueFamilyProperties> fams(n);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &n, fams.data());
    timestamp_valid_bits = fams[queue_family].timestampValidBits;
  }

  create_device(options);
  allocator_ = std::make_unique<Allocator>(device, memory, options.memory);
  VkCommandPoolCreateInfo pi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pi.queueFamilyIndex = queue_family;
  VK_CHECK(vkCreateCommandPool(device, &pi, nullptr, &pool_));
}

void Context::create_messenger() {
  VkDebugUtilsMessengerCreateInfoEXT mi{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  mi.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  mi.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                   VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  mi.pfnUserCallback = &Context::on_message;
  mi.pUserData = this;
  // Kept per context: the global pointers follow whichever instance was made last.
  auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
  destroy_messenger_ = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
  VK_CHECK(create(instance, &mi, nullptr, &messenger_));
}

// Features: what vklab needs, plus what later labs use where the device has it.
void Context::create_device(const ContextOptions& options) {
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  // On Vulkan 1.2, the features of VK_KHR_synchronization2 and VK_KHR_dynamic_rendering stand
  // in for the 1.3 structure (same members), chained in its place.
  const bool core13 = props.apiVersion >= VK_API_VERSION_1_3;
  VkPhysicalDeviceSynchronization2Features sync2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES};
  VkPhysicalDeviceDynamicRenderingFeatures dyn{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES, &sync2};
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  f12.pNext = core13 ? static_cast<void*>(&f13) : static_cast<void*>(&dyn);
  VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &f12};
  VkPhysicalDeviceFeatures2 have{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f11};
  bool atomic_ext = has_extension(physical, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  if (atomic_ext) (core13 ? f13.pNext : sync2.pNext) = &atomic;
  vkGetPhysicalDeviceFeatures2(physical, &have);
  const bool subset = has_extension(physical, kPortabilitySubset);
  portability = subset || options.portability;
  if (portability) {  // what MoltenVK does not offer (Metal has neither): docs/MACOS.md
    have.features.shaderFloat64 = VK_FALSE;
    f12.shaderBufferInt64Atomics = VK_FALSE;
    info.fp64 = false;
  }
  if (!core13) f13.dynamicRendering = dyn.dynamicRendering, f13.synchronization2 = sync2.synchronization2;
  if (!f13.dynamicRendering || !f13.synchronization2)
    throw std::runtime_error(info.name + " lacks dynamicRendering or synchronization2");

  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT want_atomic{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  want_atomic.shaderBufferFloat32AtomicAdd = atomic.shaderBufferFloat32AtomicAdd;
  want_atomic.shaderBufferFloat32Atomics = atomic.shaderBufferFloat32Atomics;
  VkPhysicalDeviceVulkan13Features w13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  w13.dynamicRendering = VK_TRUE;
  w13.synchronization2 = VK_TRUE;
  w13.maintenance4 = f13.maintenance4;
  VkPhysicalDeviceSynchronization2Features want_sync2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES};
  want_sync2.synchronization2 = VK_TRUE;
  VkPhysicalDeviceDynamicRenderingFeatures want_dyn{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES,
                                                    &want_sync2};
  want_dyn.dynamicRendering = VK_TRUE;
  if (atomic_ext && atomic.shaderBufferFloat32AtomicAdd) (core13 ? w13.pNext : want_sync2.pNext) = &want_atomic;
  VkPhysicalDeviceVulkan12Features w12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  w12.pNext = core13 ? static_cast<void*>(&w13) : static_cast<void*>(&want_dyn);
  w12.scalarBlockLayout = f12.scalarBlockLayout;
  w12.shaderFloat16 = f12.shaderFloat16;
  w12.hostQueryReset = f12.hostQueryReset;
  w12.shaderBufferInt64Atomics = f12.shaderBufferInt64Atomics;
  int64_atomics = f12.shaderBufferInt64Atomics && have.features.shaderInt64 && have.features.shaderFloat64;
  int8 = f12.storageBuffer8BitAccess && f12.shaderInt8;
  int16 = f11.storageBuffer16BitAccess && have.features.shaderInt16;
  w12.storageBuffer8BitAccess = w12.shaderInt8 = int8;
  VkPhysicalDeviceVulkan11Features w11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &w12};
  w11.storageBuffer16BitAccess = int16;
  VkPhysicalDeviceFeatures2 want{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &w11};
  want.features.shaderInt16 = int16;
  want.features.shaderFloat64 = have.features.shaderFloat64;
  want.features.shaderInt64 = have.features.shaderInt64;
  want.features.shaderStorageImageWriteWithoutFormat = have.features.shaderStorageImageWriteWithoutFormat;
  want.features.fragmentStoresAndAtomics = have.features.fragmentStoresAndAtomics;
  want.features.vertexPipelineStoresAndAtomics = have.features.vertexPipelineStoresAndAtomics;
  robust = options.robust_buffer_access && have.features.robustBufferAccess;
  want.features.robustBufferAccess = robust;
  want.features.largePoints = have.features.largePoints;
  large_points = have.features.largePoints;
  vertex_stores = have.features.vertexPipelineStoresAndAtomics,
  fragment_stores = have.features.fragmentStoresAndAtomics;
  atomic_float_add = atomic_ext && atomic.shaderBufferFloat32AtomicAdd;
  fp16 = f12.shaderFloat16;
  scalar_block = f12.scalarBlockLayout;

  // The driver's statistics of each pipeline (registers, shared memory), asked for.
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR stats{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  if (options.pipeline_statistics && has_extension(physical, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)) {
    VkPhysicalDeviceFeatures2 probe{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &stats};
    vkGetPhysicalDeviceFeatures2(physical, &probe);
    pipeline_statistics = stats.pipelineExecutableInfo;
  }
  if (pipeline_statistics) stats.pNext = std::exchange(want.pNext, &stats);

  std::vector<const char*> exts = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
  if (pipeline_statistics) exts.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  if (atomic_float_add) exts.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  if (options.swapchain) exts.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
  // A portability layer's device must be created with its subset enabled; vklab uses none of
  // the features the subset may lack (events, triangle fans, point polygons, format swizzles).
  if (subset) exts.push_back(kPortabilitySubset);
  if (!core13) {
    exts.push_back(VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME);
    exts.push_back(VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME);
  }

  float priority = 1.0f;
  VkDeviceQueueCreateInfo qi{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qi.queueFamilyIndex = queue_family;
  qi.queueCount = 1;
  qi.pQueuePriorities = &priority;
  VkDeviceCreateInfo di{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &want};
  di.queueCreateInfoCount = 1;
  di.pQueueCreateInfos = &qi;
  di.enabledExtensionCount = uint32_t(exts.size());
  di.ppEnabledExtensionNames = exts.data();
  VK_CHECK(vkCreateDevice(physical, &di, nullptr, &device));
  vkGetDeviceQueue(device, queue_family, 0, &queue);
  if (!core13) {  // the core names vklab calls, pointed at the extensions' functions
    vkCmdPipelineBarrier2 = vkCmdPipelineBarrier2KHR;
    vkCmdWriteTimestamp2 = vkCmdWriteTimestamp2KHR;
    vkCmdBeginRendering = vkCmdBeginRenderingKHR;
    vkCmdEndRendering = vkCmdEndRenderingKHR;
  }
}

namespace {
std::atomic<bool> abandoned_running{false};
}  // namespace

bool abandoned_work_running() { return abandoned_running; }

Context::~Context() {
  // After a time-out the queue may still run (or never end) its work: destroying the device
  // under it is invalid and may block, so the process ends with it instead. A lost device runs
  // nothing more: its objects are destroyed as usual (Vulkan allows it).
  if (!failed_.empty() && !lost_ && !abandoned_.empty()) {
    abandoned_running = true;
    return;
  }
  if (device) {
    vkDeviceWaitIdle(device);
    free_abandoned();
    clock_probe.reset();
    staging.reset();
    readback.reset();
    allocator_.reset();
    vkDestroyCommandPool(device, pool_, nullptr);
    vkDestroyDevice(device, nullptr);
  }
  if (messenger_) destroy_messenger_(instance, messenger_, nullptr);
  if (instance) vkDestroyInstance(instance, nullptr);
}

VkBool32 VKAPI_CALL Context::on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                        VkDebugUtilsMessageTypeFlagsEXT,
                                        const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  auto* self = static_cast<Context*>(user);
  std::string text = std::string(severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error: " : "warning: ") +
                     (data->pMessage ? data->pMessage : "(no text)");
  self->validation_count_++;
  std::lock_guard lock(self->messages_mutex_);
  self->messages_.push_back(text);
  std::string key = std::to_string(data->messageIdNumber) + (data->pMessageIdName ? data->pMessageIdName : "");
  if (self->print_messages_ && self->printed_.insert(key).second)
    std::fprintf(stderr, "vklab validation %s\n", text.c_str());
  return VK_FALSE;
}

std::vector<std::string> Context::validation_messages() const {
  std::lock_guard lock(messages_mutex_);
  return messages_;
}

uint32_t Context::memory_type(uint32_t type_bits, VkMemoryPropertyFlags flags) const {
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
    if ((type_bits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & flags) == flags) return i;
  throw std::runtime_error("no memory type with the needed properties");
}

void Context::wait_idle() const {
  auto lock = lock_queue();
  vkDeviceWaitIdle(device);
}

void Context::wait_queue_idle() const {
  auto lock = lock_queue();
  vkQueueWaitIdle(queue);
}

void Context::submit_now(const std::function<void(VkCommandBuffer)>& record) {
  auto lock = lock_queue();  // the pool and the queue; not while waiting
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = pool_;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  VkCommandBuffer cmd;
  VK_CHECK(vkAllocateCommandBuffers(device, &ai, &cmd));
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VK_CHECK(vkBeginCommandBuffer(cmd, &bi));
  record(cmd);
  VK_CHECK(vkEndCommandBuffer(cmd));
  VkFenceCreateInfo fi{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  VK_CHECK(vkCreateFence(device, &fi, nullptr, &fence));
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cmd;
  VkResult r = vkQueueSubmit(queue, 1, &si, fence);
  if (r != VK_SUCCESS) {
    vkDestroyFence(device, fence, nullptr);
    vkFreeCommandBuffers(device, pool_, 1, &cmd);
    VK_CHECK(r);
  }
  lock.unlock();
  try {
    wait(fence, "a submission");
  } catch (const GpuFailure&) {
    lock.lock();
    abandoned_.push_back({fence, cmd});
    throw;
  }
  lock.lock();
  vkDestroyFence(device, fence, nullptr);
  vkFreeCommandBuffers(device, pool_, 1, &cmd);
  free_abandoned();
}

void Context::wait(VkFence fence, const std::string& what) {
  auto limit = uint64_t(std::chrono::nanoseconds(wait_limit).count());
  // A GPU's short submission is polled for first: a blocking wait may wake a millisecond after the
  // fence (seen on an H200: a submission's round trip 1 ms, most of it the wake-up). Not on a CPU
  // driver, whose threads the polling would take a core from.
  VkResult r = VK_NOT_READY;
  if (info.type != "cpu")
    for (auto until = std::chrono::steady_clock::now() + kFencePoll;
         (r = vkGetFenceStatus(device, fence)) == VK_NOT_READY && std::chrono::steady_clock::now() < until;)
      std::this_thread::yield();
  if (r == VK_NOT_READY) r = vkWaitForFences(device, 1, &fence, VK_TRUE, limit);
  if (r == VK_SUCCESS && simulate_lost_at_ && ++waits_ == simulate_lost_at_) r = VK_ERROR_DEVICE_LOST;
  if (r == VK_SUCCESS) return;
  std::string why;
  if (r == VK_TIMEOUT) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", double(wait_limit.count()) / 1000);
    why = "the GPU did not finish " + what + " within " + seconds +
          " s (--gpu-timeout): a kernel runs far longer than it should, or the GPU hangs";
  } else if (r == VK_ERROR_DEVICE_LOST) {
    why = "the GPU device was lost while running " + what + " (the driver reset it: a kernel ran too long or faulted)";
  } else {
    VK_CHECK(r);
  }
  failed_ = why;
  lost_ = r == VK_ERROR_DEVICE_LOST;
  throw GpuFailure(r, why);
}

bool Context::finished(VkFence fence, std::chrono::milliseconds slice) {
  VkResult r = vkWaitForFences(device, 1, &fence, VK_TRUE, uint64_t(std::chrono::nanoseconds(slice).count()));
  if (r == VK_TIMEOUT) return false;
  if (r == VK_ERROR_DEVICE_LOST) {
    failed_ = "the GPU device was lost while vklab waited for it";
    lost_ = true;
    throw GpuFailure(r, failed_);
  }
  VK_CHECK(r);
  free_abandoned();
  return true;
}

// The abandoned submissions are done once a later one is (one queue, in order).
void Context::free_abandoned() {
  for (auto [fence, cmd] : abandoned_) {
    VK_CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));
    vkDestroyFence(device, fence, nullptr);
    vkFreeCommandBuffers(device, pool_, 1, &cmd);
  }
  abandoned_.clear();
  failed_.clear();
}

void barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
             VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access) {
  VkMemoryBarrier2 b{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  b.srcStageMask = src_stage;
  b.srcAccessMask = src_access;
  b.dstStageMask = dst_stage;
  b.dstAccessMask = dst_access;
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.memoryBarrierCount = 1;
  dep.pMemoryBarriers = &b;
  vkCmdPipelineBarrier2(cmd, &dep);
}

}  // namespace gpu
