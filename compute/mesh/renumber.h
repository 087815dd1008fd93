// Renumbering for cache locality (seed 004, §2: GMlib's optional Hilbert renumbering):
// vertices sorted along a 3D Hilbert curve through their coordinates, elements along the
// curve through their barycentres.
#pragma once
#include "compute/mesh/io/meshb.h"

#include <optional>

namespace mesh {

// The Hilbert index of a point of a 2^bits grid (bits <= 21), Skilling's transpose method.
uint64_t hilbert_key(uint32_t x, uint32_t y, uint32_t z, int bits);
// Renumbers in place; returns the new index of each old vertex. With `by_degree`, GMlib's
// mode for the GPU (seed 004, §2.4): the vertices sorted first by the padded size of their
// ball of those elements (class_width: 8, 16, 32...), along the curve within each size, so
// that the ball is stored in degree classes (links.h).
std::vector<uint32_t> renumber_hilbert(Mesh& m, std::optional<Kind> by_degree = {});
// A random renumbering (a mesh as a mesher without care might write it), for comparisons.
void shuffle(Mesh& m, uint32_t seed);
// The mesh lab's numbering choice: "as is", "hilbert", "hilbert by degree" (the balls of one
// element kind, the first the mesh has of tetrahedra, pyramids, prisms, hexahedra, triangles,
// quadrilaterals and edges; the other kinds' balls stay in one class) or "shuffled" (seed 1).
void renumber(Mesh& m, const std::string& how);

}  // namespace mesh
