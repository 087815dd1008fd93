#include "render/mesh/mesh_view.h"

#include "shaders/mesh/mesh_view_push.h"

#include "render/colormap.h"

#include <algorithm>

namespace render {

using push::MeshPush;  // shaders/mesh/mesh_view_push.h

namespace {
static_assert(sizeof(MeshPush) == 128);
}  // namespace

MeshView::MeshView(gpu::Context& ctx) {
  gpu::GraphicsDesc d;
  d.vert = "mesh/mesh.vert";
  d.frag = "mesh/mesh.frag";
  d.push_bytes = sizeof(MeshPush);
  d.depth_test = true;
  pipeline_ = gpu::make_graphics(ctx, d);
  lut_ = gpu::Buffer(ctx, 256 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  lut_.upload(colormap_rgba("coolwarm"));
  dummy_ = gpu::Buffer(ctx, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  dummy_.upload(std::vector<float>(4, 0.0f));
}

void MeshView::draw(VkCommandBuffer cmd, const Frame& frame, const gpu::Buffer& crd, const gpu::Buffer& table,
                    uint32_t nodes, const gpu::Buffer& records, uint32_t triangles, const MeshField& field,
                    const MeshStyle& s, const OrbitCamera& camera) {
  if (!triangles) return;
  const auto& a = frame.area;
  set_viewport(cmd, float(a.offset.x), float(a.offset.y), float(a.extent.width), float(a.extent.height));
  uint32_t mode = !field.buffer ? 0 : field.at_vertices ? 1 : 2;
  MeshPush p{.mvp = camera.view_proj(float(a.extent.width) / float(std::max(a.extent.height, 1u))),
             .centre_scale = {s.centre.x, s.centre.y, s.centre.z, s.scale},
             .plane = {s.plane.x, s.plane.y, s.plane.z, s.plane.w},
             .range = {s.lo, s.hi > s.lo ? s.hi : s.lo + 1e-6f},
             .nodes = nodes,
             .flags = mode | uint32_t(s.wireframe) << 4 | uint32_t(s.clip) << 5 | uint32_t(field.scalar) << 8,
             .field_stride = field.stride,
             .field_offset = field.offset};
  pipeline_.bind(cmd,
                 {gpu::storage_buffer(crd), gpu::storage_buffer(table), gpu::storage_buffer(records),
                  gpu::storage_buffer(field.buffer ? *field.buffer : dummy_), gpu::storage_buffer(lut_)},
                 p);
  vkCmdDraw(cmd, 3 * triangles, 1, 0, 0);
  set_viewport(cmd, 0, 0, float(frame.extent.width), float(frame.extent.height));
}

}  // namespace render
