#include "render/cloth/cloth_view.h"

#include "shaders/cloth/cloth_view_push.h"

#include <algorithm>

namespace render {

using push::ClothPush;  // the blocks: shaders/cloth/cloth_view_push.h
using push::PropsPush;

namespace {
constexpr uint32_t kSphereSlices = 48, kSphereStacks = 24;
}  // namespace

ClothView::ClothView(gpu::Context& ctx) : ctx_(ctx) {
  gpu::GraphicsDesc d;
  d.vert = "cloth/cloth.vert";
  d.frag = "cloth/cloth.frag";
  d.push_bytes = sizeof(ClothPush);
  d.depth_test = true;
  cloth_ = gpu::make_graphics(ctx, d);
  gpu::GraphicsDesc p;
  p.vert = "cloth/props.vert";
  p.frag = "cloth/props.frag";
  p.push_bytes = sizeof(PropsPush);
  p.depth_test = true;
  p.cull = VK_CULL_MODE_NONE;
  props_ = gpu::make_graphics(ctx, p);
}

Rect ClothView::viewport(const Frame& frame) {
  const auto& a = frame.area;
  return {float(a.offset.x), float(a.offset.y), float(a.extent.width), float(a.extent.height)};
}

void ClothView::draw(VkCommandBuffer cmd, const Frame& frame, const gpu::Buffer& positions, const gpu::Buffer& normals,
                     const ClothScene& s, const OrbitCamera& camera) {
  Rect vp = viewport(frame);
  set_viewport(cmd, vp.x, vp.y, vp.w, vp.h);
  glm::mat4 mvp = camera.view_proj(vp.w / std::max(vp.h, 1.0f));
  glm::vec3 l = glm::normalize(s.light);
  PropsPush pp{.mvp = mvp,
               .sphere = {s.sphere.x, s.sphere.y, s.sphere.z, s.sphere.w * 0.985f},
               .light = {l.x, l.y, l.z, 0},
               .ground = s.ground,
               .mode = 0};
  if (s.sphere_on) {
    props_.bind(cmd, {}, pp);
    vkCmdDraw(cmd, kSphereSlices * kSphereStacks * 6, 1, 0, 0);
  }
  if (s.ground_on) {
    pp.mode = 1;
    props_.bind(cmd, {}, pp);
    vkCmdDraw(cmd, 6, 1, 0, 0);
  }
  uint32_t mx = std::min(s.width, kMaxMeshSide), my = std::min(s.height, kMaxMeshSide);
  mesh_.ensure(ctx_, mx, my);
  ClothPush cp{
      .mvp = mvp, .mesh = {int32_t(s.width), int32_t(s.height), int32_t(mx), int32_t(my)}, .light = {l.x, l.y, l.z, 0}};
  cloth_.bind(cmd, {gpu::storage_buffer(positions), gpu::storage_buffer(normals)}, cp);
  mesh_.draw(cmd);
  set_viewport(cmd, 0, 0, float(frame.extent.width), float(frame.extent.height));
}

}  // namespace render
