#include "app/window/tabs/lab_tab.h"
#include "compute/io/output.h"

#include "app/widgets/file_browser.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace {

void float_widget(ParamSet& set, Param& p, const char* label) {
  float v = float(p.value);
  ImGuiSliderFlags flags = p.log_scale ? ImGuiSliderFlags_Logarithmic : 0;
  if (ImGui::SliderFloat(label, &v, float(p.min), float(p.max), "%.4g", flags)) set.set_value(p.name, v);
}

// Rebuilding parameters apply when the slider is released, not at every pixel of a drag.
void int_widget(ParamSet& set, Param& p, const char* label) {
  int v = int(p.value);
  ImGuiSliderFlags flags = p.max / std::max(1.0, p.min) > 100 ? ImGuiSliderFlags_Logarithmic : 0;
  ImGui::SliderInt(label, &v, int(p.min), int(p.max), "%d", flags);
  if (v != int(p.value) && (!p.rebuild || !ImGui::IsItemActive())) {
    set.set_value(p.name, v);
  } else if (v != int(p.value)) {
    p.value = v;  // shown while dragging; applied on release
    set.rebuild_pending = false;
  }
  if (p.rebuild && ImGui::IsItemDeactivatedAfterEdit()) set.rebuild_pending = true;
}

void choice_widget(ParamSet& set, Param& p, const char* label) {
  int v = int(p.value);
  if (!ImGui::BeginCombo(label, p.choices[size_t(v)].c_str())) return;
  for (size_t i = 0; i < p.choices.size(); ++i)
    if (ImGui::Selectable(p.choices[i].c_str(), int(i) == v)) set.set_value(p.name, double(i));
  ImGui::EndCombo();
}

// Text is applied on Enter; a file also from the chooser.
void text_widget(ParamSet& set, Param& p, const char* label) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s", p.str.c_str());
  bool file = !p.file_types.empty();
  if (file) ImGui::SetNextItemWidth(ImGui::CalcItemWidth() - ImGui::GetFrameHeight() * 1.6f);
  if (ImGui::InputText(file ? "##path" : label, buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue))
    set.set_text(p.name, buf);
  if (!file) return;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n--set %s=...", p.help.c_str(), p.name.c_str());
  ImGui::SameLine(0, 2);
  if (ImGui::Button("...")) open_file_browser("choose a file", p.str);
  std::string chosen;
  if (file_browser("choose a file", p.file_types, chosen)) set.set_text(p.name, chosen);
  if (label[0] == '#') return;  // the label is above (param_widget)
  ImGui::SameLine();
  ImGui::TextUnformatted(label);
}

// One widget a parameter, its help and --set form in the tooltip. A label too long for the room
// right of its widget (a large UI scale, a narrow sidebar) goes above it, wrapped, never clipped.
void param_widget(ParamSet& set, Param& p) {
  ImGui::PushID(p.name.c_str());
  const std::string label = param_label(p);
  const ImGuiStyle& style = ImGui::GetStyle();
  float width = ImGui::CalcTextSize(label.c_str()).x, avail = ImGui::GetContentRegionAvail().x;
  float room = p.kind == Param::Kind::Bool ? avail - ImGui::GetFrameHeight() - style.ItemInnerSpacing.x
                                           : avail - ImGui::CalcItemWidth() - style.ItemInnerSpacing.x;
  const bool above = width > room;
  if (above && p.kind != Param::Kind::Bool) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(label.c_str());
    ImGui::PopTextWrapPos();
  }
  const std::string shown = above ? "##" + label : label;
  switch (p.kind) {
    case Param::Kind::Float:
      float_widget(set, p, shown.c_str());
      break;
    case Param::Kind::Int:
      int_widget(set, p, shown.c_str());
      break;
    case Param::Kind::Choice:
      choice_widget(set, p, shown.c_str());
      break;
    case Param::Kind::Text:
      text_widget(set, p, shown.c_str());
      break;
    case Param::Kind::Bool: {
      bool v = p.value != 0;
      if (ImGui::Checkbox(shown.c_str(), &v)) set.set_value(p.name, v ? 1 : 0);
      if (above) {  // its label beside it, wrapped
        bool hovered = ImGui::IsItemHovered();
        ImGui::SameLine();
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(label.c_str());
        ImGui::PopTextWrapPos();
        if (hovered) ImGui::SetTooltip("%s\n--set %s=%s", p.help.c_str(), p.name.c_str(), p.text().c_str());
      }
      break;
    }
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n--set %s=%s", p.help.c_str(), p.name.c_str(), p.text().c_str());
  ImGui::PopID();
}

}  // namespace

