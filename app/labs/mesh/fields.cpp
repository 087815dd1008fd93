// GMlib's data calls in the mesh lab's panel (fields.h).
#include "app/labs/mesh/fields.h"

#include <imgui.h>

#include <algorithm>
#include <sstream>

void FieldsPanel::draw(mesh::GpuMesh& g, const std::vector<std::unique_ptr<mesh::GpuMesh::Kernel>>& kernels,
                       const std::vector<std::unique_ptr<mesh::GpuMesh::Kernel>>& last_good) {
  if (!ImGui::TreeNode("fields")) return;
  auto bound = [&](const std::string& name) {
    for (auto* list : {&kernels, &last_good})
      for (auto& k : *list)
        if (std::find(k->uses.begin(), k->uses.end(), name) != k->uses.end()) return true;
    return false;
  };
  auto names = g.field_names();
  for (auto& n : names) {
    ImGui::PushID(n.c_str());
    const bool used = bound(n);
    ImGui::BeginDisabled(used);
    if (ImGui::SmallButton("Free")) {  // GmlFreeData
      g.free_field(n);
      said = "GmlFreeData: " + n + " freed";
      ImGui::EndDisabled();
      ImGui::PopID();
      break;  // the list changed
    }
    ImGui::EndDisabled();
    if (used && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("a compiled kernel binds %s", n.c_str());
    ImGui::SameLine();
    ImGui::TextWrapped("%-12s %-7s at %s", n.c_str(), mesh::glsl_type(g.field_type(n)).c_str(),
                       mesh::kind_name(g.field_at(n)));
    ImGui::PopID();
  }
  names = g.field_names();
  if (!names.empty()) {  // one line, GmlGetDataLine and GmlSetDataLine
    field = std::clamp(field, 0, int(names.size()) - 1);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    if (ImGui::BeginCombo("##field", names[size_t(field)].c_str())) {
      for (size_t k = 0; k < names.size(); ++k)
        if (ImGui::Selectable(names[k].c_str(), int(k) == field)) field = int(k);
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::InputInt("entity", &entity);
    const std::string& n = names[size_t(field)];
    try {
      if (ImGui::Button("Get line")) {
        std::ostringstream text;
        for (double v : g.line(n, size_t(std::max(entity, 0)))) text << v << " ";
        said = "GmlGetDataLine: " + n + "[" + std::to_string(entity) + "] = " + text.str();
      }
      ImGui::SameLine();
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
      ImGui::InputText("##values", values, sizeof values);
      ImGui::SameLine();
      if (ImGui::Button("Set line")) {
        std::istringstream in(values);
        std::vector<double> v;
        for (double x; in >> x;) v.push_back(x);
        g.set_line(n, size_t(std::max(entity, 0)), v);
        said = "GmlSetDataLine: " + n + "[" + std::to_string(entity) + "] set";
      }
    } catch (const std::exception& e) {
      said = e.what();
    }
  }
  if (!said.empty()) ImGui::TextWrapped("%s", said.c_str());
  ImGui::TreePop();
}
