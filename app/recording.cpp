// The window's recording: every frame's swapchain copy (the picture alone, or the whole
// window with the sidebar) fed to render::Recorder, an H.264 MP4 or a folder of PNGs.
#include "app/modes.h"
#include "app/window.h"

#include <imgui.h>

#include <chrono>
#include <ctime>

void Window::start_recording(const std::string& path) {
  auto extent = sc_->extent();
  record_area_ = record_sidebar_ ? VkRect2D{{0, 0}, extent} : lab_frame(0).area;
  try {
    recorder_ =
        std::make_unique<render::Recorder>(path, record_area_.extent.width, record_area_.extent.height, record_fps_);
    record_path_ = path;
    record_message_ = "recording " + path;
  } catch (const std::exception& e) {
    error_ = e.what();
  }
}

void Window::record_frame(const std::vector<uint8_t>& rgba) {
  const auto& a = record_area_;
  if (a.offset.x + a.extent.width > capture_extent_.width || a.offset.y + a.extent.height > capture_extent_.height) {
    error_ = "the window shrank below the recorded area: recording stopped";
    stop_recording();
    return;
  }
  try {
    const uint8_t* first = rgba.data() + (size_t(a.offset.y) * capture_extent_.width + size_t(a.offset.x)) * 4;
    recorder_->add(first, capture_extent_.width, recorder_->video() ? "" : capture_manifest(*lab_, *ctx_));
  } catch (const std::exception& e) {
    error_ = e.what();
    recorder_.reset();
  }
}

void Window::stop_recording() {
  if (!recorder_) return;
  try {
    recorder_->finish();
    record_message_ = "recorded " + record_path_ + ": " + std::to_string(recorder_->frames()) + " frames";
    std::printf("%s\n", record_message_.c_str());
  } catch (const std::exception& e) {
    error_ = e.what();
  }
  recorder_.reset();
}

// Record and Stop recording only ask (key V too): the recorder starts and stops between
// frames (toggle_recording), never while the panel that shows it is being drawn.
void Window::toggle_recording() {
  record_toggle_ = false;
  if (recorder_) {
    stop_recording();
    return;
  }
  auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  localtime_r(&now, &tm);
  char name[96];
  std::strftime(name, sizeof name, "recordings/vklab-%Y%m%d-%H%M%S.mp4", &tm);
  start_recording(name);
}

void Window::record_panel() {
  if (recorder_) {
    if (ImGui::Button("Stop recording (V)")) record_toggle_ = true;
    ImGui::SameLine();
    ImGui::Text("%llu frames", (unsigned long long)recorder_->frames());
  } else {
    if (ImGui::Button("Record (V)")) record_toggle_ = true;
    ImGui::SameLine();
    ImGui::Checkbox("with the sidebar", &record_sidebar_);
    ImGui::SetNextItemWidth(100);
    ImGui::SliderInt("frames a second", &record_fps_, 10, 60);
  }
  if (!record_message_.empty()) ImGui::TextWrapped("%s", record_message_.c_str());
}
