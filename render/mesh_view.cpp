#include "mesh_view.h"

#include "colormap.h"

#include <algorithm>

namespace render {

namespace {
struct MeshPush {
  glm::mat4 mvp;
  float centre_scale[4];
  float range[4];  // lo, hi, wireframe, field mode (0 none, 1 vertices, 2 triangles)
};
}  // namespace

MeshView::MeshView(gpu::Context& ctx) {
  gpu::GraphicsDesc d;
  d.vert = "render/mesh.vert";
  d.frag = "render/mesh.frag";
  d.bindings = std::vector<VkDescriptorType>(4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
  d.push_bytes = sizeof(MeshPush);
  d.depth_test = true;
  pipeline_ = gpu::make_graphics(ctx, d);
  lut_ = gpu::Buffer(ctx, 256 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  lut_.upload(colormap_rgba("coolwarm"));
  dummy_ = gpu::Buffer(ctx, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  dummy_.upload(std::vector<float>(4, 0.0f));
}

void MeshView::draw(VkCommandBuffer cmd, const Frame& frame, const gpu::Buffer& crd, const gpu::Buffer& tri_ver,
                    uint32_t triangles, const gpu::Buffer* field, const MeshStyle& s, const OrbitCamera& camera) {
  const auto& a = frame.area;
  set_viewport(cmd, float(a.offset.x), float(a.offset.y), float(a.extent.width), float(a.extent.height));
  MeshPush p{camera.view_proj(float(a.extent.width) / float(std::max(a.extent.height, 1u))),
             {s.centre.x, s.centre.y, s.centre.z, s.scale},
             {s.lo, s.hi > s.lo ? s.hi : s.lo + 1e-6f, s.wireframe ? 1.0f : 0.0f,
              !field || !s.has_field ? 0.0f : s.field_at_vertices ? 1.0f : 2.0f}};
  pipeline_.bind(cmd,
                 {gpu::storage_buffer(crd), gpu::storage_buffer(tri_ver), gpu::storage_buffer(field ? *field : dummy_),
                  gpu::storage_buffer(lut_)},
                 p);
  vkCmdDraw(cmd, 3 * triangles, 1, 0, 0);
  set_viewport(cmd, 0, 0, float(frame.extent.width), float(frame.extent.height));
}

}  // namespace render
