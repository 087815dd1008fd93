// Structured meshes for the mesh lab, its tests and benchmarks: a bumpy triangulated
// square, and a cube of n³ cells as hexahedra or as tetrahedra (6 a cell, the Kuhn split
// along each cell's main diagonal, so the faces match from cell to cell). Kuhn's split gives
// every inner vertex 24 tetrahedra; `mirrored` turns each cell so that its diagonal runs
// through its corner of even coordinates (the faces still match): inner vertices of all-even
// or all-odd coordinates then lie on 48 tetrahedra, the others on 16 — a ball of two degrees.
#pragma once
#include "compute/mesh/io/meshb.h"

namespace mesh {

Mesh bumpy_grid(uint32_t n);  // n × n vertices, jittered inside, z a smooth bump
Mesh cube(uint32_t n, Kind cells, double jitter = 0.0, bool mirrored = false);  // the unit cube

}  // namespace mesh
