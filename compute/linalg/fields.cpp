#include "compute/linalg/fields.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace linalg {

const std::vector<std::string>& grid_field_names() {
  static const std::vector<std::string> p = {"spots", "gaussian", "random", "zero"};
  return p;
}

std::vector<float> grid_field(uint32_t width, uint32_t height, const std::string& preset, uint32_t seed) {
  std::vector<float> f(size_t(width) * height, 0.0f);
  std::mt19937 rng(seed);
  if (preset == "random") {
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (auto& v : f) v = u(rng);
  } else if (preset == "gaussian") {
    float s = 0.1f * float(std::min(width, height));
    for (uint32_t y = 0; y < height; ++y)
      for (uint32_t x = 0; x < width; ++x) {
        float dx = float(x) + 0.5f - 0.5f * float(width), dy = float(y) + 0.5f - 0.5f * float(height);
        f[size_t(y) * width + x] = std::exp(-(dx * dx + dy * dy) / (2 * s * s));
      }
  } else if (preset == "spots") {
    std::uniform_real_distribution<float> u(0.15f, 0.85f);
    float r = 0.06f * float(std::min(width, height));
    for (int i = 0; i < 5; ++i) {
      float cx = u(rng) * float(width), cy = u(rng) * float(height);
      for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x) {
          float dx = float(x) + 0.5f - cx, dy = float(y) + 0.5f - cy;
          if (dx * dx + dy * dy <= r * r) f[size_t(y) * width + x] = 1.0f;
        }
    }
  } else if (preset != "zero") {
    throw std::invalid_argument("unknown initial field '" + preset + "'");
  }
  return f;
}

}  // namespace linalg
