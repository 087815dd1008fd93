// Tool meshes (seed 003, ch. 5 and 12): a triangle list in the tool's frame — tip at the
// origin, axis +z, the cutting end at the bottom. Generators for the seed's tools and an
// STL reader (binary and ASCII) whose every complaint names the file and where.
#pragma once
#include <glm/glm.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace machining {

struct Mesh {
  std::vector<glm::vec3> vertices;  // 3 a triangle
  size_t triangles() const { return vertices.size() / 3; }
  glm::vec3 lo() const;
  glm::vec3 hi() const;
};

// resolution = slices around the axis (other counts follow). The seed's counts: sphere
// 16 -> 320, 32 -> 1984, 79 -> 12482 triangles; cone 32 -> 64.
Mesh ball_end(float radius, uint32_t slices);                // a sphere with its centre at z = radius
Mesh cone(float radius, float height, uint32_t slices);      // tip down
Mesh flat_end(float radius, float height, uint32_t slices);  // a closed cylinder
// A torus, tube radius `corner`, lowest at z = 0: slices x rings quads (rings about slices / 2),
// 2·slices·rings triangles; with `triangles` above that (even), as many more by splitting
// quads spread evenly into four around their centre on the torus (the surface stays closed).
Mesh bull_nose(float radius, float corner, uint32_t slices, uint32_t triangles = 0);
// The rings bull_nose() gives `slices`.
uint32_t bull_nose_rings(uint32_t slices);
// The seed's tool by name ("sphere", "torus", "cone", "flat") and size (its diameter) at
// a resolution given as the seed's triangle count where it has one. The torus has exactly
// that many triangles (a closed torus has an even count: an odd one gives one fewer; at least
// 128): the report's 25904 (a CATIA mesh) is 161 x 80 quads, 72 of them split in four.
Mesh make_tool(const std::string& shape, float diameter, uint32_t triangles);
const std::vector<std::string>& tool_shapes();

// An analytic tool (seed 003 ch. 12): the exact surface, intersected per brin (analytic.h).
struct AnalyticTool {
  uint32_t shape = 0;    // 0 ball end, 1 bull nose, 2 cone, 3 flat end (tool_shapes()'s order)
  float radius = 3;      // of the cutting end
  float corner = 0;      // bull nose: the torus's tube radius (no flat bottom, as the mesh)
  float height = 0;      // cone: where its radius is reached; flat end: the cylinder's
  glm::vec3 lo() const;  // the tool frame's bounding box
  glm::vec3 hi() const;
};

// The tool make_tool(shape, diameter, ·) meshes, exactly: a sphere of the diameter, a torus of
// tube diameter / 8, a cone and a cylinder as tall as the diameter.
AnalyticTool analytic_tool(const std::string& shape, float diameter);

// Coordinates of tools, paths and stock heights lie within +-kMaxCoordinate (length units):
// the intersection tests square them in single precision.
constexpr float kMaxCoordinate = 1e6f;

// Throws std::runtime_error "FILE: offset N: ..." / "FILE: line N: ..." on malformed input
// (non-finite or out-of-range vertices too).
Mesh read_stl(const std::filesystem::path& path);
Mesh parse_stl(const std::string& data, const std::string& name);
void write_stl(const std::filesystem::path& path, const Mesh& m);  // binary

}  // namespace machining
