// The windowed app: GLFW window, swapchain (survives resize, minimise, vsync toggles),
// Dear ImGui over the lab's picture, panels for the lab, timings, capture and bench.
#pragma once
#include "cli.h"
#include "lab.h"

#include <GLFW/glfw3.h>

#include <deque>
#include <memory>

class Window {
 public:
  explicit Window(const Options& o);
  ~Window();
  int run();

 private:
  struct Swapchain {
    VkSwapchainKHR handle = VK_NULL_HANDLE;
    VkExtent2D extent{};
    std::vector<VkImage> images;
    std::vector<VkImageView> views;
    std::vector<VkFramebuffer> framebuffers;  // for ImGui's render pass
    std::vector<VkSemaphore> rendered;        // one per image: present waits on it
    gpu::Image depth;
  };

  void create_swapchain();
  void destroy_swapchain();
  void create_imgui();
  bool frame();  // false when the window should close
  void record(VkCommandBuffer cmd, uint32_t image_index);
  render::Frame lab_frame(uint32_t image_index) const;
  void panels();
  void lab_panel();
  void timings_panel();
  void capture_panel();
  void bench_panel();
  void apply_rebuild();
  void switch_lab(const std::string& name);
  void finish_capture();
  void exercise(uint64_t frame);

  Options opts_;
  GLFWwindow* window_ = nullptr;
  std::unique_ptr<gpu::Context> ctx_;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
  VkFormat format_ = VK_FORMAT_UNDEFINED;
  Swapchain sc_;
  VkRenderPass ui_pass_ = VK_NULL_HANDLE;
  VkDescriptorPool imgui_pool_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkSemaphore acquired_ = VK_NULL_HANDLE;
  bool submitted_ = false;
  bool resized_ = false;
  bool vsync_ = true;
  bool imgui_ready_ = false;

  std::unique_ptr<gpu::Profiler> prof_;
  std::unique_ptr<Lab> lab_;
  std::vector<Param> params_before_;  // restored when a rebuild fails
  std::string error_;                 // shown in the panel until dismissed

  std::vector<gpu::PassTiming> timings_;
  std::deque<float> gpu_ms_history_;
  double saxpy_gbps_ = 0;

  bool capture_requested_ = false, capture_recorded_ = false;
  std::filesystem::path capture_path_;
  std::unique_ptr<gpu::Buffer> capture_buffer_;
  VkExtent2D capture_extent_{};
  std::string last_capture_;
  std::string said_problem_;  // the lab's last problem() written to stderr

  nlohmann::json bench_result_;
  std::string bench_file_;
  uint64_t frame_count_ = 0;
  float panel_width_ = 420;
};
