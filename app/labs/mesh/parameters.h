// The mesh lab's GmlNewParameters panel (manual §4.18): each member of the Par structure with a
// widget that sets it without compiling, and the structure as read back after each launch.
#pragma once
#include "compute/mesh/gpu_mesh.h"

#include <nlohmann/json.hpp>

namespace mesh {

struct LaunchReadback {
  size_t kernel = 0;  // the section (0-based) whose launch left these values
  std::vector<Parameter> values;
};

void parameters_panel(GpuMesh& g, const std::vector<LaunchReadback>& after);
nlohmann::json parameters_json(const GpuMesh& g, const std::vector<LaunchReadback>& after);

}  // namespace mesh
