// The lab registry: the window's selector, --lab and bench all read this list.
#include "lab.h"

std::unique_ptr<Lab> make_diffusion_lab();
std::unique_ptr<Lab> make_linalg_lab();
std::unique_ptr<Lab> make_floatlab_lab();
std::unique_ptr<Lab> make_wave_lab();
std::unique_ptr<Lab> make_cloth_lab();
std::unique_ptr<Lab> make_machining_lab();
std::unique_ptr<Lab> make_mesh_lab();

const std::vector<std::string>& lab_names() {
  static const std::vector<std::string> names = {"diffusion", "linalg",    "floatlab", "wave",
                                                 "cloth",     "machining", "mesh"};
  return names;
}

std::unique_ptr<Lab> make_lab(const std::string& name) {
  if (name == "diffusion") return make_diffusion_lab();
  if (name == "linalg") return make_linalg_lab();
  if (name == "floatlab") return make_floatlab_lab();
  if (name == "wave") return make_wave_lab();
  if (name == "cloth") return make_cloth_lab();
  if (name == "machining") return make_machining_lab();
  if (name == "mesh") return make_mesh_lab();
  std::string known;
  for (auto& n : lab_names()) known += (known.empty() ? "" : ", ") + n;
  throw ParamError("unknown lab '" + name + "' (labs: " + known + ")");
}
