#include "app/exercise/kernel_editor.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <map>

namespace {

// ImGui asks for a larger buffer as the text grows.
int grow(ImGuiInputTextCallbackData* d) {
  if (d->EventFlag == ImGuiInputTextFlags_CallbackResize) {
    auto* buffer = static_cast<std::vector<char>*>(d->UserData);
    buffer->resize(size_t(d->BufSize));
    d->Buf = buffer->data();
  }
  return 0;
}

}  // namespace

void KernelEditor::set_text(const std::string& text) {
  buffer_.assign(text.begin(), text.end());
  buffer_.push_back('\0');
  saved_ = text;
}

bool KernelEditor::draw(const std::vector<exercise::LineError>& errors, float height) {
  std::map<int, std::string> bad;  // line -> its messages
  for (auto& e : errors)
    if (e.line > 0) bad[e.line] += (bad[e.line].empty() ? "" : "\n") + e.text;
  const char* text = buffer_.data();
  int lines = 1 + int(std::count(text, text + std::strlen(text), '\n'));
  const ImGuiStyle& style = ImGui::GetStyle();
  float lh = ImGui::GetTextLineHeight();
  ImGui::BeginChild("kernel editor", {0, height}, true);
  ImVec2 origin = ImGui::GetCursorScreenPos();
  float gutter = ImGui::CalcTextSize("0000 ").x;
  ImGui::SetCursorScreenPos({origin.x + gutter, origin.y});
  float h = std::max(height - 2 * style.WindowPadding.y, float(lines + 1) * lh + 2 * style.FramePadding.y);
  ImGui::InputTextMultiline("##kernel", buffer_.data(), buffer_.size(), {-1.0f, h},
                            ImGuiInputTextFlags_AllowTabInput | ImGuiInputTextFlags_CallbackResize, grow, &buffer_);
  bool save = ImGui::IsItemActive() && ImGui::GetIO().KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_S, false);
  float right = ImGui::GetItemRectMax().x;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  ImVec2 mouse = ImGui::GetIO().MousePos;
  float top = ImGui::GetWindowPos().y, bottom = top + ImGui::GetWindowHeight();
  for (int k = 1; k <= lines; ++k) {
    float y = origin.y + style.FramePadding.y + float(k - 1) * lh;
    if (y + lh < top || y > bottom) continue;  // out of sight
    auto it = bad.find(k);
    char number[16];
    std::snprintf(number, sizeof number, "%4d", k);
    draw->AddText({origin.x, y}, it != bad.end() ? IM_COL32(255, 90, 90, 255) : IM_COL32(130, 130, 140, 255), number);
    if (it == bad.end()) continue;
    draw->AddRectFilled({origin.x + gutter, y}, {right, y + lh}, IM_COL32(255, 60, 60, 45));
    if (mouse.x >= origin.x && mouse.x < right && mouse.y >= y && mouse.y < y + lh && ImGui::IsWindowHovered())
      ImGui::SetTooltip("line %d: %s", k, it->second.c_str());
  }
  ImGui::EndChild();
  return save;
}
