#include "app/window/tabs/picture_tab.h"

#include "compute/io/platform.h"
#include "compute/io/user_dirs.h"

#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <ctime>

void PictureTab::draw(Session& s, ViewState& view) {
  if (ImGui::Button("Capture PNG (C)")) request_capture(s);
  ImGui::SameLine();
  ImGui::Checkbox("with the interface", &with_interface_);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "captures and recordings: the whole window, sidebar and bar (tutorials); else the picture alone, "
        "as a headless run of its size draws it (slides)");
  if (!last_capture_.empty()) ImGui::TextWrapped("saved %s", last_capture_.c_str());
  record_controls();
  if (ImGui::CollapsingHeader("Display", ImGuiTreeNodeFlags_DefaultOpen)) view_controls(view);
}

void PictureTab::request_capture(const std::filesystem::path& path) {
  capture_requested_ = true;
  capture_path_ = path;
}

void PictureTab::request_capture(const Session& s) {
  request_capture(render::timestamped_capture_path(io::user_dir(io::UserDir::Captures), s.lab().name()));
}

void PictureTab::frame_copied(const VkExtent2D& extent) {
  capture_png_ = capture_requested_;
  capture_requested_ = false;
  copied_ = true;
  copy_extent_ = extent;
}

// The copied frame: to the recorder (the recorded area of it) and to a PNG when one was asked.
void PictureTab::take_frame(Session& s, const uint8_t* bgra) {
  if (!copied_) return;
  copied_ = false;
  try {
    auto rgba = render::bgra_to_rgba(bgra, copy_extent_.width, copy_extent_.height);
    if (recorder_) {
      // The picture changed size (the window resized, the sidebar or presentation mode toggled):
      // fitted into the video's size, the rest dark.
      uint32_t w = copy_extent_.width, h = copy_extent_.height, rw = recorder_->width(), rh = recorder_->height();
      bool same = w - rw <= 1 && h - rh <= 1 && w >= rw && h >= rh;  // H.264 drops an odd last row or column
      if (same)
        recorder_->add(rgba.data(), w, recorder_->video() ? "" : s.manifest());
      else
        recorder_->add(render::letterbox(rgba, w, h, rw, rh).data(), rw, recorder_->video() ? "" : s.manifest());
    }
    if (!capture_png_) return;
    render::write_png(capture_path_, copy_extent_.width, copy_extent_.height, rgba, s.manifest());
    last_capture_ = platform::utf8(std::filesystem::absolute(capture_path_));
    std::printf("captured %s\n", last_capture_.c_str());
  } catch (const std::exception& e) {
    s.error = e.what();
    recorder_.reset();
  }
}

void PictureTab::start_recording(Session& s, const std::filesystem::path& path, const VkRect2D& picture,
                                 const VkExtent2D& window) {
  VkExtent2D size = with_interface_ ? window : picture.extent;
  try {
    recorder_ = std::make_unique<render::Recorder>(path, size.width, size.height, record_fps_);
    record_path_ = platform::utf8(path);
    record_message_ = "recording " + record_path_ + (recorder_->video() ? " as " + recorder_->encoder() : "");
  } catch (const std::exception& e) {
    s.error = e.what();
  }
}

void PictureTab::stop_recording(Session& s) {
  if (!recorder_) return;
  try {
    recorder_->finish();
    record_message_ = "recorded " + record_path_ + ": " + std::to_string(recorder_->frames()) + " frames" +
                      (recorder_->video() ? ", " + recorder_->encoder() : "");
    std::printf("%s\n", record_message_.c_str());
  } catch (const std::exception& e) {
    s.error = e.what();
  }
  recorder_.reset();
}

// Record and Stop recording only ask (key V too): the recorder starts and stops between
// frames, never while the panel that shows it is being drawn.
void PictureTab::between_frames(Session& s, const VkRect2D& picture, const VkExtent2D& window) {
  if (!toggle_) return;
  toggle_ = false;
  if (recorder_) {
    stop_recording(s);
    return;
  }
  auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  const std::tm tm = platform::local_time(now);
  char name[96];
  std::strftime(name, sizeof name, "vklab-%Y%m%d-%H%M%S.mp4", &tm);
  start_recording(s, io::user_dir(io::UserDir::Recordings) / name, picture, window);
}

void PictureTab::record_controls() {
  if (recorder_) {
    if (ImGui::Button("Stop recording (V)")) toggle_ = true;
    ImGui::SameLine();
    ImGui::Text("%llu frames", (unsigned long long)recorder_->frames());
  } else {
    if (ImGui::Button("Record (V)")) toggle_ = true;
    ImGui::SameLine();
    ImGui::TextDisabled(with_interface_ ? "(the whole window)" : "(the picture alone)");
    ImGui::SetNextItemWidth(100);
    ImGui::SliderInt("frames a second", &record_fps_, 10, 60);
  }
  if (!record_message_.empty()) ImGui::TextWrapped("%s", record_message_.c_str());
}

void PictureTab::view_controls(ViewState& view) {
  ImGui::Text("UI scale: %.2f (%s)", view.ui_scale, view.settings.ui_scale == 0 ? "the monitor's" : "chosen");
  float s = view.pending_scale > 0 ? view.pending_scale : view.ui_scale;
  ImGui::SliderFloat("UI scale", &s, 0.75f, 3.0f, "%.2f");
  if (ImGui::IsItemDeactivatedAfterEdit()) {  // re-rasterised when the slider is let go
    view.settings.ui_scale = view.pending_scale = s;
    view.save = true;
  }
  if (ImGui::Button("Use the monitor's scale")) {
    view.settings.ui_scale = 0;
    view.pending_scale = view.monitor_scale;
    view.save = true;
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%.2f, as GLFW reports for this monitor", view.monitor_scale);
  if (ImGui::Checkbox("vsync", &view.vsync)) view.vsync_changed = true;
  if (ImGui::Checkbox("legend in the picture", &view.legend)) {
    view.settings.legend = view.legend;
    view.save = true;
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the lab, its step and key values, the colour bar; captures carry it");
  ImGui::TextDisabled("saved in %s", platform::utf8(settings_path()).c_str());
  if (!view.settings_message.empty()) ImGui::TextWrapped("%s", view.settings_message.c_str());
}
