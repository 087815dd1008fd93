// The first of the three ways GMlib's manual names for a loop over elements that adds into
// their vertices, where two elements run at once may write the same vertex (Maréchal 2020,
// GMlib v3 manual, §2.5): cut the elements into sub-blocks that share no vertex ("découpe en
// sous-blocs"), that is, colour them. The other two, micro-synchronisations (atomics) and
// duplicating the data (the scatter/gather pair GMlib uses), are written in a kernel's body.
//
// A kernel section with the line "// write: colouring" runs one launch a colour (gpu_mesh.h):
// within a colour no two elements share a vertex, so each vertex is written by one invocation
// at most and a plain `Star_[v] += a` is safe; a barrier orders each colour after the one before.
#pragma once
#include "compute/mesh/io/meshb.h"

#include <cstdint>
#include <vector>

namespace mesh {

struct Colouring {
  std::vector<uint32_t> order;    // the elements colour after colour, each class in the elements' order
  std::vector<uint32_t> offsets;  // colours + 1: class c is order[offsets[c]] .. order[offsets[c + 1] - 1]
  std::vector<uint32_t> colour;   // each element's colour
  uint32_t colours() const { return offsets.empty() ? 0 : uint32_t(offsets.size() - 1); }
};

// Greedy colouring: elements in their order, each given the smallest colour that no element
// already coloured and sharing one of its vertices has. `per` vertices a line of `v`. It needs
// at least largest_ball() colours (the elements around one vertex all differ) and at most
// (largest_ball() − 1)·per + 1 (an element meets at most that many others). Throws
// std::invalid_argument on a vertex index past `vertices`.
Colouring colour_elements(const std::vector<uint32_t>& v, uint32_t per, size_t vertices);
inline Colouring colour_elements(const Elements& e, size_t vertices) {
  return colour_elements(e.v, nodes_of(e.kind), vertices);
}
// The most elements around one vertex: the fewest colours any colouring can have.
uint32_t largest_ball(const std::vector<uint32_t>& v, uint32_t per, size_t vertices);

}  // namespace mesh
