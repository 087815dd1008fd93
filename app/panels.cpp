// The window's ImGui panels: lab selector and parameters, timings, capture, bench; and what
// their buttons do to the lab (rebuild with the new parameters, switch labs).
#include "app/figures.h"
#include "app/file_browser.h"
#include "app/modes.h"
#include "app/roofline_plot.h"
#include "app/settings.h"
#include "app/timeline.h"
#include "app/warning_text.h"
#include "app/window.h"
#include "compute/gpu/bandwidth.h"

#include "app/plot.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

namespace {

// One widget a parameter; returns true when the user changed it.
// Long: one widget per parameter kind, a branch each.
bool param_widget(ParamSet& set, Param& p) {
  bool changed = false;
  ImGui::PushID(p.name.c_str());
  const std::string shown = param_label(p);
  const char* label = shown.c_str();
  switch (p.kind) {
    case Param::Kind::Float: {
      float v = float(p.value);
      ImGuiSliderFlags flags = p.log_scale ? ImGuiSliderFlags_Logarithmic : 0;
      changed = ImGui::SliderFloat(label, &v, float(p.min), float(p.max), "%.4g", flags);
      if (changed) set.set_value(p.name, v);
      break;
    }
    case Param::Kind::Int: {
      int v = int(p.value);
      ImGuiSliderFlags flags = p.max / std::max(1.0, p.min) > 100 ? ImGuiSliderFlags_Logarithmic : 0;
      // Rebuilding parameters apply when the slider is released, not at every pixel of a drag.
      ImGui::SliderInt(label, &v, int(p.min), int(p.max), "%d", flags);
      if (v != int(p.value) && (!p.rebuild || !ImGui::IsItemActive())) {
        set.set_value(p.name, v);
        changed = true;
      } else if (v != int(p.value)) {
        p.value = v;  // shown while dragging; applied on release
        set.rebuild_pending = false;
      }
      if (p.rebuild && ImGui::IsItemDeactivatedAfterEdit()) set.rebuild_pending = true;
      break;
    }
    case Param::Kind::Choice: {
      int v = int(p.value);
      if (ImGui::BeginCombo(label, p.choices[size_t(v)].c_str())) {
        for (size_t i = 0; i < p.choices.size(); ++i)
          if (ImGui::Selectable(p.choices[i].c_str(), int(i) == v)) {
            set.set_value(p.name, double(i));
            changed = true;
          }
        ImGui::EndCombo();
      }
      break;
    }
    case Param::Kind::Text: {  // applied on Enter; a file also from the chooser
      char buf[512];
      std::snprintf(buf, sizeof buf, "%s", p.str.c_str());
      if (!p.file_types.empty()) ImGui::SetNextItemWidth(ImGui::CalcItemWidth() - ImGui::GetFrameHeight() * 1.6f);
      if (ImGui::InputText(p.file_types.empty() ? label : "##path", buf, sizeof buf,
                           ImGuiInputTextFlags_EnterReturnsTrue)) {
        set.set_text(p.name, buf);
        changed = true;
      }
      if (!p.file_types.empty()) {
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n--set %s=...", p.help.c_str(), p.name.c_str());
        ImGui::SameLine(0, 2);
        if (ImGui::Button("...")) open_file_browser("choose a file", p.str);
        std::string chosen;
        if (file_browser("choose a file", p.file_types, chosen)) {
          set.set_text(p.name, chosen);
          changed = true;
        }
        ImGui::SameLine();
        ImGui::TextUnformatted(label);
      }
      break;
    }
    case Param::Kind::Bool: {
      bool v = p.value != 0;
      if (ImGui::Checkbox(label, &v)) {
        set.set_value(p.name, v ? 1 : 0);
        changed = true;
      }
      break;
    }
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n--set %s=%s", p.help.c_str(), p.name.c_str(), p.text().c_str());
  ImGui::PopID();
  return changed;
}

}  // namespace

void Window::panels() {
  transport_bar();
  if (!sidebar_) return;
  // A sidebar the height of the window; its width (drag the right edge) is left to the lab.
  ImGui::SetNextWindowPos({0, 0});
  float h = ImGui::GetIO().DisplaySize.y;
  // At most half the window, at any UI scale: the picture always keeps the other half.
  float half = std::floor(ImGui::GetIO().DisplaySize.x / 2);
  ImGui::SetNextWindowSizeConstraints({std::min(260 * ui_scale_, half), h}, {std::min(900 * ui_scale_, half), h});
  ImGui::SetNextWindowSize({sidebar_width(), h}, panel_resized_ ? ImGuiCond_Always : ImGuiCond_FirstUseEver);
  panel_resized_ = false;
  ImGui::Begin("vklab", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoTitleBar);
  if (ImGui::GetWindowWidth() != sidebar_width()) panel_width_ = ImGui::GetWindowWidth();  // dragged
  ImGui::TextDisabled("%s | %s", ctx_->info.name.c_str(), ctx_->info.type.c_str());
  if (!error_.empty()) {
    warning_text({1, 0.35f, 0.35f, 1}, "%s", error_.c_str());
    if (ImGui::SmallButton("dismiss")) error_.clear();
  }
  if (ImGui::BeginTabBar("sidebar")) {
    auto tab = [&](const char* name, auto&& body) {
      bool chosen = select_tab_ == name;  // --tab, F1
      if (ImGui::BeginTabItem(name, nullptr, chosen ? ImGuiTabItemFlags_SetSelected : 0)) {
        ImGui::BeginChild(name);  // scrolls under the tab bar, which stays
        body();
        ImGui::EndChild();
        ImGui::EndTabItem();
      }
    };
    tab("Lab", [&] {
      lab_panel();
      if (ImGui::CollapsingHeader("Presets")) presets_panel();
    });
    tab("Timings", [&] { timings_panel(); });
    tab("Picture", [&] {
      capture_panel();
      if (ImGui::CollapsingHeader("Display", ImGuiTreeNodeFlags_DefaultOpen)) view_panel();
    });
    tab("Bench", [&] {
      bench_panel();
      if (ImGui::CollapsingHeader("Sweep a parameter", ImGuiTreeNodeFlags_DefaultOpen)) sweep_panel();
    });
    tab("Inspect", [&] { inspect_panel(); });
    tab("Help", [&] { help_panel(); });
    ImGui::EndTabBar();
    select_tab_.clear();
  }
  ImGui::End();
}

void Window::lab_panel() {
  if (ImGui::BeginCombo("lab", lab_->name().c_str())) {
    for (auto& n : lab_names())
      if (ImGui::Selectable(n.c_str(), n == lab_->name())) switch_lab(n);
    ImGui::EndCombo();
  }
  ImGui::TextWrapped("%s", lab_->title().c_str());
  if (params_before_.empty()) params_before_ = lab_->params().all();
  // One collapsing header a topic, in the order the lab first names them; sliders leave
  // 45% of the width to their labels.
  std::vector<std::string> groups;
  for (auto& p : lab_->params().all())
    if (std::find(groups.begin(), groups.end(), p.group) == groups.end()) groups.push_back(p.group);
  ImGui::PushItemWidth(ImGui::GetContentRegionAvail().x * 0.55f);
  for (auto& g : groups)
    if (ImGui::CollapsingHeader(g.c_str(), ImGuiTreeNodeFlags_DefaultOpen))
      for (auto& p : lab_->params().all())
        if (p.group == g) param_widget(lab_->params(), p);
  ImGui::PopItemWidth();
  if (ImGui::Button("Restart")) restart_lab();
  lab_->ui();
}

// GPU memory by owner (gpu::Allocator::Owner: the lab's name, "other" for the window's own).
void Window::memory_line() {
  auto st = ctx_->allocator().stats();
  std::string by;
  for (auto& [name, bytes] : ctx_->allocator().owners()) {
    char b[64];
    std::snprintf(b, sizeof b, "%s%s %.1f MiB", by.empty() ? "" : ", ", name.c_str(), double(bytes) / (1 << 20));
    by += b;
  }
  ImGui::TextWrapped("GPU memory: %.1f MiB in %u buffers and images (%s), %u allocations, %.0f MiB reserved",
                     double(st.used) / (1 << 20), st.resources, by.c_str(), st.allocations,
                     double(st.reserved) / (1 << 20));
}

void Window::timings_panel() {
  ImGuiIO& io = ImGui::GetIO();
  ImGui::Text("%.1f FPS (%.2f ms a frame)", io.Framerate, 1000.0f / std::max(io.Framerate, 1e-3f));
  if (!prof_->supported()) {
    warning_text({1, 0.7f, 0.2f, 1}, "%s", prof_->unsupported_reason());
    return;
  }
  memory_line();
  const bool roofs = peaks_.valid();
  // With the roofs known, "% roof" says what "% bw" would for a memory-bound pass.
  if (ImGui::BeginTable("passes",
                        roofs             ? 7
                        : saxpy_gbps_ > 0 ? 6
                                          : 5,
                        ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("pass");
    ImGui::TableSetupColumn("n");
    ImGui::TableSetupColumn("ms");
    ImGui::TableSetupColumn("GB/s");
    ImGui::TableSetupColumn("GFLOP/s");
    if (saxpy_gbps_ > 0 && !roofs) ImGui::TableSetupColumn("% bw");
    if (roofs) ImGui::TableSetupColumn("flop/B");
    if (roofs) ImGui::TableSetupColumn("% roof");
    ImGui::TableHeadersRow();
    for (auto& t : timings_) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(t.name.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%u", t.count);
      ImGui::TableNextColumn();
      ImGui::Text("%.3f", t.ms);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(figure(t.gbps(), "%.1f").c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(figure(t.gflops(), "%.1f").c_str());
      if (saxpy_gbps_ > 0 && !roofs) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(figure(100.0 * t.gbps() / saxpy_gbps_, "%.0f%%").c_str());
      }
      if (roofs) {  // the pass under the roofline: its intensity, the roof that limits it, how close
        auto at = gpu::place(peaks_, t.bytes, t.flops, t.ms);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(figure(at.intensity, "%.3g").c_str());
        ImGui::TableNextColumn();
        if (at.bound.empty())
          ImGui::TextUnformatted("—");
        else
          ImGui::Text("%s %.0f%%", at.bound == "memory" ? "mem" : at.bound.c_str(), at.percent);
      }
    }
    ImGui::EndTable();
  }
  frame_timeline(spans_);
  roofline_plot(peaks_, timings_);
  plot({"gpu-ms-a-frame", "frames (the last 240)", "GPU ms a frame (all passes)", false, 90}, {},
       std::vector<double>(gpu_ms_history_.begin(), gpu_ms_history_.end()));
  // The roofs, measured by a job beside the frame loop (seconds) and cached per device and driver.
  ImGui::BeginDisabled(bench_running());
  if (ImGui::Button(peaks_.valid() ? "Measure device peaks again" : "Measure device peaks")) start_bench(false, true);
  ImGui::EndDisabled();
  if (job_ && job_->is_peaks() && bench_running()) {
    ImGui::SameLine();
    ImGui::TextDisabled("measuring (%.0f s)...", job_->seconds());
  }
  if (peaks_.valid())
    ImGui::TextWrapped("roofs: fp32 %.0f GFLOP/s, fp64 %.0f GFLOP/s, saxpy %.0f GB/s, copy %.0f GB/s",
                       peaks_.fp32_gflops, peaks_.fp64_gflops, peaks_.saxpy_gbps, peaks_.copy_gbps);
  renderdoc_line();
}

// Brackets the next frames (compute passes, picture and UI) as one RenderDoc capture each.
void Window::renderdoc_line() {
  auto& requests = ctx_->renderdoc;
  if (ImGui::Button("Capture in RenderDoc")) requests.pending = renderdoc_frames_;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  if (ImGui::InputInt("frames##renderdoc", &renderdoc_frames_))
    renderdoc_frames_ = std::clamp(renderdoc_frames_, 1, 60);
  if (!gpu::RenderDoc::get().attached())
    ImGui::TextDisabled("RenderDoc is not attached: start vklab from RenderDoc to capture (README)");
  else if (!requests.last_path.empty() && ImGui::Button("Open in RenderDoc"))
    gpu::RenderDoc::get().open_replay_ui();
  if (!requests.last_message.empty()) ImGui::TextWrapped("%s", requests.last_message.c_str());
}

void Window::capture_panel() {
  if (ImGui::Button("Capture PNG")) {
    capture_requested_ = true;
    capture_path_ = render::timestamped_capture_path("captures", lab_->name());
  }
  if (!last_capture_.empty()) ImGui::TextWrapped("saved %s", last_capture_.c_str());
  record_panel();
}

// Builds a lab with its GPU memory counted under its name (the Timings tab's memory line).
void Window::build_lab(Lab& lab) {
  gpu::Allocator::Owner owner(ctx_->allocator(), lab.name());
  lab.build(*ctx_);
}

void Window::apply_rebuild() {
  vkDeviceWaitIdle(ctx_->device);
  try {
    build_lab(*lab_);
    params_before_ = lab_->params().all();
    history_->clear();
  } catch (const std::exception& e) {
    // Keep the running state: the lab is unchanged, its parameters go back.
    error_ = std::string("could not apply the change: ") + e.what();
    if (!params_before_.empty()) lab_->params().all() = params_before_;
    lab_->params().rebuild_pending = false;
  }
}

void Window::switch_lab(const std::string& name) {
  if (name == lab_->name()) return;
  vkDeviceWaitIdle(ctx_->device);
  try {
    auto lab = make_lab(name);
    build_lab(*lab);
    lab_ = std::move(lab);
    history_->clear();
    paused_ = false, step_requests_ = 0;  // a lab opens running, whatever the last one was doing
    said_problem_.clear();
    params_before_ = lab_->params().all();
    timings_.clear();
    gpu_ms_history_.clear();
  } catch (const std::exception& e) {
    error_ = "could not start lab '" + name + "': " + e.what();
  }
}
