#include "render/machining/stock_view.h"

#include "shaders/machining/stock_view_push.h"

#include "render/colormap.h"

#include <algorithm>
#include <bit>

namespace render {

using SurfacePush = push::StockPush;  // the blocks: shaders/machining/stock_view_push.h
using push::ToolPush;

namespace {
// World = (x − cx, h·height_scale, y − cy)·scale: the stock fills about [-1, 1].
}  // namespace

StockView::StockView(gpu::Context& ctx) : ctx_(ctx) {
  gpu::GraphicsDesc d;
  d.vert = "machining/stock.vert";
  d.frag = "machining/stock.frag";
  d.push_bytes = sizeof(SurfacePush);
  d.depth_test = true;
  surface_ = gpu::make_graphics(ctx, d);
  d.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  lines_ = gpu::make_graphics(ctx, d);
  d.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  // two pixels a point where the device draws points that wide (stock.vert's kPointSize)
  float point = ctx.large_points && ctx.props.limits.pointSizeRange[1] >= 2.0f ? 2.0f : 1.0f;
  d.vert_spec = {std::bit_cast<int32_t>(point)};
  points_ = gpu::make_graphics(ctx, d);
  gpu::GraphicsDesc t;
  t.vert = "machining/tool.vert";
  t.frag = "machining/tool.frag";
  t.push_bytes = sizeof(ToolPush);
  t.depth_test = true;
  tool_ = gpu::make_graphics(ctx, t);
  lut_ = gpu::Buffer(ctx, 256 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  set_colormap("heat");
  set_field({0.0f});
  set_base({});
}

void StockView::set_colormap(const std::string& name) {
  if (name == colormap_) return;
  lut_.upload(colormap_rgba(name));
  colormap_ = name;
}

void StockView::set_field(const std::vector<float>& values) {
  if (!field_ || field_.size() < values.size() * 4)
    field_ =
        gpu::Buffer(ctx_, values.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  field_.upload(values);
}

void StockView::set_base(const std::vector<float>& values) {
  size_t bytes = std::max<size_t>(values.size(), 1) * 4;
  if (!base_ || base_.size() != bytes)
    base_ = gpu::Buffer(ctx_, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  if (!values.empty()) base_.upload(values);
}

void StockView::draw(VkCommandBuffer cmd, const Frame& frame, const gpu::Buffer& heights, const gpu::Buffer& tool,
                     const StockScene& s, const OrbitCamera& camera) {
  const auto& a = frame.area;
  set_viewport(cmd, float(a.offset.x), float(a.offset.y), float(a.extent.width), float(a.extent.height));
  glm::mat4 mvp = camera.view_proj(float(a.extent.width) / float(std::max(a.extent.height, 1u)));
  float size = std::max(s.nx, s.ny) * s.d, scale = 2.0f / size;
  uint32_t mx = std::min(s.nx, kMaxMeshSide), my = std::min(s.ny, kMaxMeshSide);
  mesh_.ensure(ctx_, mx, my, s.primitive);
  // a field smaller than the stock (not set for it yet) is not read
  StockDisplay display =
      (s.display == StockDisplay::Field || s.display == StockDisplay::DepthField) && field_.size() < 4ull * s.nx * s.ny
          ? StockDisplay::Shaded
          : s.display;
  SurfacePush sp{.mvp = mvp,
                 .grid = {s.x0, s.y0, s.d, s.top},
                 .view = {scale, s.height_scale, std::max(s.max_cut, 1e-6f), float(int(display))},
                 .mesh = {int32_t(s.nx), int32_t(s.ny), int32_t(mx), int32_t(my)},
                 .light = {s.light.x, s.light.y, s.light.z, std::max(s.field_range, 1e-30f)}};
  const gpu::Pipeline& surface = s.primitive == LatticePrimitive::Triangles ? surface_
                                 : s.primitive == LatticePrimitive::Points  ? points_
                                                                            : lines_;
  surface.bind(cmd,
               {gpu::storage_buffer(heights), gpu::storage_buffer(lut_), gpu::storage_buffer(field_),
                gpu::storage_buffer(base_)},
               sp);
  mesh_.draw(cmd);
  if (s.show_tool && s.tool_triangles) {
    glm::mat3 Rt = glm::transpose(s.tool_rotation);
    float cx = s.x0 + 0.5f * float(s.nx - 1) * s.d, cy = s.y0 + 0.5f * float(s.ny - 1) * s.d;
    ToolPush tp{.mvp = mvp,
                .view = {scale, s.height_scale, cx, cy},
                .r0 = {Rt[0].x, Rt[0].y, Rt[0].z, s.tool_tip.x},
                .r1 = {Rt[1].x, Rt[1].y, Rt[1].z, s.tool_tip.y},
                // the tip over the relief: (base - top) + (tip - base) x height_scale, then the shader's x height_scale
                .r2 = {Rt[2].x, Rt[2].y, Rt[2].z,
                       (s.tool_base - s.top) / std::max(s.height_scale, 1e-6f) + (s.tool_tip.z - s.tool_base)}};
    tool_.bind(cmd, {gpu::storage_buffer(tool)}, tp);
    vkCmdDraw(cmd, 3 * s.tool_triangles, 1, 0, 0);
  }
  set_viewport(cmd, 0, 0, float(frame.extent.width), float(frame.extent.height));
}

}  // namespace render
