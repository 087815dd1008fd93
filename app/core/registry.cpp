// The lab registry: the window's selector, --lab, presets, help and bench all read this list.
// The labs come from VKLAB_LABS in the top CMakeLists.txt, through the generated labs.inc
// (one VKLAB_LAB(name) a lab, in key order); a lab defines `LabEntry <name>_lab()` in
// app/labs/<name>/.
#include "app/core/registry.h"

#include "app/core/lab.h"

#define VKLAB_LAB(name) LabEntry name##_lab();
#include "labs.inc"
#undef VKLAB_LAB

const std::vector<LabEntry>& lab_entries() {
#define VKLAB_LAB(name) name##_lab(),
  static const std::vector<LabEntry> entries = {
#include "labs.inc"
  };
#undef VKLAB_LAB
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
