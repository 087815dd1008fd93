// The cloth lab's picture, drawn straight from the simulation's position and normal
// buffers (vertex pulling, no read-back): two-sided shading with a woven tartan on the
// front and a plain back, the sphere and the ground; orbit camera.
#pragma once
#include "compute/gpu/pipeline.h"
#include "render/grid_indices.h"
#include "render/orbit_camera.h"

namespace render {

struct ClothScene {
  uint32_t width = 0, height = 0;  // particles
  bool sphere_on = true;
  glm::vec4 sphere{0, 0, 0, 0.5f};
  bool ground_on = true;
  float ground = -1.2f;
  glm::vec3 light{0.4f, 0.8f, 0.45f};
};

class ClothView {
 public:
  explicit ClothView(gpu::Context& ctx);
  // positions and normals: width·height vec4, their writes made visible before drawing.
  void draw(VkCommandBuffer cmd, const Frame& frame, const gpu::Buffer& positions, const gpu::Buffer& normals,
            const ClothScene& scene, const OrbitCamera& camera);
  static Rect viewport(const Frame& frame);
  static constexpr uint32_t kMaxMeshSide = 512;  // about a vertex a pixel; bigger cloths are drawn with a stride

 private:
  gpu::Context& ctx_;
  gpu::Pipeline cloth_, props_;
  GridIndices mesh_;
};

}  // namespace render
