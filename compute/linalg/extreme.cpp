#include "compute/linalg/extreme.h"

#include <algorithm>
#include <stdexcept>

namespace linalg {

const char* extreme_name(Extreme e) { return e == Extreme::Max ? "max" : "min"; }

std::vector<ExtremePass> extreme_passes(Layout layout, uint32_t n) {
  if (n == 0) throw std::invalid_argument("the max of an empty vector is undefined");
  std::vector<ExtremePass> passes;
  uint32_t quads = (n + 3) / 4;
  if (layout == Layout::Texture) {
    for (uint32_t s = texture_side(quads); s > 1; s /= 2) passes.push_back({s * s, s, s * s / 4, s / 2});
    passes.push_back({1, 1, 0, 0});
  } else {
    for (uint32_t q = quads; q > 1; q = (q + 3) / 4) passes.push_back({q, 0, (q + 3) / 4, 0});
    passes.push_back({1, 0, 0, 0});
  }
  return passes;
}

uint32_t extreme_pass_count(uint32_t n) {
  uint32_t count = 0;
  for (uint64_t reach = 1; reach < n; reach *= 4) ++count;  // ceil(log4 n), exactly
  return std::max(count, 1u);
}

std::string describe_pass(const ExtremePass& p, Layout layout) {
  auto texels = [](uint32_t side) {
    return std::to_string(side) + "x" + std::to_string(side) + (side == 1 ? " texel" : " texels");
  };
  if (p.out_quads == 0) return std::string(layout == Layout::Texture ? "1 texel" : "1 quad") + " (4 values) -> 1 value";
  if (layout == Layout::Texture) return texels(p.in_side) + " -> " + texels(p.out_side);
  return std::to_string(p.in_quads) + " -> " + std::to_string(p.out_quads) + (p.out_quads == 1 ? " quad" : " quads");
}

float extreme_cpu(Extreme e, const std::vector<float>& x) {
  if (x.empty()) throw std::invalid_argument("the max of an empty vector is undefined");
  return e == Extreme::Max ? *std::max_element(x.begin(), x.end()) : *std::min_element(x.begin(), x.end());
}

float extreme_zero_padded_cpu(Extreme e, const std::vector<float>& x) {
  float m = extreme_cpu(e, x);
  uint64_t padded = 1;
  for (uint32_t p = extreme_pass_count(uint32_t(x.size())); p > 0; --p) padded *= 4;
  if (padded <= x.size()) return m;
  return e == Extreme::Max ? std::max(m, 0.0f) : std::min(m, 0.0f);
}

}  // namespace linalg
