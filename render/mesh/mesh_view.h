// The mesh lab's picture, drawn straight from the GPU mesh's buffers: triangles listed in a
// record buffer (vertices, the element they belong to, the element across them), their
// corners pulled from VerCrd, coloured by one component of a field (float, int or double,
// at the vertices or at the elements) through a colour map. Volumes show their boundary
// facets; with a clip plane, the elements whose centre lies beyond it are taken away and the
// facets they uncover are drawn (a "crinkle" cut: whole elements, no slicing). Orbit camera.
#pragma once
#include "compute/gpu/pipeline.h"
#include "render/orbit_camera.h"

namespace render {

// One triangle to draw: 8 words.
struct MeshTriangle {
  uint32_t v[3];
  uint32_t element;    // in the element table drawn with it
  uint32_t across;     // the element on the other side (a facet shared by two is listed once), UINT32_MAX for none
  uint32_t edges = 7;  // bit k: draw the edge opposite corner k (a split quad hides its diagonal)
  uint32_t pad[2] = {0, 0};
};

struct MeshField {
  const gpu::Buffer* buffer = nullptr;  // none: grey
  bool at_vertices = true;
  int scalar = 0;        // 0 float, 1 int, 2 double, 3 int8, 4 int16 (mesh::Scalar)
  uint32_t stride = 16;  // bytes an entity
  uint32_t offset = 0;   // bytes to the component
};

struct MeshStyle {
  float lo = 0, hi = 1;
  bool wireframe = true;
  bool clip = false;
  glm::vec4 plane{1, 0, 0, 0};  // keeps the elements whose centre c has dot(plane.xyz, c) <= plane.w
  glm::vec3 centre{0.0f};
  float scale = 1;  // world = (p − centre)·scale
};

class MeshView {
 public:
  explicit MeshView(gpu::Context& ctx);
  // `table`: the elements (nodes vertices then a reference a line) the records point into.
  void draw(VkCommandBuffer cmd, const Frame& frame, const gpu::Buffer& crd, const gpu::Buffer& table, uint32_t nodes,
            const gpu::Buffer& records, uint32_t triangles, const MeshField& field, const MeshStyle& style,
            const OrbitCamera& camera);

 private:
  gpu::Pipeline pipeline_;
  gpu::Buffer lut_, dummy_;
};

}  // namespace render
