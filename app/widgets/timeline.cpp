// The Timings tab's frame timeline: the last frame's passes on the GPU's timeline, one track
// (vklab records every pass on one queue), a bar per pass from its start to its end timestamp,
// named where the name fits, its times on hover; gaps between bars are barriers and idle time.
#include "app/widgets/timeline.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <functional>

void frame_timeline(const std::vector<gpu::PassSpan>& spans) {
  if (spans.empty()) return;
  double total = 0;
  for (auto& s : spans) total = std::max(total, s.end_ms);
  if (total <= 0) return;
  ImGui::TextWrapped("The last frame on the GPU: %.3f ms, pass by pass (hover a bar)", total);
  const ImU32 palette[] = {IM_COL32(70, 130, 180, 255), IM_COL32(205, 120, 60, 255), IM_COL32(90, 160, 90, 255),
                           IM_COL32(170, 90, 160, 255), IM_COL32(180, 160, 60, 255), IM_COL32(80, 160, 170, 255)};
  ImVec2 p = ImGui::GetCursorScreenPos();
  float w = std::max(40.0f, ImGui::GetContentRegionAvail().x), h = 2.2f * ImGui::GetTextLineHeight();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, {p.x + w, p.y + h}, IM_COL32(28, 28, 34, 255));
  ImVec2 mouse = ImGui::GetIO().MousePos;
  for (auto& s : spans) {
    float x0 = p.x + w * float(s.start_ms / total), x1 = std::max(x0 + 1.0f, p.x + w * float(s.end_ms / total));
    ImU32 colour = palette[std::hash<std::string>{}(s.name) % std::size(palette)];
    dl->AddRectFilled({x0, p.y + 2}, {x1, p.y + h - 2}, colour);
    ImVec2 text = ImGui::CalcTextSize(s.name.c_str());
    if (text.x + 6 < x1 - x0)
      dl->AddText({x0 + 3, p.y + 0.5f * (h - text.y)}, IM_COL32(240, 240, 240, 255), s.name.c_str());
    if (ImGui::IsWindowHovered() && mouse.x >= x0 && mouse.x < x1 && mouse.y >= p.y && mouse.y < p.y + h)
      ImGui::SetTooltip("%s: %.4f to %.4f ms (%.4f ms)", s.name.c_str(), s.start_ms, s.end_ms, s.end_ms - s.start_ms);
  }
  ImGui::Dummy({w, h});
  char end[32];
  std::snprintf(end, sizeof end, "%.3f ms", total);
  ImGui::TextDisabled("0 ms");
  ImGui::SameLine(std::max(0.0f, w - ImGui::CalcTextSize(end).x));
  ImGui::TextDisabled("%s", end);
}
