// What the machining panel reads off a milled heightfield: the volume removed, the
// deepest cut, the roughness of a profile, the first brin that is not finite (the lab's
// watchdog), comparisons with another run, the Laplacian, the zoom's preview. Plain CPU
// math over heights read back from the GPU.
#pragma once
#include "compute/machining/zbuffer.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <span>
#include <vector>

namespace machining {

struct CutStats {
  double removed = 0;     // volume below the starting surface, in length³ (each brin d x d)
  double max_depth = 0;   // deepest cut below the starting surface
  double mean_depth = 0;  // over the brins cut
  size_t cut = 0;         // brins below the starting surface
  double min_height = 0, max_height = 0;
  std::ptrdiff_t non_finite = -1;  // the first brin that is NaN or infinite, or -1
};
// `start`: the starting heights, or empty for a flat stock at s.top; `areas`: each brin's
// patch in units of d² (an N-buffer's, surface_areas()), or empty for d² each.
CutStats cut_stats(const Stock& s, std::span<const float> heights, std::span<const float> start = {},
                   std::span<const float> areas = {});

// Roughness of a profile (ISO 4287 / 4288): Ra, the mean absolute deviation from the
// mean line; Rz, the mean over 5 equal sampling lengths of the largest peak-to-valley
// height. Profiles of fewer than 10 points give zeros.
struct Roughness {
  double ra = 0, rz = 0;
};
Roughness roughness(std::span<const float> z);

// A heightfield against a reference (seed 003 §15.4.2: a single precision run against a double
// one; ch. 16: one engine against another), brin by brin, in float ulps of max(|reference|, 1)
// (the unit §8.4's counts use): signed, 0 where equal.
struct UlpComparison {
  std::vector<float> ulps;                              // a brin
  uint64_t differing = 0;                               // brins not equal to the reference rounded to float
  double max_ulps = 0, mean_abs_ulps = 0, max_abs = 0;  // max_abs: in length
  static constexpr int kSpan = 8;   // histogram: bins -kSpan..kSpan (rounded ulps), then the two tails
  std::vector<uint64_t> histogram;  // 2·kSpan + 3 bins: below −kSpan, −kSpan … kSpan, above kSpan
};
UlpComparison compare_ulps(std::span<const float> heights, std::span<const double> reference);
// Its figures for a JSON report: brins differing, max and mean ulps, max_abs, the histogram.
nlohmann::json to_json(const UlpComparison& c);

// The discrete Laplacian of the heights (4 neighbours, over d²; 0 on the border): where the
// report's viewer filters its surface, what shows the scallops between passes.
std::vector<float> laplacian(const Stock& s, std::span<const float> heights);

// Heights of grid `from` seen on grid `to`, bilinear (the zoom's preview while it re-mills);
// outside `from`, its nearest brin.
std::vector<float> resample(const Stock& from, std::span<const float> heights, const Stock& to);

// SIMSURF §16.4.3's statistics of the tool: its bounding box, memory, triangles and their size.
struct ToolStats {
  size_t triangles = 0, bytes = 0;  // bytes: 9 floats a triangle, the report's triangle list
  glm::vec3 lo{0.0f}, hi{0.0f};
  double mean_edge = 0, min_edge = 0, max_edge = 0, mean_area = 0;
};
ToolStats tool_stats(const Mesh& tool);

// SIMSURF §5.5.3: a tool mesh's memory, S bytes a coordinate. As a triangle list, 9 S a
// triangle. Indexed, the distinct vertices (3 S each) and 3 indices a triangle (4 bytes, or 2
// below 2^16 vertices); the report's text counts T + 2 vertices (each new triangle adds one: a
// strip), 3 S (T + 2) + 12 T bytes, and its formula 5.5 prints 2 + T + 3 S T (a misprint: it
// drops the vertices' size and the indices' bytes).
struct MeshMemory {
  size_t triangles = 0, vertices = 0;  // vertices: distinct positions
  double list = 0, indexed = 0, indexed16 = 0, text = 0, printed = 0;
};
MeshMemory mesh_memory(const Mesh& tool, double S);

// ... and of the tool path: positions, the tip's travel, its box, five axes or three, memory.
struct PathStats {
  size_t positions = 0, bytes = 0;  // bytes: the tip (and axis, spindle angle) in floats a position
  double travel = 0;                // the tip's path length, position to position
  glm::vec3 lo{0.0f}, hi{0.0f};
  bool five_axis = false, spindle = false;
};
PathStats path_stats(const std::vector<Position>& path);

}  // namespace machining
