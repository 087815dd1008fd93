// The mesh lab's picture, drawn straight from the GPU mesh's buffers: triangles pulled
// from VerCrd and TriVer, coloured by a scalar field (the .x of a vec4 field at vertices
// or triangles) through a colour map, edges drawn from barycentric coordinates; orbit camera.
#pragma once
#include "orbit_camera.h"

namespace render {

struct MeshStyle {
  bool field_at_vertices = true;
  bool has_field = false;
  float lo = 0, hi = 1;
  bool wireframe = true;
  glm::vec3 centre{0.0f};
  float scale = 1;  // world = (p − centre)·scale
};

class MeshView {
 public:
  explicit MeshView(gpu::Context& ctx);
  void draw(VkCommandBuffer cmd, const Frame& frame, const gpu::Buffer& crd, const gpu::Buffer& tri_ver,
            uint32_t triangles, const gpu::Buffer* field, const MeshStyle& style, const OrbitCamera& camera);

 private:
  gpu::Pipeline pipeline_;
  gpu::Buffer lut_, dummy_;
};

}  // namespace render
