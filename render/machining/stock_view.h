// The machining lab's picture, drawn straight from the GPU's height keys (no read-back):
// the machined stock as a lit surface coloured by depth of cut or by a per-brin field, and
// the tool mesh at a position of the path; orbit or trackball camera. The surface's lattice as
// filled triangles, a wireframe, lines or points.
#pragma once
#include "compute/gpu/pipeline.h"
#include "render/grid_indices.h"
#include "render/orbit_camera.h"

#include <string>
#include <vector>

namespace render {

// What the surface's colour says: depth of cut (top - height), nothing (steel, the shape alone),
// a signed per-brin field (StockView::set_field): an error in ulps, the Laplacian; or the depth
// of cut given as the field (a curved stock's, an N-buffer's).
enum class StockDisplay { Depth = 0, Shaded = 1, Field = 2, DepthField = 3 };

struct StockScene {
  uint32_t nx = 0, ny = 0;
  float x0 = 0, y0 = 0, d = 1, top = 0;
  float max_cut = 1;       // depth of cut drawn with the colour map's last colour
  float height_scale = 1;  // vertical exaggeration of the relief about the starting surface (set_base; the tool
                           // keeps its shape, its tip follows)
  bool show_tool = true;
  StockDisplay display = StockDisplay::Depth;
  float field_range = 1;              // the field is coloured from −range to range
  glm::vec3 light{0.4f, 0.8f, 0.3f};  // towards the light, picture axes (y up)
  glm::mat3 tool_rotation{1.0f};
  glm::vec3 tool_tip{0.0f};
  float tool_base = 0;  // the starting surface's height under the tip (the top on a flat stock)
  uint32_t tool_triangles = 0;
  // SIMSURF §16.4.3's "primitive d'affichage": filled triangles, wireframe, lines or points
  LatticePrimitive primitive = LatticePrimitive::Triangles;
};

class StockView {
 public:
  explicit StockView(gpu::Context& ctx);
  // heights: nx·ny order-preserving uint keys (machining::height_key); tool: 3 vec4 a triangle.
  void draw(VkCommandBuffer cmd, const Frame& frame, const gpu::Buffer& heights, const gpu::Buffer& tool,
            const StockScene& s, const OrbitCamera& camera);
  static constexpr uint32_t kMaxMeshSide = 512;
  void set_colormap(const std::string& name);  // render/colormap.h's names
  // A float a brin (nx·ny, row-major) for StockDisplay::Field and DepthField.
  void set_field(const std::vector<float>& values);
  // The starting surface's heights (nx·ny), about which height_scale exaggerates the relief;
  // empty: the flat top.
  void set_base(const std::vector<float>& heights);

 private:
  gpu::Context& ctx_;
  gpu::Pipeline surface_, lines_, points_, tool_;
  gpu::Buffer lut_, field_, base_;
  std::string colormap_;
  GridIndices mesh_;
};

}  // namespace render
