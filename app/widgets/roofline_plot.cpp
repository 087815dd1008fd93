#include "app/widgets/roofline_plot.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace {

std::string power_text(double v) {
  char b[32];
  std::snprintf(b, sizeof b, v >= 1 ? "%.0f" : "1/%.0f", v >= 1 ? v : 1 / v);
  return b;
}

ImU32 pass_colour(size_t i) {
  static const ImU32 colours[] = {IM_COL32(255, 170, 60, 255),  IM_COL32(110, 200, 255, 255),
                                  IM_COL32(150, 230, 120, 255), IM_COL32(240, 110, 200, 255),
                                  IM_COL32(250, 230, 90, 255),  IM_COL32(180, 150, 255, 255)};
  return colours[i % (sizeof colours / sizeof colours[0])];
}

}  // namespace

// The roofline: the device's roofs over arithmetic intensity, each pass of the last frame as a
// point under them, and the passes that could not be placed (no flops or no bytes) listed below.
void roofline_plot(const gpu::Peaks& peaks, const std::vector<gpu::PassTiming>& passes) {
  if (!peaks.valid()) return;
  const double ridge = peaks.fp32_gflops / peaks.saxpy_gbps;  // flop/byte where the roofs meet
  double x0 = 1.0 / 64, x1 = std::max(64.0, ridge * 8);
  for (auto& p : passes)
    if (p.flops > 0 && p.bytes > 0) x0 = std::min(x0, p.flops / p.bytes / 2), x1 = std::max(x1, p.flops / p.bytes * 2);
  double y1 = peaks.fp32_gflops * 2, y0 = std::min(x0 * peaks.saxpy_gbps / 2, y1 / 1e4);
  for (auto& p : passes)
    if (p.flops > 0 && p.bytes > 0 && p.gflops() > 0) y0 = std::min(y0, p.gflops() / 2);
  const double lx0 = std::log10(x0), lx1 = std::log10(x1), ly0 = std::log10(y0), ly1 = std::log10(y1);

  ImGui::TextUnformatted("roofline: GFLOP/s against flop per byte (log-log)");
  float scale = ImGui::GetFontSize() / 15.0f, w = ImGui::GetContentRegionAvail().x, h = std::min(w * 0.7f, 260 * scale);
  ImVec2 origin = ImGui::GetCursorScreenPos();
  float left = ImGui::CalcTextSize("100000").x, bottom = ImGui::GetTextLineHeight() * 1.3f;
  ImVec2 a{origin.x + left, origin.y}, b{origin.x + w, origin.y + h - bottom};
  auto X = [&](double x) { return a.x + float((std::log10(x) - lx0) / (lx1 - lx0)) * (b.x - a.x); };
  auto Y = [&](double y) { return b.y - float((std::log10(y) - ly0) / (ly1 - ly0)) * (b.y - a.y); };
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImU32 axis = ImGui::GetColorU32(ImGuiCol_TextDisabled), grid = IM_COL32(255, 255, 255, 25);
  dl->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg));
  dl->PushClipRect(a, b, true);
  for (double t = std::pow(10.0, std::ceil(ly0)); t <= y1; t *= 10) dl->AddLine({a.x, Y(t)}, {b.x, Y(t)}, grid);
  for (double t = std::pow(4.0, std::ceil(std::log(x0) / std::log(4.0))); t <= x1; t *= 4)
    dl->AddLine({X(t), a.y}, {X(t), b.y}, grid);
  // The roofs: bandwidth up to the ridge, then the fp32 peak; the fp64 peak dashed.
  ImU32 roof = IM_COL32(230, 230, 230, 230);
  dl->AddLine({X(x0), Y(x0 * peaks.saxpy_gbps)}, {X(ridge), Y(peaks.fp32_gflops)}, roof, 2 * scale);
  dl->AddLine({X(ridge), Y(peaks.fp32_gflops)}, {X(x1), Y(peaks.fp32_gflops)}, roof, 2 * scale);
  if (peaks.fp64_gflops > 0)
    for (double x = std::max(x0, peaks.fp64_gflops / peaks.saxpy_gbps); x < x1; x *= 1.5)
      dl->AddLine({X(x), Y(peaks.fp64_gflops)}, {X(std::min(x * 1.2, x1)), Y(peaks.fp64_gflops)}, roof, scale);
  char label[96];
  std::snprintf(label, sizeof label, "fp32 %.0f GFLOP/s", peaks.fp32_gflops);
  dl->AddText({b.x - ImGui::CalcTextSize(label).x - 4 * scale, Y(peaks.fp32_gflops) - ImGui::GetTextLineHeight()}, roof,
              label);
  if (peaks.fp64_gflops > 0) {
    std::snprintf(label, sizeof label, "fp64 %.0f", peaks.fp64_gflops);
    dl->AddText({b.x - ImGui::CalcTextSize(label).x - 4 * scale, Y(peaks.fp64_gflops) + 2 * scale}, roof, label);
  }
  std::snprintf(label, sizeof label, "saxpy %.0f GB/s", peaks.saxpy_gbps);
  dl->AddText({X(x0) + 4 * scale, Y(x0 * peaks.saxpy_gbps) - 2 * ImGui::GetTextLineHeight()}, roof, label);
  // The passes, hovered one described.
  std::string off;
  ImVec2 mouse = ImGui::GetIO().MousePos;
  int plotted = 0;
  for (size_t i = 0; i < passes.size(); ++i) {
    auto& p = passes[i];
    if (!(p.flops > 0 && p.bytes > 0 && p.gflops() > 0)) {
      off += (off.empty() ? "" : ", ") + p.name;
      continue;
    }
    ImVec2 at{X(p.flops / p.bytes), Y(p.gflops())};
    dl->AddCircleFilled(at, 4 * scale, pass_colour(i));
    float line = ImGui::GetTextLineHeight();  // labels above and below in turn: close points stay readable
    dl->AddText({at.x + 5 * scale, at.y + (plotted++ % 2 ? 0.1f : -1.1f) * line}, pass_colour(i), p.name.c_str());
    if (std::hypot(mouse.x - at.x, mouse.y - at.y) < 6 * scale) {
      auto r = gpu::place(peaks, p.bytes, p.flops, p.ms);
      ImGui::SetTooltip("%s\n%.3g flop/byte, %.1f GFLOP/s, %.1f GB/s\n%s-bound: %.0f %% of its roof", p.name.c_str(),
                        r.intensity, p.gflops(), p.gbps(), r.bound.c_str(), r.percent);
    }
  }
  dl->PopClipRect();
  dl->AddRect(a, b, axis);
  // Axis labels on every grid line where they fit, else on every 2nd, 3rd... (always on 1), so
  // neighbours keep a gap (x: room for an end label pushed inside the plot); y labels right-aligned
  // to the plot, x labels centred under their line.
  const float line = ImGui::GetTextLineHeight(), gap = ImGui::CalcTextSize("  ").x;
  auto stride = [](float room, float pitch) { return std::max(1, int(std::ceil(room / std::max(pitch, 1.0f)))); };
  const int e_y0 = int(std::ceil(ly0 - 1e-9)), e_y1 = int(std::floor(ly1 + 1e-9));
  const int y_every = stride(1.2f * line, (b.y - a.y) / float(ly1 - ly0));
  for (int e = e_y0; e <= e_y1; ++e) {
    if (e % y_every != 0) continue;
    std::snprintf(label, sizeof label, "%g", std::pow(10.0, e));
    float tw = ImGui::CalcTextSize(label).x;
    float y = std::max(std::min(Y(std::pow(10.0, e)) - 0.5f * line, b.y - line), a.y - 0.3f * line);
    dl->AddText({std::max(origin.x, a.x - tw - 0.4f * gap), y}, axis, label);
  }
  const double l4 = std::log(4.0);
  const int e_x0 = int(std::ceil(std::log(x0) / l4 - 1e-9)), e_x1 = int(std::floor(std::log(x1) / l4 + 1e-9));
  float widest = 0;
  for (int e = e_x0; e <= e_x1; ++e)
    widest = std::max(widest, ImGui::CalcTextSize(power_text(std::pow(4.0, e)).c_str()).x);
  const int x_every = stride(1.5f * widest + gap, (b.x - a.x) * float(l4 / std::log(10.0) / (lx1 - lx0)));
  for (int e = e_x0; e <= e_x1; ++e) {
    if (e % x_every != 0) continue;
    auto s = power_text(std::pow(4.0, e));
    float tw = ImGui::CalcTextSize(s.c_str()).x;
    float x = std::max(std::min(X(std::pow(4.0, e)) - tw * 0.5f, b.x - tw), a.x - 0.5f * gap);
    dl->AddText({x, b.y + 3 * scale}, axis, s.c_str());
  }
  ImGui::Dummy({w, h});
  ImGui::TextDisabled("flop per byte (log); peaks measured %s", peaks.measured.c_str());
  if (!off.empty())
    ImGui::TextWrapped("not on the plot (no flops declared; the table gives their %% of the memory roof): %s",
                       off.c_str());
}
