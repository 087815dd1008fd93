#include "render/colormap.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace render {

namespace {

struct Stop {
  float t;
  Rgb c;
};

ColormapTable from_stops(const std::vector<Stop>& stops) {
  ColormapTable table{};
  for (int i = 0; i < 256; ++i) {
    float t = float(i) / 255.0f;
    size_t s = 1;
    while (s + 1 < stops.size() && stops[s].t < t) ++s;
    float f = std::clamp((t - stops[s - 1].t) / (stops[s].t - stops[s - 1].t), 0.0f, 1.0f);
    for (int k = 0; k < 3; ++k) table[i][k] = stops[s - 1].c[k] + f * (stops[s].c[k] - stops[s - 1].c[k]);
  }
  return table;
}

}  // namespace

const std::vector<std::string>& colormap_names() {
  static const std::vector<std::string> names = {"heat", "coolwarm", "gray"};
  return names;
}

std::vector<float> colormap_rgba(const std::string& name) {
  auto table = colormap_table(name);
  std::vector<float> rgba(256 * 4, 1.0f);
  for (int i = 0; i < 256; ++i)
    for (int k = 0; k < 3; ++k) rgba[i * 4 + k] = table[i][k];
  return rgba;
}

ColormapTable colormap_table(const std::string& name) {
  if (name == "heat")  // black body, close to matplotlib's inferno at its key points
    return from_stops({{0.00f, {0.001f, 0.000f, 0.014f}},
                       {0.25f, {0.341f, 0.062f, 0.429f}},
                       {0.50f, {0.735f, 0.216f, 0.330f}},
                       {0.75f, {0.978f, 0.557f, 0.035f}},
                       {1.00f, {0.988f, 0.998f, 0.645f}}});
  if (name == "coolwarm")  // diverging, for signed fields
    return from_stops(
        {{0.0f, {0.230f, 0.299f, 0.754f}}, {0.5f, {0.865f, 0.865f, 0.865f}}, {1.0f, {0.706f, 0.016f, 0.150f}}});
  if (name == "verdict")  // 0: differs from the reference (orange), 0.5: no verdict (grey), 1: as the reference (green)
    return from_stops({{0.0f, {0.80f, 0.35f, 0.10f}},
                       {0.25f, {0.80f, 0.35f, 0.10f}},
                       {0.5f, {0.30f, 0.30f, 0.33f}},
                       {0.75f, {0.15f, 0.55f, 0.25f}},
                       {1.0f, {0.15f, 0.55f, 0.25f}}});
  if (name == "gray") return from_stops({{0.0f, {0, 0, 0}}, {1.0f, {1, 1, 1}}});
  throw std::invalid_argument("unknown colour map '" + name + "'");
}

Rgb colormap_color(const ColormapTable& table, float v, float lo, float hi) {
  if (!std::isfinite(v)) return {1.0f, 0.0f, 1.0f};  // magenta marks NaN / inf: a blown-up field
  float t = std::clamp((v - lo) / (hi - lo), 0.0f, 1.0f) * 255.0f;
  int i = std::min(int(t), 254);
  float f = t - float(i);
  Rgb c;
  for (int k = 0; k < 3; ++k) c[k] = table[i][k] + f * (table[i + 1][k] - table[i][k]);
  return c;
}

}  // namespace render
