// The wave lab's picture, drawn straight from the GPU height buffer (no read-back):
// normals by finite differences as in seed 000 §4.2.2.2, the pool floor texture seen
// through the surface offset along the normal (refraction), diffuse and specular light.
// Two views: from above (the thesis's figures 4.6-4.7) and a 3D surface with an orbit camera.
#pragma once
#include "compute/gpu/pipeline.h"
#include "render/grid_indices.h"
#include "render/orbit_camera.h"

#include <filesystem>

namespace render {

struct WaterStyle {
  float height_scale = 4.0f;  // relief exaggeration (heights are in cell units)
  float refraction = 0.03f;   // floor offset per unit of normal tilt, in picture widths
  glm::vec3 light{0.4f, 0.8f, 0.45f};
};

class WaterView {
 public:
  // floor: an RGB(A) PNG (assets/wave/pool.png); throws naming the file if unreadable.
  WaterView(gpu::Context& ctx, const std::filesystem::path& floor);
  // heights: width·height floats, row-major; their writes made visible before drawing.
  // The top view in two halves: shade_top(), before the rendering begins, shades the
  // water's rectangle of `frame` by a compute pass into a picture; draw_top(), inside the
  // rendering, copies that picture into the frame.
  void shade_top(VkCommandBuffer cmd, const Frame& frame, const gpu::Buffer& heights, uint32_t width, uint32_t height,
                 const WaterStyle& style);
  void draw_top(VkCommandBuffer cmd, const Frame& frame);
  void draw_surface(VkCommandBuffer cmd, const Frame& frame, const gpu::Buffer& heights, uint32_t width,
                    uint32_t height, const OrbitCamera& camera, const WaterStyle& style);
  // The grid cell under pixel (px, py), or false if off the water.
  static bool cell_under_top(const Frame& frame, uint32_t width, uint32_t height, float px, float py, float& cx,
                             float& cy);
  static bool cell_under_surface(const Frame& frame, uint32_t width, uint32_t height, const OrbitCamera& camera,
                                 float px, float py, float& cx, float& cy);
  static constexpr uint32_t kMaxMeshSide = 512;  // about a vertex a pixel; bigger grids are drawn with a stride

 private:
  gpu::Context& ctx_;
  gpu::Pipeline shade_, top_, surface_;
  GridIndices mesh_;
  gpu::Image floor_, picture_;
  VkRect2D shaded_area_{};                // the frame area shade_top() shaded for (none: zero extent)
  glm::ivec2 origin_{}, picture_size_{};  // where its picture goes in the frame
  glm::vec2 offset_{}, extent_{};         // and the water's rectangle within it
};

}  // namespace render