void LabTab::draw(Session& s) {
  if (ImGui::BeginCombo("lab", s.lab().name().c_str())) {
    std::string chosen;
    for (auto& n : lab_names())
      if (ImGui::Selectable(n.c_str(), n == s.lab().name())) chosen = n;
    ImGui::EndCombo();
    if (!chosen.empty()) s.switch_lab(chosen);
  }
  Lab& lab = s.lab();
  ImGui::TextWrapped("%s", lab.title().c_str());
  // One collapsing header a group, in the order the lab declares them; sliders leave 45% of
  // the width to their labels.
  std::vector<std::string> groups;
  for (auto& p : lab.params().all())
    if (std::find(groups.begin(), groups.end(), p.group) == groups.end()) groups.push_back(p.group);
  ImGui::PushItemWidth(ImGui::GetContentRegionAvail().x * 0.55f);
  for (auto& g : groups)
    if (ImGui::CollapsingHeader(g.c_str(), ImGuiTreeNodeFlags_DefaultOpen))
      for (auto& p : lab.params().all())
        if (p.group == g) param_widget(lab.params(), p);
  ImGui::PopItemWidth();
  if (ImGui::Button("Restart")) s.restart();
  lab.ui();
  if (ImGui::CollapsingHeader("Presets")) presets(s);
}

void LabTab::presets(Session& s) {
  const auto& all = shipped_presets();
  if (!all.empty()) {
    // The lab's own presets first; the others under a heading (loading one switches labs).
    const std::string& lab = s.lab().name();
    if (preset_lab_ != lab) {  // another lab: its first preset chosen
      preset_lab_ = lab;
      auto own = std::find_if(all.begin(), all.end(), [&](const Preset& p) { return p.lab == lab; });
      chosen_preset_ = own == all.end() ? 0 : int(own - all.begin());
    }
    chosen_preset_ = std::clamp(chosen_preset_, 0, int(all.size()) - 1);
    const Preset& chosen = all[size_t(chosen_preset_)];
    if (ImGui::BeginCombo("shipped", chosen.name.c_str())) {
      for (bool own : {true, false}) {
        if (!own) ImGui::Separator(), ImGui::TextDisabled("other labs (loading one switches)");
        for (size_t i = 0; i < all.size(); ++i) {
          if ((all[i].lab == lab) != own) continue;
          if (ImGui::Selectable(all[i].name.c_str(), int(i) == chosen_preset_)) chosen_preset_ = int(i);
          if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", all[i].what.c_str());
        }
      }
      ImGui::EndCombo();
    }
    ImGui::TextWrapped("%s", chosen.what.c_str());
    if (ImGui::Button("Load shipped")) s.load_preset(all[size_t(chosen_preset_)]);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the lab's defaults and the preset's values, from step 0");
  }
  char path[512];
  std::snprintf(path, sizeof path, "%s", preset_path_.c_str());
  if (ImGui::InputText("file", path, sizeof path)) preset_path_ = path;
  if (ImGui::Button("Load file")) {
    try {
      s.load_preset(find_preset(preset_path_));
    } catch (const std::exception& e) {
      s.error = e.what();
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Save")) {
    std::filesystem::path out(preset_path_);
    if (out.has_parent_path()) std::filesystem::create_directories(out.parent_path());
    try {
      io::write_file(out, preset_json(s.lab().name(), s.lab().params()).dump(2) + "\n");
      s.preset_message = "saved " + std::filesystem::absolute(out).string();
    } catch (const std::runtime_error& e) {
      s.error = e.what();
    }
  }
  if (!s.preset_message.empty()) ImGui::TextWrapped("%s", s.preset_message.c_str());
}
