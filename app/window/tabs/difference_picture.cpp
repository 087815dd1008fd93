#include "app/window/tabs/difference_picture.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace {

constexpr uint32_t kMaxCells = 128;  // a side; larger arrays are shown a block of elements a cell

ImU32 colour(float badness) {
  if (badness <= 0) return IM_COL32(25, 70, 40, 255);  // equal: a dark green
  if (badness <= 1) {                                  // within the tolerance: green, brighter as it nears it
    int g = 90 + int(150 * badness);
    return IM_COL32(30, g, 60, 255);
  }
  int r = 170 + int(85 * std::min(1.0f, std::log10(badness) / 3));  // outside: red, brighter as it grows
  return IM_COL32(r, 40, 40, 255);
}

}  // namespace

void draw_difference_picture(const exercise::ArrayCheck& a, float max_width, float max_height) {
  if (a.picture.empty()) return;
  uint32_t w = std::max(1u, a.width), h = uint32_t((a.picture.size() + w - 1) / w);
  uint32_t block = std::max({1u, (w + kMaxCells - 1) / kMaxCells, (h + kMaxCells - 1) / kMaxCells});
  uint32_t cw = (w + block - 1) / block, ch = (h + block - 1) / block;
  float cell = std::max(1.0f, std::min(max_width / float(cw), max_height / float(ch)));
  ImVec2 at = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (uint32_t y = 0; y < ch; ++y)
    for (uint32_t x = 0; x < cw; ++x) {
      float worst = 0;
      for (uint32_t by = y * block; by < std::min(h, (y + 1) * block); ++by)
        for (uint32_t bx = x * block; bx < std::min(w, (x + 1) * block); ++bx) {
          size_t i = size_t(by) * w + bx;
          if (i < a.picture.size()) worst = std::max(worst, a.picture[i]);
        }
      ImVec2 p0{at.x + float(x) * cell, at.y + float(y) * cell};
      draw->AddRectFilled(p0, {p0.x + cell, p0.y + cell}, colour(worst));
    }
  ImGui::InvisibleButton("difference picture", {float(cw) * cell, float(ch) * cell});
  if (ImGui::IsItemHovered()) {
    ImVec2 m = ImGui::GetIO().MousePos;
    uint32_t x = uint32_t((m.x - at.x) / cell) * block, y = uint32_t((m.y - at.y) / cell) * block;
    size_t i = size_t(y) * w + x;
    if (x < w && i < a.picture.size()) {
      float b = a.picture[i];
      ImGui::SetTooltip("%s[%zu] (%u, %u)%s: %s", a.name.c_str(), i, x, y, block > 1 ? ", a block's first" : "",
                        b <= 0   ? "equal to the CPU twin"
                        : b <= 1 ? "within the tolerance"
                                 : "outside the tolerance");
    }
  }
  ImGui::TextDisabled(
      "%u x %u elements%s: dark equal, green within the tolerance, red outside", w, h,
      block > 1 ? (", " + std::to_string(block) + " x " + std::to_string(block) + " a cell").c_str() : "");
}
