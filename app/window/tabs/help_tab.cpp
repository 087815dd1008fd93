#include "app/window/tabs/help_tab.h"

#include "app/core/keys.h"

#include <imgui.h>

void HelpTab::draw(Session& s) {
  if (lab_ != s.lab().name()) {
    if (!lab_.empty()) scroll_[lab_] = ImGui::GetScrollY();
    lab_ = s.lab().name();
    page_ = parse_help(lab_help_text(lab_));
    lesson_.clear(), lesson_error_.clear();
    try {
      lesson_ = lesson_steps(lab_, page_);
    } catch (const std::exception& e) {
      lesson_error_ = e.what();
    }
    restore_ = true;
  }
  if (restore_) {  // where the page was left, or its lesson the first time
    restore_ = false;
    if (auto it = scroll_.find(lab_); it != scroll_.end()) {
      ImGui::SetScrollY(it->second);
    } else {
      for (size_t i = 0; i < page_.size(); ++i)
        if (page_[i].kind == HelpBlock::Kind::Section && page_[i].text == "Try") view_.scroll_to = int(i);
    }
  }
  if (page_.empty()) ImGui::TextWrapped("No help page for this lab (assets/%s/help.md).", lab_.c_str());
  contents();
  if (!lesson_error_.empty())
    ImGui::TextColored({1, 0.5f, 0.3f, 1}, "The lesson cannot run: %s", lesson_error_.c_str());
  view_.lesson = &lesson_;
  view_.last_run = last_run_.count(lab_) ? last_run_[lab_] : -1;
  HelpAction action = draw_help(page_, &view_);
  if (!action.load.empty()) try {
      s.load_preset(find_preset(action.load));
    } catch (const std::exception& e) {
      s.error = e.what();
    }
  if (action.run >= 0) {
    s.load_preset(lesson_[size_t(action.run)].setup);
    last_run_[lab_] = action.run;
  }
  ImGui::Spacing();
  ImGui::TextColored({0.55f, 0.8f, 1.0f, 1}, "Keys");
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_SizingStretchProp)) {
    for (auto& k : window_keys()) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(k.keys.c_str());
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%s", k.what.c_str());
    }
    ImGui::EndTable();
  }
  scroll_[lab_] = ImGui::GetScrollY();
}

// The page's sections as buttons that bring each to the top, wrapped to the tab's width.
void HelpTab::contents() {
  ImGui::TextDisabled("Contents:");
  float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  for (size_t i = 0; i < page_.size(); ++i) {
    if (page_[i].kind != HelpBlock::Kind::Section) continue;
    std::string label = page_[i].text == "Try" && !lesson_.empty() ? "Try (the lesson)" : page_[i].text;
    float w = ImGui::CalcTextSize(label.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x;
    if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w <= right) ImGui::SameLine();
    ImGui::PushID(int(i));
    if (ImGui::SmallButton(label.c_str())) view_.scroll_to = int(i);
    ImGui::PopID();
  }
  ImGui::Separator();
}
