// The Vulkan context: volk-loaded instance, optional validation with a message
// counter, device choice, one queue, and a helper for one-off submissions.
#pragma once
#include "compute/gpu/memory.h"
#include "compute/gpu/renderdoc.h"
#include "compute/gpu/vk.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace gpu {

struct ContextOptions {
  bool validation = false;                       // Khronos validation layer + synchronization validation
  bool print_messages = true;                    // print each distinct validation message once, to stderr
  std::string device;                            // "" = best, "N" = index, else a name substring
  std::vector<std::string> instance_extensions;  // e.g. what GLFW needs for a surface
  bool swapchain = false;                        // enable VK_KHR_swapchain on the device
  // Called for each candidate queue family: must return true if it can present.
  std::function<bool(VkInstance, VkPhysicalDevice, uint32_t)> can_present;
  MemoryOptions memory;  // how buffers and images get their memory (gpu/memory.h)
  // The longest the app waits for one submission (--gpu-timeout): past it, GpuFailure. Long
  // enough for the largest honest submission on a CPU driver (a few seconds), short enough
  // that a kernel that never ends is said in a minute, not never.
  std::chrono::milliseconds wait_limit{60000};
  // A test's fault: the N-th wait() reports a lost device once its work is done (0: never).
  // vklab sets it from the environment variable VKLAB_SIMULATE_DEVICE_LOST=N.
  uint64_t simulate_lost_at = 0;
  // robustBufferAccess where the device has it: a kernel's reads past a buffer's range give
  // zeros (or a value of the buffer) and its writes there are dropped, so a user's kernel
  // (the exercises) cannot write into another buffer. Off by default: it may cost a little
  // on every storage access, and the benches measure the shipped kernels without it.
  bool robust_buffer_access = false;
  // VK_KHR_pipeline_executable_properties where the device has it: every compute pipeline is
  // made keeping the driver's statistics (registers, shared memory), read by
  // compute/measure/kernel_statistics.h. Off by default: a driver may compile differently to keep them.
  bool pipeline_statistics = false;
  // --portability: the device as MoltenVK offers one on a Mac (docs/MACOS.md): no shaderFloat64
  // and no 64-bit buffer atomics, so the labs' checks for them run here. A device that is behind
  // a portability layer (VK_KHR_portability_subset) is treated so whatever this says.
  bool portability = false;
};

struct DeviceInfo {
  uint32_t index = 0;
  std::string name, type, driver, api;
  uint64_t device_local_mib = 0;
  uint32_t subgroup_size = 0;
  uint32_t subgroup_ops = 0;  // VkSubgroupFeatureFlags in compute shaders (0 where not there)
  bool fp64 = false, int64 = false, atomic_float_add = false, timestamps = false;
  bool portability_subset = false;  // behind a portability layer (MoltenVK): VK_KHR_portability_subset
  bool usable = false;              // Vulkan 1.3 with a graphics+compute queue
  std::string why_not;              // when not usable
};

// Whether a context ended with its queue still running work it gave up on (a time-out): the
// process must then end with _exit(), since exit()'s destructors (the driver's among them)
// would run under that work and crash.
bool abandoned_work_running();

// Lists the devices of a fresh instance (no validation). Throws if Vulkan is missing.
// `portability`: each as --portability makes it (ContextOptions::portability).
std::vector<DeviceInfo> list_devices(bool portability = false);
std::string format_device_table(const std::vector<DeviceInfo>& devices);

class Context {
 public:
  // Delegates to an empty Context first, so the destructor frees what was made when a
  // later step throws (no device, a missing layer or extension).
  explicit Context(const ContextOptions& options = {});
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queue_family = 0;
  VkPhysicalDeviceProperties props{};
  VkPhysicalDeviceMemoryProperties memory{};
  DeviceInfo info;
  uint32_t timestamp_valid_bits = 0;
  bool atomic_float_add = false;
  bool int64_atomics = false;        // 64-bit buffer atomics, with shaderInt64 and shaderFloat64
  bool portability = false;          // a MoltenVK-like device, real or as --portability asked
  bool int8 = false, int16 = false;  // 8- and 16-bit ints in storage buffers and in shaders (the mesh lab's fields)
  bool fp16 = false;                 // shaderFloat16 enabled
  bool large_points = false;         // largePoints enabled: a point list may draw points wider than a pixel
  bool scalar_block = false;         // scalarBlockLayout enabled
  bool robust = false;               // robustBufferAccess enabled (ContextOptions::robust_buffer_access)
  bool vertex_stores = false, fragment_stores = false;  // storage buffer writes from those stages enabled
  bool pipeline_statistics = false;                     // ContextOptions::pipeline_statistics granted by the device
  // The compute pipelines alive on this context: the shader each was made from and its
  // workgroup size (gpu/pipeline.cpp keeps it; compute/measure/kernel_statistics.h reads it).
  struct PipelineRecord {
    std::string shader;
    uint32_t local_x = 0, local_y = 0, local_z = 0;
  };
  std::map<VkPipeline, PipelineRecord> pipelines;
  mutable std::mutex pipelines_mutex;  // pipelines may be made on several threads (a mesh's kernels)

