// Structured meshes for the mesh lab, its tests and benchmarks: a bumpy triangulated
// square, and a cube of n³ cells as hexahedra or as tetrahedra (6 a cell, the Kuhn split
// along each cell's main diagonal, so the faces match from cell to cell).
#pragma once
#include "meshb.h"

namespace mesh {

Mesh bumpy_grid(uint32_t n);                             // n × n vertices, jittered inside, z a smooth bump
Mesh cube(uint32_t n, Kind cells, double jitter = 0.0);  // Tetrahedra or Hexahedra; the unit cube

}  // namespace mesh
