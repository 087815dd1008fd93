#include "stats.h"

#include <algorithm>
#include <cmath>

namespace machining {

CutStats cut_stats(const Stock& s, std::span<const float> heights, std::span<const float> start) {
  CutStats r;
  for (size_t i = 0; i < heights.size(); ++i) {
    float v = heights[i];
    if (!std::isfinite(v)) {
      if (r.non_finite < 0) r.non_finite = std::ptrdiff_t(i);
      continue;
    }
    double cut = (start.empty() ? double(s.top) : double(start[i])) - v;
    if (cut > 0) r.removed += cut, r.max_depth = std::max(r.max_depth, cut);
  }
  r.removed *= double(s.d) * s.d;
  return r;
}

Roughness roughness(std::span<const float> z) {
  Roughness r;
  if (z.size() < 10) return r;
  double mean = 0;
  for (float v : z) mean += v;
  mean /= double(z.size());
  for (float v : z) r.ra += std::fabs(v - mean);
  r.ra /= double(z.size());
  for (int k = 0; k < 5; ++k) {
    size_t a = z.size() * k / 5, b = z.size() * (k + 1) / 5;
    auto [lo, hi] = std::minmax_element(z.begin() + long(a), z.begin() + long(b));
    r.rz += (*hi - *lo) / 5.0;
  }
  return r;
}

}  // namespace machining