  // Validation: number of warnings/errors seen since creation, and their texts.
  uint64_t validation_count() const { return validation_count_.load(); }
  std::vector<std::string> validation_messages() const;
  bool validation_enabled() const { return messenger_ != VK_NULL_HANDLE; }

  uint32_t memory_type(uint32_t type_bits, VkMemoryPropertyFlags flags) const;
  Allocator& allocator() { return *allocator_; }  // every Buffer's and Image's memory
  const Allocator& allocator() const { return *allocator_; }

  // Records with `record`, submits, waits. For uploads, readbacks and tests.
  void submit_now(const std::function<void(VkCommandBuffer)>& record);
  // The queue (and the pool submit_now records from) is externally synchronized: a lab built
  // on a worker thread while the window presents frames (app/window/build_job.h) submits under
  // this lock, as do the window's frames, vkQueueWaitIdle and wait_idle(). Recursive: a record
  // callback may upload (submit_now inside submit_now).
  std::unique_lock<std::recursive_mutex> lock_queue() const { return std::unique_lock(queue_mutex_); }
  void wait_idle() const;        // vkDeviceWaitIdle under the queue's lock
  void wait_queue_idle() const;  // vkQueueWaitIdle likewise
  // Waits for `fence` at most the wait limit; throws GpuFailure naming `what` on a time-out or
  // a lost device. After a failure, failed() says why: the queue may still run the work, so
  // the context's destructor no longer waits for it (the process is about to end).
  void wait(VkFence fence, const std::string& what);
  static constexpr std::chrono::microseconds kFencePoll{1500};  // wait() polls a GPU's fence this long first
  std::chrono::milliseconds wait_limit;
  // After a time-out: waits up to `slice` more; true once the work is done (the context is
  // trusted again), false while it runs; throws GpuFailure if the device is lost meanwhile.
  bool finished(VkFence fence, std::chrono::milliseconds slice);
  const std::string& failed() const { return failed_; }
  bool lost() const { return lost_; }  // the failure was a lost device, which runs nothing more

  // RenderDoc captures asked for (--renderdoc-capture, the window's button): see renderdoc.h.
  CaptureRequests renderdoc;

  // The fastest clock probe seen on this device (compute/measure/timer.cpp's time_gpu), in ms, and the
  // probe's pipeline and buffer, made on first use and kept for the context's life.
  double best_clock_probe_ms = 0;
  std::shared_ptr<void> clock_probe;
  // The buffer every upload to device-local memory goes through (resources.cpp),
  // made on first use and kept: pinned host memory is slow to allocate (on an H200, 1.8 GB of
  // a mesh's tables uploaded through a staging buffer each took 0.85 s allocating them).
  std::shared_ptr<void> staging;
  // The same for downloads, in memory the CPU caches where the device has it (reads of uncached
  // memory crawl; writes into it, the uploads', are what it is made for).
  std::shared_ptr<void> readback;

  // Where the build put the SPIR-V files (<exe dir>/shaders, else the build tree).
  std::filesystem::path shader_dir;

 private:
  static VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                        const VkDebugUtilsMessengerCallbackDataEXT*, void*);
  struct Empty {};
  explicit Context(Empty) {}
  void create_messenger();                            // validation messages to on_message
  void create_device(const ContextOptions& options);  // features, extensions, queue
  std::unique_ptr<Allocator> allocator_;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger_ = nullptr;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  bool print_messages_ = true;
  std::atomic<uint64_t> validation_count_{0};
  mutable std::mutex messages_mutex_;
  mutable std::recursive_mutex queue_mutex_;
  std::vector<std::string> messages_;
  std::set<std::string> printed_;
  std::string failed_;
  bool lost_ = false;
  uint64_t waits_ = 0, simulate_lost_at_ = 0;  // ContextOptions::simulate_lost_at
  // A submission given up on (time-out) keeps its fence and command buffer until the GPU is
  // idle again: freeing them while pending is invalid.
  std::vector<std::pair<VkFence, VkCommandBuffer>> abandoned_;
  void free_abandoned();
};

// Global memory barrier (synchronization2); images in vklab stay in GENERAL layout
// while compute and graphics share them, so a memory barrier is all they need.
void barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
             VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access);

}  // namespace gpu
