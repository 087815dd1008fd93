// Colour maps as 256-entry tables built on the CPU: the shader interpolates the same
// table, so tests can predict every pixel from `colormap_color`.
#pragma once
#include <array>
#include <string>
#include <vector>

namespace render {

using Rgb = std::array<float, 3>;
using ColormapTable = std::array<Rgb, 256>;

// The maps a user chooses from: "heat", "coolwarm", "gray". colormap_table also knows
// "verdict" (orange / grey / green: differs / no verdict / as the reference), for tables drawn as pictures.
const std::vector<std::string>& colormap_names();
ColormapTable colormap_table(const std::string& name);
// The table as 256 RGBA floats (alpha 1): the `vec4 lut[256]` the shaders read.
std::vector<float> colormap_rgba(const std::string& name);

// The colour of value v mapped from [lo, hi], exactly as shaders/render/heatmap.frag does.
Rgb colormap_color(const ColormapTable& table, float v, float lo, float hi);

}  // namespace render
