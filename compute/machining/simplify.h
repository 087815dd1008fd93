// Tool mesh simplification (Abecassis 2012, SIMSURF §12.1.1 and figures 12.1-12.2): the tool's
// triangles cut down by edge collapse to a target count. The report called VCGLib (MeshLab's
// library) through fork-exec; we call meshoptimizer's meshopt_simplify (quadric edge collapse,
// Debian's libmeshoptimizer-dev). What it costs in precision is measured as the tool seen from
// below (the surface a 3-axis Z-buffer cuts with); what it costs in time, figure 12.2's reading,
// as each triangle's fragment (its bounding box on the brin grid) against the brins inside it.
#pragma once
#include "compute/machining/io/tool.h"

#include <cstdint>
#include <vector>

namespace machining {

// A triangle list welded into shared vertices (what an edge collapse needs).
struct IndexedMesh {
  std::vector<glm::vec3> positions;
  std::vector<uint32_t> indices;  // 3 a triangle
  size_t triangles() const { return indices.size() / 3; }
};
// Vertices closer than `tolerance` along every axis (snapped to a grid of that size) merged.
IndexedMesh weld_mesh(const Mesh& m, float tolerance);
Mesh triangle_list(const IndexedMesh& m);

struct Simplification {
  IndexedMesh indexed;  // the simplified tool
  Mesh mesh;            // the same as a triangle list
  size_t before = 0;    // the tool's triangles
  double estimate = 0;  // meshoptimizer's own error (its quadric distance), in length units
  double ms = 0;        // the simplification's wall-clock time, welding included
};

// The tool cut to at most `target` triangles (4 or more, at most the tool's count). Throws
// std::invalid_argument with the reason on a bad target, or when the edge collapse stops above it
// (the message names the count it reached). No degenerate triangle is left.
Simplification simplify_tool(const Mesh& tool, uint32_t target);

// How two tools differ seen from below: each upright tool's lowest height over every offset of a
// grid of `spacing` aligned on the tip (the CPU engine, one position), clamped at `depth` above
// the tip (what a cut that deep can reach). A 3-axis path whose tips lie on the brin grid, one
// `depth` under a flat top, leaves heights that differ by at most max_abs between the two tools.
struct ToolHeightError {
  double max_abs = 0, mean_abs = 0;  // over the offsets either tool reaches below `depth`
  uint64_t samples = 0;
  float spacing = 0, depth = 0;
};
ToolHeightError tool_height_error(const Mesh& a, const Mesh& b, float spacing, float depth);

// Figure 12.2's measure for the upright tool on brins `spacing` apart, tip on a brin: each
// triangle's fragment (the brins of its bounding box, which an engine tests) and the brins
// inside the triangle (the tests that can cut).
struct FragmentStats {
  uint64_t max_cells = 0;    // the longest fragment: what a thread per triangle waits for
  double mean_cells = 0;     // a triangle's fragment, on average
  uint64_t total_cells = 0;  // brin tests of one position
  uint64_t inside = 0;       // of them, brins inside their triangle
  double inside_share = 0;   // inside / total_cells
  double max_aspect = 0;     // the longest edge over the height on it, worst triangle
  uint64_t thin = 0;         // triangles whose aspect exceeds 10
};
FragmentStats fragment_stats(const Mesh& tool, float spacing);

}  // namespace machining
