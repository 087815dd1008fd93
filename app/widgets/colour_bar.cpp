#include "app/widgets/colour_bar.h"

#include "render/colormap.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

void colour_bar(const std::string& colormap, float lo, float hi) {
  const auto lut = render::colormap_table(colormap);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImVec2 p = ImGui::GetCursorScreenPos();
  float w = ImGui::GetContentRegionAvail().x, h = ImGui::GetTextLineHeight();
  auto c = [&](int j) {
    const auto& rgb = lut[size_t(std::min(255, j * 255 / 32))];
    return ImGui::ColorConvertFloat4ToU32({rgb[0], rgb[1], rgb[2], 1});
  };
  for (int i = 0; i < 32; ++i) {
    float x0 = p.x + w * float(i) / 32, x1 = p.x + w * float(i + 1) / 32;
    dl->AddRectFilledMultiColor({x0, p.y}, {x1, p.y + h}, c(i), c(i + 1), c(i + 1), c(i));
  }
  ImGui::Dummy({w, h});
  ImGui::Text("%-.5g", lo);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.5g", hi);
  ImGui::SameLine(std::max(0.0f, w - ImGui::CalcTextSize(buf).x));
  ImGui::TextUnformatted(buf);
}
