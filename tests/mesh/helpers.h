// What the mesh entity tests share: their fixture (one type for the suite across files, as
// GoogleTest requires) and a vertex as the GPU holds it.
#pragma once
#include "compute/mesh/gpu_mesh.h"
#include "tests/helpers.h"

#include <glm/glm.hpp>

class MeshEntities : public GpuTest {};

inline glm::dvec3 vertex(const mesh::Mesh& m, uint32_t v) {  // floats, as on the GPU
  return {float(m.xyz[3 * v]), float(m.xyz[3 * v + 1]), float(m.xyz[3 * v + 2])};
}
