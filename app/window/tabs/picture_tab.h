// The Picture tab: Capture PNG (key C), recording to an MP4 or a folder of PNGs (key V), both of
// the picture alone (the same pixels as a headless run of its size) or, for tutorials, of the
// whole window; and the window's look (UI scale, vsync, the legend). The window copies its
// swapchain image (the picture before the interface is drawn, or all of it) when this tab wants
// a frame and hands the pixels back.
#pragma once
#include "app/core/session.h"
#include "app/core/settings.h"
#include "render/recorder.h"

#include <memory>

// The window's look, shown and changed here and applied by the window between frames.
struct ViewState {
  float ui_scale = 1;       // now
  float pending_scale = 0;  // asked for (0: none)
  float monitor_scale = 1;  // as GLFW reports for the window's monitor
  bool vsync = true;
  bool vsync_changed = false;
  bool legend = true;  // the legend in the picture
  Settings settings;
  bool save = false;  // the settings changed: the window saves them
  std::string settings_message;
};

class PictureTab {
 public:
  PictureTab(int record_fps, bool with_interface) : with_interface_(with_interface), record_fps_(record_fps) {}
  void draw(Session& s, ViewState& view);

  void request_capture(const std::filesystem::path& path);
  void request_capture(const Session& s);  // into the captures folder (user_dirs.h), named by the lab and the time
  void toggle_recording() { toggle_ = true; }
  // Captures and recordings take the whole window, not the picture alone.
  bool with_interface() const { return with_interface_; }
  // Between frames: the recorder starts or stops as asked. `picture`: the lab's part of the
  // window; `window`: all of it.
  void between_frames(Session& s, const VkRect2D& picture, const VkExtent2D& window);
  void start_recording(Session& s, const std::filesystem::path& path, const VkRect2D& picture,
                       const VkExtent2D& window);
  void stop_recording(Session& s);
  // This frame's swapchain image is to be copied (a capture asked for, or recording).
  bool wants_frame() const { return capture_requested_ || recorder_; }
  // The copy is recorded into the frame's commands; the pixels arrive after its fence.
  void frame_copied(const VkExtent2D& extent);
  void take_frame(Session& s, const uint8_t* bgra);
  bool frame_pending() const { return copied_; }
  const std::string& last_capture() const { return last_capture_; }

 private:
  void record_controls();
  void view_controls(ViewState& view);
  bool capture_requested_ = false, capture_png_ = false, copied_ = false, toggle_ = false;
  std::filesystem::path capture_path_;
  std::string last_capture_;  // UTF-8, as shown
  VkExtent2D copy_extent_{};
  std::unique_ptr<render::Recorder> recorder_;
  bool with_interface_ = false;
  int record_fps_ = 30;
  std::string record_path_, record_message_;
};
