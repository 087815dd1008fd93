// The mesh and its fields as a VTK unstructured grid (.vtu, XML, ASCII), so ParaView and other
// VTK tools open what the mesh lab computed (GMlib 2020's meshes are GMF's .meshb; issue: fields
// for other tools). One file an element kind (edges as lines), each with every vertex as its
// points: the fields on the vertices as PointData, the fields on that kind as CellData.
#pragma once
#include "compute/mesh/gpu_mesh.h"

#include <filesystem>

namespace mesh {

int vtk_cell_type(Kind k);  // 3 line, 5 triangle, 9 quad, 10 tetra, 14 pyramid, 13 wedge, 12 hexahedron
// Writes `prefix`.<Kind>.vtu for each element kind of the mesh; the files' names.
std::vector<std::string> write_vtu(const std::filesystem::path& prefix, const GpuMesh& m);

}  // namespace mesh
