#include "app/tabs/help_tab.h"

#include "app/keys.h"

#include <imgui.h>

void HelpTab::draw(Session& s) {
  if (lab_ != s.lab().name()) {
    lab_ = s.lab().name();
    page_ = parse_help(lab_help_text(lab_));
  }
  if (page_.empty()) ImGui::TextWrapped("No help page for this lab (assets/%s/help.md).", lab_.c_str());
  std::string load = draw_help(page_);
  if (!load.empty()) try {
      s.load_preset(find_preset(load));
    } catch (const std::exception& e) {
      s.error = e.what();
    }
  ImGui::Spacing();
  ImGui::TextColored({0.55f, 0.8f, 1.0f, 1}, "Keys");
  if (!ImGui::BeginTable("keys", 2, ImGuiTableFlags_SizingStretchProp)) return;
  for (auto& k : window_keys()) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(k.keys.c_str());
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", k.what.c_str());
  }
  ImGui::EndTable();
}
