// The windowed app: a host for the session's picture and the tabs. It owns the GLFW window,
// the surface and swapchain (render/swapchain; survives resize, minimise, vsync), Dear ImGui,
// the frame loop and the keys; the session owns the lab and records its frame; each tab owns
// its state and draws from the session.
#pragma once
#include "app/core/cli.h"
#include "app/core/session.h"
#include "app/window/bench_runner.h"
#include "app/window/build_job.h"
#include "app/window/soak.h"
#include "app/window/tabs/bench_tab.h"
#include "app/window/tabs/exercise_tab.h"
#include "app/window/tabs/help_tab.h"
#include "app/window/tabs/inspect_tab.h"
#include "app/window/tabs/lab_tab.h"
#include "app/window/tabs/picture_tab.h"
#include "app/window/tabs/timings_tab.h"
#include "app/window/tabs/transport_bar.h"
#include "render/swapchain.h"

#include <GLFW/glfw3.h>

#include <chrono>
#include <deque>
#include <memory>

// vklab [window]: the windowed mode; returns the process exit code.
int run_window(const Options& o);

class Window {
 public:
  // Delegates to an empty Window first, so the destructor frees what was made when a later
  // step throws (no display, no device that can present).
  explicit Window(const Options& o);
  ~Window();
  int run();

 private:
  struct Empty {};
  explicit Window(Empty) {}
  void create_surface();
  void create_frame_objects();  // command buffer, fence, semaphore, the UI's render pass
  void create_swapchain();      // for the framebuffer's size now
  void create_imgui();          // ImGui's context and GLFW side (once)
  void create_imgui_pool();     // ImGui's descriptor pool on the session's device
  void open_gpu(std::unique_ptr<Lab> lab, gpu::ContextOptions co, bool build_now);
  void build_first();  // the lab's first build, its progress drawn
  void close_gpu();
  bool recover(const std::string& why);  // a lost device: made anew, the lab rebuilt (false: it could not be)
  // window_style.cpp: fonts and sizes at the UI scale
  float monitor_scale() const;
  void apply_ui_scale(float scale);
  void save_view_settings();

  bool frame();  // false when the window should close
  void between_frames();
  void collect_frame();
  std::unique_ptr<Soak> soak_;  // --soak
  std::chrono::steady_clock::time_point soak_frame_;
  void wait_out(const std::string& why);                 // a frame past --gpu-timeout
  [[noreturn]] void gpu_failed(const std::string& why);  // says it, saves the parameters, exits 4
  void forward_pointer(uint32_t image_index, int fb_width, int fb_height);
  void record(VkCommandBuffer cmd, uint32_t image_index, bool lab);  // lab: false while it is rebuilt
  bool acquire(uint32_t& index);                                     // the next swapchain image (false: out of date)
  void begin_commands();                                             // cmd_ reset and begun
  bool building_frame();                                             // a frame while build_ runs
  void build_progress_panel();                                       // what build_ has done, in the sidebar's place
  // The part `region` of the swapchain image, for a capture or the recorder, left in `after`.
  void copy_frame(VkCommandBuffer cmd, VkImage image, VkRect2D region, VkImageLayout after);
  // Presentation mode (P): the picture alone; the bar comes back for a while when the mouse moves.
  void set_presenting(bool on);
  void set_fullscreen(bool on);  // F11: on the window's monitor, or back to where it was
  bool overlay_shown() const;    // the transport bar (always, but in presentation mode)
  void submit_and_present(uint32_t image_index);
  render::Frame lab_frame(uint32_t image_index) const;  // the picture's part of the window
  float legend_scale() const { return view_.legend ? 1.5f * view_.ui_scale : 0.0f; }
  float sidebar_width() const;  // at most half the window
  void sidebar();
  float pane_width() const;  // the exercise's editor pane, beside the sidebar (0: none)
  void editor_pane();
  void write_plot_picture(const PlotData& plot);     // a plot's PNG button
  void write_table_picture(const TableData& table);  // a table's
  // window_keys.cpp: GLFW's key presses, --keys and --shake
  void on_key(int key, int action);  // GLFW's key callback (and --keys): queues a press
  // GLFW's key events for ImGui, queued and handed over at most one change a key a frame (ImGui
  // 1.86 reads keys once a frame: a tap between two frames would be lost at a low frame rate).
  struct KeyEvent {
    int key, scancode, action, mods;
  };
  std::deque<KeyEvent> imgui_keys_;
  void feed_imgui_keys();
  void keys();
  void inject_keys();
  void shake(uint64_t frame);
  uint32_t steps_this_frame();  // 0 while paused or a bench runs, 1 on a step, else the lab's speed

  Options opts_;
  // Owned handles, freed in reverse order (Vulkan's before the session's context, the
  // context before the window).
  gpu::Unique<GLFWwindow*> window_;
  std::unique_ptr<Session> session_;
  std::unique_ptr<BuildJob> build_;  // the lab rebuilt beside the frames (declared after session_: ends first)
  bool frame_had_lab_ = false;       // the frame in flight stepped and drew the lab
  gpu::Unique<VkSurfaceKHR> surface_;
  VkFormat format_ = VK_FORMAT_UNDEFINED;
  gpu::Unique<VkRenderPass> ui_pass_;
  std::unique_ptr<render::Swapchain> sc_;
  gpu::Unique<VkDescriptorPool> imgui_pool_;
  gpu::Unique<VkCommandPool> pool_;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;  // from pool_
  gpu::Unique<VkFence> fence_;
  gpu::Unique<VkSemaphore> acquired_;
  std::unique_ptr<gpu::Buffer> frame_copy_;  // the swapchain image, for a capture or the recorder
  bool submitted_ = false;
  bool resized_ = false;
  bool imgui_ready_ = false;    // ImGui's context and GLFW side
  bool imgui_backend_ = false;  // ImGui's Vulkan side
  ViewState view_;              // UI scale, vsync, legend (the Picture tab changes them)

  std::unique_ptr<BenchRunner> bench_;
  gpu::ContextOptions ctx_for_bench_;  // a bench's own context (open_gpu)
  LabTab lab_tab_;
  TimingsTab timings_tab_;
  PictureTab picture_tab_{30, false};
  BenchTab bench_tab_{true};
  InspectTab inspect_tab_;
  HelpTab help_tab_;
  ExerciseTab exercise_tab_;
  TransportBar transport_;

  std::vector<int> key_presses_;       // GLFW keys pressed since the last frame, in order
  bool sidebar_ = true;                // Tab
  bool presenting_ = false;            // P: no sidebar; the bar only after the mouse moves
  double pointer_moved_at_ = -1e9;     // glfwGetTime() at the mouse's last move
  bool cursor_hidden_ = false;         // presentation mode hides an idle cursor with the bar
  bool fullscreen_ = false;            // F11
  int windowed_[4] = {};               // the window's place and size before full screen
  std::string select_tab_;             // the sidebar tab to bring forward next frame (--tab, F1: Help)
  float mouse_x_ = -1, mouse_y_ = -1;  // framebuffer pixels
  uint64_t frame_count_ = 0;
  float panel_width_ = 420;
  float pane_share_ = 0.45f;    // the editor pane's share of the window's width (dragged)
  bool panel_resized_ = false;  // the sidebar takes panel_width_ next frame
  bool tabs_brief_ = false;     // the tabs show their short names (they did not all fit)
};
