// The mesh lab's "fields" list (GMlib's data calls by hand): each field with its type and kind,
// Free for those no kernel reads (GmlFreeData), and one entity's line read back (GmlGetDataLine)
// or written (GmlSetDataLine).
#pragma once
#include "compute/mesh/gpu_mesh.h"

#include <memory>
#include <string>
#include <vector>

struct FieldsPanel {
  int field = 0, entity = 0;
  char values[256] = "";
  std::string said;  // the last call's outcome, or why it was refused
  // `kernels`, `last_good`: the compiled kernels that may run (a field they bind cannot be freed).
  void draw(mesh::GpuMesh& g, const std::vector<std::unique_ptr<mesh::GpuMesh::Kernel>>& kernels,
            const std::vector<std::unique_ptr<mesh::GpuMesh::Kernel>>& last_good);
};
