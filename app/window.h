// The windowed app: GLFW window, swapchain (render/swapchain; survives resize, minimise, vsync),
// Dear ImGui over the lab's picture, panels for the lab, timings, capture and bench.
#pragma once
#include "app/bench_job.h"
#include "app/cli.h"
#include "app/help.h"
#include "app/history.h"
#include "app/inspector.h"
#include "app/lab.h"
#include "app/presets.h"
#include "app/settings.h"
#include "render/recorder.h"
#include "render/swapchain.h"

#include <GLFW/glfw3.h>

#include <deque>
#include <map>
#include <memory>
#include <optional>

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
  void create_swapchain();  // for the framebuffer's size now
  void create_imgui();
  bool frame();  // false when the window should close
  void collect_frame();
  void forward_pointer(uint32_t image_index, int fb_width, int fb_height);
  void submit_and_present(uint32_t image_index);
  void record(VkCommandBuffer cmd, uint32_t image_index);
  render::Frame lab_frame(uint32_t image_index) const;
  void panels();
  void lab_panel();
  void timings_panel();
  void capture_panel();
  void renderdoc_line();  // the Timings tab's "Capture in RenderDoc"
  // bench_panel.cpp: the bench and sweeps, beside the frame loop
  void bench_panel();
  void sweep_panel();
  bool bench_running() const;
  void start_bench(bool sweep, bool peaks = false);  // peaks: measure the device's roofs (Timings)
  void poll_bench();
  // ui_style.cpp: fonts and sizes at the UI scale, the View tab
  float monitor_scale() const;
  void apply_ui_scale(float scale);
  void view_panel();
  void save_view_settings();
  void apply_rebuild();
  void switch_lab(const std::string& name);
  void finish_capture();
  void write_plot_picture(const PlotData& plot);  // a plot's PNG button
  void exercise(uint64_t frame);
  // transport.cpp: the bar over the picture, keys, help, presets
  void transport_bar();
  void keys();
  void inject_keys();
  void on_key(int key, int action);  // GLFW's key callback (and --keys): queues a press
  float sidebar_width() const;       // the sidebar, at most half the window
  void help_panel();
  void inspect_panel();  // inspector_panel.cpp
  void memory_line();
  void build_lab(Lab& lab);
  void presets_panel();
  void load_preset(const Preset& p);
  void restart_lab();
  void history_bar(float width);  // at most `width` pixels wide
  void go_back_to(size_t snapshot);
  uint32_t steps_this_frame();  // 0 while paused, 1 on a step, else the lab's speed
  // recording.cpp: the Record button and --record in the window
  void start_recording(const std::string& path);
  void record_frame(const std::vector<uint8_t>& rgba);  // the swapchain image, cropped
  void stop_recording();
  void record_panel();
  void toggle_recording();  // Record / Stop recording and key V, between frames

  Options opts_;
  // Owned handles, freed in reverse order (Vulkan's before the context, the context before the window).
  gpu::Unique<GLFWwindow*> window_;
  std::unique_ptr<gpu::Context> ctx_;
  gpu::Unique<VkSurfaceKHR> surface_;
  VkFormat format_ = VK_FORMAT_UNDEFINED;
  gpu::Unique<VkRenderPass> ui_pass_;
  std::unique_ptr<render::Swapchain> sc_;
  gpu::Unique<VkDescriptorPool> imgui_pool_;
  gpu::Unique<VkCommandPool> pool_;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;  // from pool_
  gpu::Unique<VkFence> fence_;
  gpu::Unique<VkSemaphore> acquired_;
  bool submitted_ = false;
  bool resized_ = false;
  bool vsync_ = true;
  bool imgui_ready_ = false;    // ImGui's context and GLFW side
  bool imgui_backend_ = false;  // ImGui's Vulkan side
  Settings settings_;
  float ui_scale_ = 0, pending_scale_ = 0;  // now, and asked for (applied between frames)
  std::string settings_message_;

  std::unique_ptr<gpu::Profiler> prof_;
  std::unique_ptr<History> history_;  // step back (grid labs)
  std::unique_ptr<render::LegendView> legend_;
  bool legend_on_ = true;  // the legend in the picture (View tab, --no-legend)
  std::unique_ptr<Lab> lab_;
  std::vector<Param> params_before_;  // restored when a rebuild fails
  std::string error_;                 // shown in the panel until dismissed

  std::vector<gpu::PassTiming> timings_;

  std::vector<gpu::PassSpan> spans_;  // the last frame's passes, for the timeline
  std::deque<float> gpu_ms_history_;
  double saxpy_gbps_ = 0;
  gpu::Peaks peaks_;  // the roofline's roofs: cached for this device, or measured from Timings
  int renderdoc_frames_ = 1;

  bool capture_requested_ = false, capture_recorded_ = false;
  std::filesystem::path capture_path_;
  std::unique_ptr<gpu::Buffer> capture_buffer_;
  VkExtent2D capture_extent_{};
  std::string last_capture_;
  std::string said_problem_;
  bool paused_ = false;           // the transport
  uint32_t step_requests_ = 0;    // S, Right, Step: single steps asked for since the last frame
  std::vector<int> key_presses_;  // GLFW keys pressed since the last frame, in order
  bool record_toggle_ = false;    // Record / Stop recording asked for
  bool capture_png_ = false;      // this frame's copy goes to a PNG (else only to the recorder)
  std::unique_ptr<render::Recorder> recorder_;
  VkRect2D record_area_{};  // the part of the window recorded (the picture, or all with the sidebar)
  bool record_sidebar_ = false;
  int record_fps_ = 30;
  std::string record_path_, record_message_;
  bool sidebar_ = true;     // Tab
  std::string select_tab_;  // the sidebar tab to bring forward next frame (--tab, F1: Help)
  std::string help_lab_;    // the lab help_page_ is for
  std::vector<HelpBlock> help_page_;
  std::string inspect_lab_, inspect_type_;  // the Inspect tab
  size_t inspect_item_ = 0;
  std::optional<Inspection> inspection_;
  uint64_t inspected_step_ = 0;
  bool inspect_now_ = false;                                             // key I: read back at the next Inspect tab
  float mouse_x_ = -1, mouse_y_ = -1;                                    // framebuffer pixels
  std::string preset_path_ = "presets/my-preset.json", preset_message_;  // the lab's last problem() written to stderr

  gpu::ContextOptions bench_context_;
  std::unique_ptr<BenchJob> job_;  // the bench or sweep running or last run
  bool job_collected_ = false;
  bool bench_quick_ = true;
  SweepSpec sweep_;
  std::map<std::string, size_t> expected_rows_;  // rows of the last full run, by lab (and "/quick")
  uint64_t bench_started_frame_ = 0;
  std::string bench_file_;
  uint64_t frame_count_ = 0;
  float panel_width_ = 420;
  float transport_width_ = 0;   // the transport bar's last width (said at exit)
  bool panel_resized_ = false;  // the sidebar takes panel_width_ next frame
};
