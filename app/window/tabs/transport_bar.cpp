#include "app/window/tabs/transport_bar.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace {

// The parameter that sets a lab's speed, where it has one.
Param* speed_param(ParamSet& set) {
  for (const char* name : {"steps_per_frame", "runs_per_frame", "positions_per_frame"})
    for (auto& p : set.all())
      if (p.name == name) return &p;
  return nullptr;
}

}  // namespace

void TransportBar::draw(Session& s, const VkRect2D& area, bool waiting, bool presenting) {
  float max_w = std::max(float(area.extent.width) - 16, 100.0f);
  ImGui::SetNextWindowPos({float(area.offset.x) + 8, 8});
  ImGui::SetNextWindowBgAlpha(0.85f);  // the status reads over any picture
  ImGui::SetNextWindowSizeConstraints({0, 0}, {max_w, float(area.extent.height)});
  ImGui::Begin("transport", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
  float right = ImGui::GetWindowPos().x + max_w - ImGui::GetStyle().WindowPadding.x;
  auto next = [&](float width) {  // beside the last item if `width` fits there
    float x = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x;
    if (x + width <= right) ImGui::SameLine();
  };
  auto button_w = [](const char* text) { return ImGui::CalcTextSize(text).x + 2 * ImGui::GetStyle().FramePadding.x; };
  if (ImGui::Button(s.transport.paused ? "Play" : "Pause")) s.transport.toggle();
  next(button_w("Step"));
  if (ImGui::Button("Step")) s.transport.step();
  next(button_w("Restart"));
  if (ImGui::Button("Restart")) s.transport.restart_asked = true;
  if (Param* speed = speed_param(s.lab().params())) {
    float w = ImGui::GetFontSize() * 8;
    next(w);
    ImGui::SetNextItemWidth(w);
    int v = int(speed->value);
    if (ImGui::SliderInt("##speed", &v, 1, std::min(int(speed->max), 64), "%d a frame"))
      s.lab().params().set_value(speed->name, v);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s (--set %s=N)", speed->help.c_str(), speed->name.c_str());
  }
  const char* present = presenting ? "Leave (P)" : "Present (P)";
  next(button_w(present));
  if (ImGui::Button(present)) present_clicked_ = true;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(presenting ? "back to the sidebar (P or Esc); F11: full screen"
                                 : "the picture alone, for a class: the bar comes back when the mouse moves; "
                                   "F11: full screen");
  float gpu_ms = s.gpu_ms_history().empty() ? 0.0f : s.gpu_ms_history().back();
  char status[160];
  const bool stopped = !waiting && !s.problem().empty();
  std::snprintf(status, sizeof status, "%s  step %llu  GPU %.2f ms a frame  (F1: help)",
                waiting              ? "waiting for the bench"
                : stopped            ? "stopped"
                : s.transport.paused ? "paused"
                                     : "running",
                (unsigned long long)s.lab().steps_done(), gpu_ms);
  next(ImGui::CalcTextSize(status).x);
  ImGui::PushTextWrapPos(right - ImGui::GetWindowPos().x);  // local to the bar
  // Full white (orange when stopped) on the bar's near-opaque box: readable over any picture.
  ImGui::TextColored(stopped ? ImVec4(1, 0.6f, 0.2f, 1) : ImVec4(0.95f, 0.95f, 0.95f, 1), "%s", status);
  ImGui::PopTextWrapPos();
  history_slider(s, right - ImGui::GetCursorScreenPos().x);
  width_ = ImGui::GetWindowWidth();
  ImGui::End();
}

// Step back: a slider over the snapshots kept (the grid labs), shown once there are two.
void TransportBar::history_slider(Session& s, float width) {
  History* history = s.history();
  size_t n = history ? history->size() : 0;
  if (n < 2) return;
  int at = int(history->cursor());
  char text[96];
  std::snprintf(text, sizeof text, "step %llu (%d of %zu kept)", (unsigned long long)history->step(size_t(at)), at + 1,
                n);
  ImGui::SetNextItemWidth(std::min(ImGui::GetFontSize() * 22, width));
  if (ImGui::SliderInt("##history", &at, 0, int(n) - 1, text)) {
    s.transport.paused = true;
    s.transport.go_back_asked = at;
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Scrub back through the last %zu frames (Left / Right keys); playing on from a past frame "
        "drops the ones after it. %.1f MiB a frame, %zu at most.",
        n, double(history->bytes_each()) / (1 << 20), history->capacity());
}
