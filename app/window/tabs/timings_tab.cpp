#include "app/window/tabs/timings_tab.h"

#include "app/core/figures.h"
#include "app/widgets/plot.h"
#include "app/widgets/roofline_plot.h"
#include "app/widgets/timeline.h"
#include "app/widgets/warning_text.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace {

// GPU memory by owner (gpu::Allocator::Owner: the lab's name, "other" for the window's own).
void memory_line(gpu::Context& ctx) {
  auto st = ctx.allocator().stats();
  std::string by;
  for (auto& [name, bytes] : ctx.allocator().owners()) {
    char b[64];
    std::snprintf(b, sizeof b, "%s%s %.1f MiB", by.empty() ? "" : ", ", name.c_str(), double(bytes) / (1 << 20));
    by += b;
  }
  ImGui::TextWrapped("GPU memory: %.1f MiB in %u buffers and images (%s), %u allocations, %.0f MiB reserved",
                     double(st.used) / (1 << 20), st.resources, by.c_str(), st.allocations,
                     double(st.reserved) / (1 << 20));
}

}  // namespace

void TimingsTab::draw(Session& s, BenchRunner& bench) {
  ImGuiIO& io = ImGui::GetIO();
  ImGui::Text("%.1f FPS (%.2f ms a frame)", io.Framerate, 1000.0f / std::max(io.Framerate, 1e-3f));
  if (!s.profiler().supported()) {
    warning_text({1, 0.7f, 0.2f, 1}, "%s", s.profiler().unsupported_reason());
    return;
  }
  memory_line(s.ctx());
  passes(s);
  if (auto note = s.lab().timings_note(); !note.empty()) ImGui::TextWrapped("%s", note.c_str());
  frame_timeline(s.spans());
  roofline_plot(s.peaks, s.timings());
  plot({"gpu-ms-a-frame", "frames (the last 240)", "GPU ms a frame (all passes)", false, 90}, {},
       std::vector<double>(s.gpu_ms_history().begin(), s.gpu_ms_history().end()));
  // The roofs, measured by a job beside the frame loop (seconds) and cached per device and driver.
  ImGui::BeginDisabled(bench.running());
  if (ImGui::Button(s.peaks.valid() ? "Measure device peaks again" : "Measure device peaks")) bench.start_peaks(s);
  ImGui::EndDisabled();
  if (bench.job() && bench.job()->is_peaks() && bench.running()) {
    ImGui::SameLine();
    ImGui::TextDisabled("measuring (%.0f s)...", bench.job()->elapsed_s());
  }
  if (s.peaks.valid())
    ImGui::TextWrapped("roofs: fp32 %.0f GFLOP/s, fp64 %.0f GFLOP/s, saxpy %.0f GB/s, copy %.0f GB/s",
                       s.peaks.fp32_gflops, s.peaks.fp64_gflops, s.peaks.saxpy_gbps, s.peaks.copy_gbps);
  occupancy_.draw(s);
  renderdoc(s);
}

// With the roofs known, "% roof" says what "% bw" would for a memory-bound pass.
void TimingsTab::passes(const Session& s) {
  const gpu::Peaks& peaks = s.peaks;
  const bool roofs = peaks.valid();
  const double saxpy = peaks.saxpy_gbps;
  if (!ImGui::BeginTable("passes",
                         roofs       ? 7
                         : saxpy > 0 ? 6
                                     : 5,
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit))
    return;
  for (const char* h : {"pass", "n", "ms", "GB/s", "GFLOP/s"}) ImGui::TableSetupColumn(h);
  if (saxpy > 0 && !roofs) ImGui::TableSetupColumn("% bw");
  if (roofs) ImGui::TableSetupColumn("flop/B"), ImGui::TableSetupColumn("% roof");
  ImGui::TableHeadersRow();
  for (auto& t : s.timings()) {
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
    if (saxpy > 0 && !roofs) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(figure(100.0 * t.gbps() / saxpy, "%.0f%%").c_str());
    }
    if (roofs) {  // the pass under the roofline: its intensity, the roof that limits it, how close
      auto at = gpu::place(peaks, t.bytes, t.flops, t.ms);
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

// Brackets the next frames (compute passes, picture and UI) as one RenderDoc capture each.
void TimingsTab::renderdoc(Session& s) {
  auto& requests = s.ctx().renderdoc;
  if (ImGui::Button("Capture in RenderDoc")) requests.pending = renderdoc_frames_;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  if (ImGui::InputInt("frames##renderdoc", &renderdoc_frames_))
    renderdoc_frames_ = std::clamp(renderdoc_frames_, 1, 60);
  if (!gpu::RenderDoc::get().attached())
    warning_text(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled),
                 "RenderDoc is not attached: start vklab from RenderDoc to capture (README)");
  else if (!requests.last_path.empty() && ImGui::Button("Open in RenderDoc"))
    gpu::RenderDoc::get().open_replay_ui();
  if (!requests.last_message.empty()) ImGui::TextWrapped("%s", requests.last_message.c_str());
}
