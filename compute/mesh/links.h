// Mesh topology the seed's GMlib builds automatically (seed 004, §2): edges extracted from
// the elements (GmlExtractEdges), neighbours across facets (GmlSetNeighbours), and the
// upward links — balls (the elements around a vertex) and shells (the elements around an
// edge) — padded to a power of two with the exact degree beside it (VerTriDeg,
// VerTriDegMax): the layouts the GPU kernels read.
#pragma once
#include "compute/mesh/io/meshb.h"

#include <algorithm>
#include <array>
#include <map>

namespace mesh {

// An element kind's local numbering (the GMF's): its edges and its facets (the (d−1)-faces
// that neighbours share: a triangle's edges, a tetrahedron's triangles, a hexahedron's quads).
struct LocalTopology {
  std::vector<std::array<uint32_t, 2>> edges;
  std::vector<std::vector<uint32_t>> facets;
};
const LocalTopology& local_topology(Kind k);

// Every distinct edge of the mesh: the file's Edges first (keeping their numbers and
// references), then the edges of the other elements in the order met; and, for each element
// kind, its elements' edges (local_topology(kind).edges.size() a line).
struct EdgeSet {
  std::vector<uint32_t> ev;  // 2 a line, smaller vertex first
  std::vector<int64_t> ref;  // the file's reference, 0 for an extracted edge
  std::map<Kind, std::vector<uint32_t>> edges_of;
  size_t count() const { return ref.size(); }
  Elements as_elements() const { return {Kind::Edges, ev, ref}; }
};
EdgeSet extract_edges(const Mesh& m);
EdgeSet extract_edges(const Elements& e);  // the edges of one element set

// For each element, the element of the same kind across each of its facets (UINT32_MAX on
// a boundary or where more than two elements share the facet); facets().size() a line.
std::vector<uint32_t> neighbours(const Elements& e, size_t vertices);

// Faces of the volume elements (GmlExtractFaces): every distinct facet of the tetrahedra,
// pyramids, prisms and hexahedra once, as triangles and quadrilaterals (reference 0),
// oriented outwards from the first element that has it — so the boundary's faces (those of
// a single element) face out of the volume.
struct FaceSet {
  Elements triangles{Kind::Triangles, {}, {}}, quadrilaterals{Kind::Quadrilaterals, {}, {}};
  std::vector<uint8_t> triangle_on_boundary, quadrilateral_on_boundary;
  size_t count() const { return triangles.count() + quadrilaterals.count(); }
  Elements boundary(Kind k) const;  // the boundary's triangles or quadrilaterals
  // Where the volumes are of one kind: each of their facets' element across it, as
  // neighbours() gives it (matched with the faces, once); else empty.
  Kind volume_kind = Kind::Vertices;
  std::vector<uint32_t> across;
};
// boundary_only: the faces of one volume alone (the boundary), the inner ones left out.
FaceSet extract_faces(const Mesh& m, bool boundary_only = false);
// GmlExtractFaces as the manual describes it when the mesh already has some faces (its
// boundary, say): the file's triangles or quadrilaterals `file` (may be null) first, as they
// are, then every other face of the volumes, inner ones included (reference 0).
Elements all_faces(const Elements* file, const FaceSet& faces, Kind k);

// An upward link, the inverse of a downward table `down` (`per` entries a line, each an
// entity below): for each of the `targets` entities, the `degree` lines that hold it, in a
// row of a power-of-two `width`, unused slots UINT32_MAX. Degree classes (seed 004, §2.4):
// where the targets are numbered by increasing width (renumber_hilbert's by-degree mode),
// each run of one width is a class stored with rows of that width; otherwise one class holds
// every target, padded to the largest degree. A class is stored by columns (slot 0 of its
// targets, then slot 1, ...), so that neighbouring invocations read neighbouring words.
struct BallClass {
  uint32_t first = 0, count = 0, width = 0;  // targets first .. first + count - 1
  size_t offset = 0;                         // of slot 0 of `first` in members
};
struct Ball {
  std::vector<uint32_t> members;  // class after class, each width x count, by columns
  // Beside each member, the target's place in it (GMlib's "voyeurs"): the corner a vertex is
  // of its element (0 .. nodes − 1), the local edge an edge is of it; 0 in the unused slots.
  std::vector<uint8_t> corners;
  std::vector<uint32_t> degree;  // VerTriDeg
  uint32_t max_degree = 0;
  uint32_t padded = 0;       // the widest class (a power of two)
  uint32_t corner_bits = 0;  // bits a corner takes: the smallest b with 2^b >= the places an element has
  std::vector<BallClass> classes;
  const BallClass& class_of(uint32_t target) const;
  // The slot-th member of `target` (slot < its class's width; UINT32_MAX from its degree on).
  uint32_t member(uint32_t target, uint32_t slot) const { return members[at(target, slot)]; }
  uint32_t corner(uint32_t target, uint32_t slot) const { return corners[at(target, slot)]; }
  // The table the GPU reads, as GMlib packs it: member << corner_bits | corner a slot (one
  // word gives both), UINT32_MAX in the unused slots.
  std::vector<uint32_t> packed() const;

 private:
  size_t at(uint32_t target, uint32_t slot) const {
    const BallClass& c = class_of(target);
    return c.offset + size_t(slot) * c.count + (target - c.first);
  }
};
// The smallest power of two at or above d (1 for 0).
uint32_t ball_width(uint32_t degree);
// The row width of a target of that degree in a ball padded to `padded`: its ball_width, the
// small degrees sharing the smallest class the seed uses (8, or `padded` where narrower).
inline uint32_t class_width(uint32_t degree, uint32_t padded) {
  return std::max(ball_width(degree), std::min(8u, padded));
}
// Throws std::invalid_argument, before allocating, where the padded rows would pass `max_bytes`
// (at most kMaxBallBytes; GpuMesh gives its device's largest storage buffer) or an element's
// index and corner would not fit one word.
constexpr uint64_t kMaxBallBytes = uint64_t(4) << 30;
Ball upward(const std::vector<uint32_t>& down, uint32_t per, size_t targets, uint64_t max_bytes = kMaxBallBytes);
inline Ball ball(const Elements& e, size_t vertices, uint64_t max_bytes = kMaxBallBytes) {
  return upward(e.v, nodes_of(e.kind), vertices, max_bytes);
}

}  // namespace mesh
