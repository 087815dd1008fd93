// Mesh topology the seed's GMlib builds automatically (seed 004, §2): edges extracted from
// the elements (GmlExtractEdges), neighbours across edges (GmlSetNeighbours) and upward
// balls (the triangles around each vertex) padded to a power of two with the exact
// degree beside it (VerTriDeg, VerTriDegMax) — the layouts the GPU kernels read.
#pragma once
#include "meshb.h"

namespace mesh {

// Unique edges (sorted vertex pairs) of the triangles and quadrilaterals, and for each
// face its edges (3 or 4 a face, in the face's vertex order).
struct EdgeSet {
  std::vector<uint32_t> ev;         // 2 a line
  std::vector<uint32_t> face_edges; // nodes_of(kind) a face
  size_t count() const { return ev.size() / 2; }
};
EdgeSet extract_edges(const Elements& faces);

// For each face, the face across each of its edges (UINT32_MAX on a boundary or where
// more than two faces share the edge).
std::vector<uint32_t> neighbours(const Elements& faces, const EdgeSet& edges);

// Faces of tetrahedra (GmlExtractFaces): every distinct triangle, and the boundary ones
// (faces of a single tetrahedron) as a Triangles element set oriented outwards.
struct FaceSet {
  std::vector<uint32_t> fv;  // 3 a face (sorted vertex indices)
  Elements boundary;         // Kind::Triangles, reference 0
  size_t count() const { return fv.size() / 3; }
};
FaceSet extract_faces(const Elements& tetrahedra, const std::vector<double>& xyz);

// Upward ball of every vertex: `degree[v]` faces, stored in rows of `padded` entries
// (the largest degree rounded up to a power of two), unused slots UINT32_MAX.
struct Ball {
  std::vector<uint32_t> faces;   // vertices × padded
  std::vector<uint32_t> degree;  // VerTriDeg
  uint32_t max_degree = 0;       // VerTriDegMax
  uint32_t padded = 0;
};
Ball ball(const Elements& faces, size_t vertices);

}  // namespace mesh
