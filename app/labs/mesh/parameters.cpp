#include "app/labs/mesh/parameters.h"

#include <imgui.h>

namespace mesh {

namespace {
std::string values_text(const Parameter& p) {
  std::string s;
  for (size_t c = 0; c < p.values.size(); ++c) {
    char b[32];
    std::snprintf(b, sizeof b, "%s%.6g", c ? ", " : "", p.values[c]);
    s += b;
  }
  return s;
}
}  // namespace

void parameters_panel(GpuMesh& g, const std::vector<LaunchReadback>& after) {
  if (g.parameters().empty()) return;
  if (!ImGui::TreeNodeEx("parameters (GmlNewParameters)", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("Par.Name in the kernels; a change goes to the GPU before the next launch, no compiling");
  ImGui::PopTextWrapPos();
  for (const Parameter& p : g.parameters()) {
    std::vector<double> v = p.values;
    bool changed = false;
    ImGui::PushID(p.name.c_str());
    if (p.type.scalar == Scalar::Int) {
      int i[4] = {};
      for (size_t c = 0; c < v.size(); ++c) i[c] = int(v[c]);
      changed = ImGui::InputScalarN(p.name.c_str(), ImGuiDataType_S32, i, int(v.size()));
      for (size_t c = 0; c < v.size(); ++c) v[c] = i[c];
    } else {
      changed =
          ImGui::InputScalarN(p.name.c_str(), ImGuiDataType_Double, v.data(), int(v.size()), nullptr, nullptr, "%.6g");
    }
    ImGui::PopID();
    if (changed) g.set_parameter(p.name, v);
  }
  for (auto& a : after) {
    std::string line = "after kernel " + std::to_string(a.kernel + 1) + ":";
    for (auto& p : a.values) line += "  " + p.name + " = " + values_text(p);
    ImGui::TextWrapped("%s", line.c_str());
  }
  ImGui::TreePop();
}

nlohmann::json parameters_json(const GpuMesh& g, const std::vector<LaunchReadback>& after) {
  nlohmann::json now = nlohmann::json::object(), launches = nlohmann::json::array();
  for (auto& p : g.parameters()) now[p.name] = p.values;
  for (auto& a : after) {
    nlohmann::json v = nlohmann::json::object();
    for (auto& p : a.values) v[p.name] = p.values;
    launches.push_back({{"kernel", a.kernel + 1}, {"values", v}});
  }
  return {{"values", now}, {"after_each_launch_of_the_last_run", launches}};
}

}  // namespace mesh
