// What the machining panel reads off a milled heightfield: the volume removed, the
// deepest cut, the roughness of a profile, and the first brin that is not finite (the
// lab's watchdog). Plain CPU math over heights read back from the GPU.
#pragma once
#include "zbuffer.h"

#include <cstddef>
#include <span>

namespace machining {

struct CutStats {
  double removed = 0;              // volume below the starting surface, in length³ (each brin d x d)
  double max_depth = 0;            // deepest cut below the starting surface
  std::ptrdiff_t non_finite = -1;  // the first brin that is NaN or infinite, or -1
};
// `start`: the starting heights, or empty for a flat stock at s.top.
CutStats cut_stats(const Stock& s, std::span<const float> heights, std::span<const float> start = {});

// Roughness of a profile (ISO 4287 / 4288): Ra, the mean absolute deviation from the
// mean line; Rz, the mean over 5 equal sampling lengths of the largest peak-to-valley
// height. Profiles of fewer than 10 points give zeros.
struct Roughness {
  double ra = 0, rz = 0;
};
Roughness roughness(std::span<const float> z);

}  // namespace machining
