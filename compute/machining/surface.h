// The stock's starting surface (seed 003, §5.3): flat, or curved so that the N-buffer's rays
// along the surface normal differ from the Z-buffer's vertical ones. Its highest point is at
// the stock's `top`; a cylinder's axis runs along x through `centre`, a dome is a sphere's
// cap over it (world coordinates: a zoomed grid sees the same surface).
#pragma once
#include "compute/machining/io/path.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace machining {

enum class SurfaceShape { Flat, Cylinder, Dome };
const std::vector<std::string>& surface_names();  // "flat", "cylinder", "dome"
SurfaceShape surface_from_name(const std::string& name);

struct Surface {
  SurfaceShape shape = SurfaceShape::Flat;
  float radius = 100;      // cylinder or dome
  glm::vec2 centre{0.0f};  // the highest point's xy
};

// The steepest surface the grid may hold: a normal at least this far from horizontal
// (n_z >= kMinNormalZ, 76 degrees of slope), so that a normal ray leaves the stock upwards.
constexpr double kMinNormalZ = 0.25;

struct Stock;
// Throws std::invalid_argument, naming the radius needed, if the surface is steeper than
// kMinNormalZ somewhere on the stock's grid.
void check_surface(const Stock& s);
// The surface over (x, y): its height (highest: `top`) and its unit normal.
double surface_height(const Surface& f, double top, double x, double y);
glm::dvec3 surface_normal(const Surface& f, double x, double y);
// The N-buffer's rays, one a brin row-major: (normal xyz, surface height), in float as the
// GPU reads them; the starting heights of the Z-buffer are the w components.
std::vector<glm::vec4> surface_rays(const Stock& s);
std::vector<float> surface_heights(const Stock& s);
// What a machine's brins start from: the surface's heights, or an N-buffer's zero lengths.
std::vector<float> starting_values(const Stock& s);
// An N-buffer brin's patch of surface, d² / n_z, in units of d² (the removed volume's weights).
std::vector<float> surface_areas(const Stock& s);

// A finishing path over [0, size]² for a ball end of radius r: passes along x, `stepover`
// apart in y, `count` positions in all, the ball's centre at r - depth along the normal from
// the surface (so it cuts `depth` deep, the scallops between passes left standing).
std::vector<Position> finishing_path(const Surface& f, float top, float size, float r, float stepover, uint32_t count,
                                     float depth);

}  // namespace machining
