// An acceleration structure for the N-buffer (Abecassis 2012, SIMSURF §5.3.1 and ch. 17: the
// N-buffer tests every ray against every triangle, N x M x T x P tests, and the report's
// conclusion asks for a structure that culls them): a bounding-volume hierarchy over the tool's
// triangles in its own frame, built once on the CPU (median split of the centroids along the
// widest axis, four triangles a leaf at most), traversed by the N-buffer's kernel for each ray and
// position (shaders/machining/nbuffer_bvh.prec.comp) in the tool's frame, skipping the boxes the
// ray's line misses and those entered beyond the ray's lowest hit so far. The triangles it tests
// are tested as the brute-force kernel tests them, so the lengths are the same, bit for bit.
#pragma once
#include "compute/machining/io/tool.h"

#include <glm/glm.hpp>

#include <bit>
#include <cstdint>
#include <vector>

namespace machining {

// A node as the kernel reads it: its box (widened by a margin the kernels' rounding cannot
// cross); lo.w the first child (an inner node: children first and first + 1) or the first
// triangle (a leaf), as float bits; hi.w the leaf's triangle count as float bits, 0 for an inner node.
struct BvhNode {
  glm::vec4 lo, hi;
};

struct Bvh {
  std::vector<BvhNode> nodes;   // the root first
  std::vector<uint32_t> order;  // the tool's triangles in the leaves' order
  uint32_t depth = 0, leaves = 0;
  static constexpr uint32_t kLeaf = 4, kStack = 48;  // triangles a leaf at most; the kernel's stack
};
Bvh build_bvh(const Mesh& tool);

// The tool's triangles in the hierarchy's order (what the kernel's triangle buffer holds).
Mesh in_bvh_order(const Mesh& tool, const Bvh& bvh);

// Node k's fields, as the kernel reads them.
inline uint32_t bvh_first(const BvhNode& n) { return std::bit_cast<uint32_t>(n.lo.w); }
inline uint32_t bvh_count(const BvhNode& n) { return std::bit_cast<uint32_t>(n.hi.w); }

}  // namespace machining
