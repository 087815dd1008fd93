// The machining lab's picture, drawn straight from the GPU's height keys (no read-back):
// the machined stock as a shaded surface coloured by depth of cut, and the tool mesh at
// a position of the path; orbit camera.
#pragma once
#include "grid_indices.h"
#include "gpu/pipeline.h"
#include "orbit_camera.h"

namespace render {

struct StockScene {
  uint32_t nx = 0, ny = 0;
  float x0 = 0, y0 = 0, d = 1, top = 0;
  float max_cut = 1;       // depth of cut drawn with the colour map's last colour
  float height_scale = 1;  // vertical exaggeration of the relief (the tool keeps its shape, its tip follows)
  bool show_tool = true;
  glm::mat3 tool_rotation{1.0f};
  glm::vec3 tool_tip{0.0f};
  uint32_t tool_triangles = 0;
};

class StockView {
 public:
  explicit StockView(gpu::Context& ctx);
  // heights: nx·ny order-preserving uint keys (machining::height_key); tool: 3 vec4 a triangle.
  void draw(VkCommandBuffer cmd, const Frame& frame, const gpu::Buffer& heights, const gpu::Buffer& tool,
            const StockScene& s, const OrbitCamera& camera);
  static constexpr uint32_t kMaxMeshSide = 512;

 private:
  gpu::Context& ctx_;
  gpu::Pipeline surface_, tool_;
  gpu::Buffer lut_;
  GridIndices mesh_;
};

}  // namespace render
