// Tool paths (seed 003, §5.5.4, §13.2.1): positions of the tool tip, with the tool axis
// (5-axis) and a spindle angle ω. Read from a plain text / CSV file or G-code (gcode.h);
// generated for the seed's configurations.
#pragma once
#include <glm/glm.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace machining {

struct Position {
  glm::vec3 tip{0.0f};
  glm::vec3 axis{0.0f, 0.0f, 1.0f};  // unit, from the tip up the tool
  float omega = 0.0f;                // spindle angle about the axis, radians
};

// One position a line: "x y z", "x y z omega", "x y z i j k" or "x y z i j k omega",
// separated by spaces, tabs or commas; '#' starts a comment. Every line must have the
// same kind; coordinates within +-1e6. Throws std::runtime_error "FILE:LINE: problem".
std::vector<Position> read_positions(const std::filesystem::path& path);
std::vector<Position> parse_positions(const std::string& data, const std::string& name);
// A path holds at most this many positions (files and G-code interpolation alike).
constexpr size_t kMaxPositions = 10'000'000;
void write_positions(const std::filesystem::path& path, const std::vector<Position>& p);

// G-code: gcode.h.

// The seed's configurations recreated (§13.2.1) on a stock spanning [0, size]² at z = 0:
//  single      one position at the centre
//  random      `count` positions, uniform over the stock, depth in [0.5, 2] below the top
//  spiral      an Archimedean spiral from the centre, constant depth
//  downspiral  the same going deeper along the spiral
//  volcano     a full raster sweep whose depth follows a flattened cone (a volcano)
//  zigzag      parallel passes along x, step-over `stepover`, constant depth
// `count` positions (single: 1); depth in tool diameters is implied by the generator.
std::vector<Position> generate_path(const std::string& kind, float size, uint32_t count, float stepover,
                                    uint32_t seed = 1);
const std::vector<std::string>& path_kinds();

}  // namespace machining
