// The lab registry: the window's selector, --lab, the CLI shorthands, presets and bench all
// read this list. Adding a lab: its files in app/labs/, compute/<lab>/, render/,
// assets/presets/<lab>/, and one line here.
#include "lab.h"

LabEntry diffusion_lab();
LabEntry linalg_lab();
LabEntry floatlab_lab();
LabEntry wave_lab();
LabEntry cloth_lab();
LabEntry machining_lab();
LabEntry mesh_lab();

const std::vector<LabEntry>& lab_entries() {
  static const std::vector<LabEntry> entries = {diffusion_lab(), linalg_lab(),    floatlab_lab(), wave_lab(),
                                                cloth_lab(),     machining_lab(), mesh_lab()};
  return entries;
}

const std::vector<std::string>& lab_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (auto& e : lab_entries()) n.push_back(e.make()->name());
    return n;
  }();
  return names;
}

std::unique_ptr<Lab> make_lab(const std::string& name) {
  for (size_t i = 0; i < lab_names().size(); ++i)
    if (lab_names()[i] == name) return lab_entries()[i].make();
  std::string known;
  for (auto& n : lab_names()) known += (known.empty() ? "" : ", ") + n;
  throw ParamError("unknown lab '" + name + "' (labs: " + known + ")");
}
