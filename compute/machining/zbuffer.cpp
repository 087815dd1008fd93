#include "compute/machining/zbuffer.h"

#include "shaders/machining/machining_push.h"

#include "compute/machining/analytic.h"
#include "compute/machining/bvh.h"
#include "compute/machining/nbuffer.h"
#include "compute/machining/work.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace machining {

namespace {
const char* kShaders[5] = {"machining/per_position", "machining/per_triangle", "machining/fine", "machining/persistent",
                           "machining/per_brin"};

using push::EnginePush;  // the blocks: shaders/machining/machining_push.h
using push::HwPush;

Intersection intersect(glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec2 p, float z0) {
  Intersection r;
  float area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  float w0 = (c.x - b.x) * (p.y - b.y) - (c.y - b.y) * (p.x - b.x);
  float w1 = (a.x - c.x) * (p.y - c.y) - (a.y - c.y) * (p.x - c.x);
  float w2 = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
  r.inside = area > 0 ? (w0 >= 0 && w1 >= 0 && w2 >= 0) : (w0 <= 0 && w1 <= 0 && w2 <= 0);
  r.u = w1 / area, r.v = w2 / area;
  r.height = z0 + (w0 * a.z + w1 * b.z + w2 * c.z) / area;
  return r;
}
}  // namespace

namespace {
// The position of `name` among `names`; an error naming the choices otherwise.
size_t choice(const std::vector<std::string>& names, const std::string& name, const char* what) {
  auto it = std::find(names.begin(), names.end(), name);
  if (it != names.end()) return size_t(it - names.begin());
  std::string list;
  for (auto& n : names) list += (list.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown " + std::string(what) + " '" + name + "' (" + list + ")");
}
}  // namespace

const std::vector<std::string>& engine_names() {
  static const std::vector<std::string> n = {"cpu", "position", "triangle", "fine", "persistent", "brin", "hardware"};
  return n;
}
Engine engine_from_name(const std::string& name) { return Engine(choice(engine_names(), name, "engine")); }

const std::vector<std::string>& atomic_names() {
  static const std::vector<std::string> n = {"native", "cas", "lock", "none"};
  return n;
}
Atomic atomic_from_name(const std::string& name) { return Atomic(choice(atomic_names(), name, "atomic")); }

const std::vector<std::string>& hit_test_names() {
  static const std::vector<std::string> n = {"edge", "zbuffer", "general"};
  return n;
}
HitTest hit_test_from_name(const std::string& name) { return HitTest(choice(hit_test_names(), name, "intersection")); }

const std::vector<std::string>& frame_names() {
  static const std::vector<std::string> n = {"tool", "world"};
  return n;
}
Frame frame_from_name(const std::string& name) { return Frame(choice(frame_names(), name, "intersection frame")); }

glm::mat3 tool_rotation(const Position& p) {
  float c = std::cos(p.omega), s = std::sin(p.omega);
  glm::mat3 spin(glm::vec3(c, s, 0), glm::vec3(-s, c, 0), glm::vec3(0, 0, 1));  // columns
  glm::vec3 z(0, 0, 1), a = glm::normalize(p.axis);
  glm::vec3 k = glm::cross(z, a);
  float sn = glm::length(k), cs = a.z;
  glm::mat3 tilt(1.0f);
  if (sn > 1e-7f) {
    k /= sn;
    glm::mat3 K(glm::vec3(0, k.z, -k.y), glm::vec3(-k.z, 0, k.x), glm::vec3(k.y, -k.x, 0));
    tilt = glm::mat3(1.0f) + sn * K + (1 - cs) * K * K;
  } else if (cs < 0) {
    tilt = glm::mat3(glm::vec3(1, 0, 0), glm::vec3(0, -1, 0), glm::vec3(0, 0, -1));
  }
  return tilt * spin;
}

PackedPosition pack(const Position& p, const Mesh& tool) { return pack(p, tool.lo(), tool.hi()); }

PackedPosition pack(const Position& p, glm::vec3 lo, glm::vec3 hi) {
  glm::mat3 R = tool_rotation(p);
  glm::vec2 blo(INFINITY), bhi(-INFINITY);
  for (int k = 0; k < 8; ++k) {
    glm::vec3 corner((k & 1) ? hi.x : lo.x, (k & 2) ? hi.y : lo.y, (k & 4) ? hi.z : lo.z);
    glm::vec3 w = R * corner;
    blo = glm::min(blo, glm::vec2(w)), bhi = glm::max(bhi, glm::vec2(w));
  }
  glm::mat3 Rt = glm::transpose(R);  // rows of R as columns
  return {glm::vec4(p.tip, bhi.y), glm::vec4(Rt[0], blo.x), glm::vec4(Rt[1], blo.y), glm::vec4(Rt[2], bhi.x)};
}

Intersection intersect_world(glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 tr, glm::vec2 brin) {
  return intersect(a + tr, b + tr, c + tr, brin, 0.0f);
}

Intersection intersect_tool_frame(glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 tr, glm::vec2 brin) {
  return intersect(a, b, c, brin - glm::vec2(tr), tr.z);
}

Machine::Machine(gpu::Context& ctx, const Stock& stock, const Mesh& tool, const std::vector<Position>& path,
                 const AnalyticTool* exact)
    : ctx_(ctx), stock_(stock), tool_(tool), path_(path), path_size_(path.size()), triangles_(tool.triangles()) {
  if (stock.nx < 2 || stock.ny < 2 || !(stock.d > 0))
    throw std::invalid_argument("stock: at least 2 x 2 brins, spacing > 0");
  if (tool.triangles() == 0) throw std::invalid_argument("tool: no triangles");
  if (path.empty()) throw std::invalid_argument("path: no positions");
  check_surface(stock);
  if (stock.nbuffer && (stock.f64 || exact))
    throw std::invalid_argument("the N-buffer is single precision and intersects a triangle mesh");
  VkBufferUsageFlags usage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  if (stock.f64 && !ctx.int64_atomics)
    throw std::invalid_argument(
        "double precision needs shaderFloat64, shaderInt64 and 64-bit buffer atomics; this device lacks some of them "
        "(MoltenVK's on a Mac has neither fp64 nor 64-bit atomics): set precision=single");
  gpu::require_buffer(ctx, (stock.f64 ? 8ull : 4ull) * stock.nx * stock.ny,
                      "machining stock of " + std::to_string(stock.nx) + " x " + std::to_string(stock.ny) + " brins");
  heights_ = gpu::Buffer(ctx, (stock.f64 ? 8ull : 4ull) * stock.nx * stock.ny, usage);
  if (stock.f64 || stock.nbuffer) keys32_ = gpu::Buffer(ctx, 4ull * stock.nx * stock.ny, usage);
  if (stock.f64) narrow_ = gpu::make_compute(ctx, "machining/narrow.comp", sizeof(push::NarrowPush));
  if (stock.nbuffer) {
    gpu::require_buffer(ctx, 16ull * stock.nx * stock.ny, "N-buffer rays");
    rays_ = gpu::Buffer(ctx, 16ull * stock.nx * stock.ny, usage);
    rays_.upload(surface_rays(stock));
    sphere_ = bounding_sphere(tool);
    nbuffer_picture_ = gpu::make_compute(ctx, "machining/nbuffer_picture.comp", sizeof(push::NarrowPush));
  }
  std::vector<glm::vec4> tris;
  if (exact) {
    analytic_ = *exact;
    tris = analytic_table(*exact);
    cost_ = analytic_cost(*exact, path);
  } else {
    for (auto& v : tool.vertices) tris.emplace_back(v, 0.0f);
  }
  primitives_ = exact ? 1 : uint32_t(triangles_);
  tris_ = gpu::Buffer(ctx, tris.size() * 16, usage);
  tris_.upload(tris);
  std::vector<PackedPosition> packed;
  float zmin = INFINITY;
  glm::vec3 lo = exact ? exact->lo() : tool.lo(), hi = exact ? exact->hi() : tool.hi();
  for (auto& p : path) packed.push_back(pack(p, lo, hi)), zmin = std::min(zmin, p.tip.z);
  positions_ = gpu::Buffer(ctx, packed.size() * sizeof(PackedPosition), usage);
  positions_.upload(packed);
  queue_ = gpu::Buffer(ctx, 16, usage);
  // An analytic tool's box is as wide as its diagonal at most, whatever the rotation.
  across_ = std::min(exact ? uint32_t(std::min(std::floor(double(glm::length(hi - lo)) / stock.d) + 2, 1e9))
                           : brins_across(tool, stock.d),
                     std::max(stock.nx, stock.ny));
  for (int e = 0; e < 5; ++e) engines_[e] = make_engine(e, Atomic::Native, HitTest::Edge, Frame::Tool, false, 64);
  glm::vec3 size = hi - lo;
  zlo_ = zmin - glm::length(size) - 1.0f;
  zhi_ = stock.top + 1.0f;
  set_heights(stock.nbuffer ? std::vector<float>(size_t(stock.nx) * stock.ny, 0.0f) : surface_heights(stock));
}

void Machine::set_workgroup(uint32_t size) {
  if (size < 32 || (size & (size - 1)) || size > ctx_.props.limits.maxComputeWorkGroupSize[0] ||
      size > ctx_.props.limits.maxComputeWorkGroupInvocations)
    throw std::invalid_argument("workgroup size " + std::to_string(size) +
                                ": a power of two from 32 to this device's limit (" +
                                std::to_string(ctx_.props.limits.maxComputeWorkGroupSize[0]) + ")");
  group_ = size;
}

gpu::Pipeline Machine::make_engine(int e, Atomic a, HitTest t, Frame f, bool fast, uint32_t group) const {
  std::string name = std::string(kShaders[e]) + (stock_.f64         ? ".f64"
                                                 : fast             ? ".f32fast"
                                                 : exact_division() ? ".f32x"
                                                                    : ".f32");
  // lavapipe: the lock without acquire and release (zbuffer.glsl says why)
  const bool ordered_lock = ctx_.info.name.find("llvmpipe") == std::string::npos;
  return gpu::make_compute(ctx_, name, sizeof(EnginePush),
                           {int32_t(a), ordered_lock, int32_t(t), analytic_ ? 1 : 0, int32_t(group), int32_t(f)});
}

void Machine::set_heights(const std::vector<float>& h) {
  if (h.size() != size_t(stock_.nx) * stock_.ny) throw std::invalid_argument("heights do not match the stock");
  float top = -INFINITY;
  for (float v : h) top = std::max(top, v);
  if (stock_.f64) {
    std::vector<uint64_t> keys(h.size());
    std::vector<uint32_t> narrow(h.size());
    for (size_t i = 0; i < h.size(); ++i) keys[i] = height_key(double(h[i])), narrow[i] = height_key(h[i]);
    heights_.upload(keys);
    keys32_.upload(narrow);
  } else {
    std::vector<uint32_t> keys(h.size());
    for (size_t i = 0; i < h.size(); ++i) keys[i] = height_key(h[i]);
    heights_.upload(keys);
  }
  if (stock_.nbuffer) {  // the picture's heights, as nbuffer_picture.comp computes them
    auto rays = surface_rays(stock_);
    std::vector<uint32_t> keys(h.size());
    for (size_t i = 0; i < h.size(); ++i)
      keys[i] = height_key(rays[i].w + h[i] * rays[i].z), top = std::max(top, rays[i].w);
    keys32_.upload(keys);
  }
  zhi_ = std::max(zhi_, top + 1.0f);
}

std::vector<float> Machine::heights() const {
  std::vector<float> h(size_t(stock_.nx) * stock_.ny);
  if (stock_.f64) {
    auto d = heights64();
    for (size_t i = 0; i < h.size(); ++i) h[i] = float(d[i]);
    return h;
  }
  auto keys = heights_.download<uint32_t>();
  for (size_t i = 0; i < h.size(); ++i) h[i] = key_height(keys[i]);
  return h;
}

std::vector<double> Machine::heights64() const {
  if (!stock_.f64) throw std::logic_error("heights64: a single precision stock");
  auto keys = heights_.download<uint64_t>();
  std::vector<double> h(keys.size());
  for (size_t i = 0; i < h.size(); ++i) h[i] = key_height(keys[i]);
  return h;
}

void Machine::record(VkCommandBuffer cmd, Engine e, uint32_t first, uint32_t count, gpu::Profiler* prof) {
  if (e == Engine::Cpu) throw std::invalid_argument("the CPU engine does not record GPU work");
  count = uint32_t(std::min<size_t>(count, path_size_ - std::min<size_t>(first, path_size_)));
  if (!count) return;
  uint32_t scope = prof ? prof->begin(cmd, "machining." + engine_names()[size_t(e)], 0, 0, count) : 0;
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  if (e == Engine::Hardware) {
    if (stock_.f64) throw std::invalid_argument("the hardware engine's depth image is single precision only");
    if (analytic_) throw std::invalid_argument("the hardware engine draws triangles: not an analytic tool");
    record_hardware(cmd, first, count);
  } else if (stock_.nbuffer) {
    if (e != Engine::PerBrin) throw std::invalid_argument("the N-buffer runs on the brin engine and the CPU one");
    record_nbuffer(cmd, first, count);
  } else {
    const auto& s = stock_;
    auto plan = plan_work(e, primitives_, first, count, s.nx * s.ny, across_, kLoopBudget / cost_, parts_, group_);
    const int k = int(e) - 1;
    const bool rasterizing = e != Engine::PerBrin;
    const Atomic a = rasterizing ? atomic_ : Atomic::Native;  // the per-brin engine lowers no shared brin
    if (a == Atomic::Lock && !locks_) {
      locks_ =
          gpu::Buffer(ctx_, 4ull * s.nx * s.ny, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
      vkCmdFillBuffer(cmd, locks_.handle(), 0, VK_WHOLE_SIZE, 0);
      gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    }
    gpu::Pipeline* chosen = &engines_[k];
    const Frame f = analytic_ ? Frame::Tool : frame_;  // an analytic tool has no triangle to move
    if (a != Atomic::Native || hit_test_ != HitTest::Edge || f != Frame::Tool || fast_math_ || group_ != 64) {
      auto& v = variants_[{k, int(a), int(hit_test_), int(f), int(fast_math_), int(group_)}];
      if (!v) v = make_engine(k, a, hit_test_, f, fast_math_, group_);
      chosen = &v;
    }
    auto& pipe = *chosen;
    // Binding 4, the locks, is read only in the lock mode; the heights stand in elsewhere.
    const gpu::Buffer& locks = a == Atomic::Lock ? locks_ : heights_;
    for (size_t k = 0; k < plan.dispatches.size(); ++k) {
      const Dispatch& d = plan.dispatches[k];
      if (k > 0)  // the atomic minima commute, but Vulkan orders writes only through barriers
        gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                     VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                         VK_ACCESS_2_TRANSFER_WRITE_BIT);
      if (e == Engine::Persistent) {
        vkCmdFillBuffer(cmd, queue_.handle(), 0, 16, 0);
        gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                     VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
      }
      EnginePush p = push(d, plan);
      pipe.bind(cmd,
                {gpu::storage_buffer(heights_), gpu::storage_buffer(tris_), gpu::storage_buffer(positions_),
                 gpu::storage_buffer(queue_), gpu::storage_buffer(locks)},
                p);
      vkCmdDispatch(cmd, d.groups, 1, 1);
    }
  }
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  if (stock_.f64) {  // the picture's 32-bit keys
    uint32_t n = stock_.nx * stock_.ny;
    narrow_.bind(cmd, {gpu::storage_buffer(heights_), gpu::storage_buffer(keys32_)}, push::NarrowPush{.n = n});
    narrow_.dispatch(cmd, n);
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  }
  if (prof) prof->end(cmd, scope);
}

EnginePush Machine::push(const Dispatch& d, const WorkPlan& plan) const {
  const auto& s = stock_;
  return {s.nx,
          s.ny,
          s.x0,
          s.y0,
          s.d,
          d.tri_first,
          d.tri_count,
          d.pos_first,
          d.pos_count,
          d.slice,
          plan.slice_rows,
          d.brin_first,
          d.brin_count,
          plan.takes,
          plan.per_take,
          plan.parts,
          sphere_.x,
          sphere_.y,
          sphere_.z,
          sphere_.w};
}

void Machine::record_nbuffer(VkCommandBuffer cmd, uint32_t first, uint32_t count) {
  const auto& s = stock_;
  const std::string variant = exact_division() ? ".f32x" : ".f32";
  if (!nbuffer_)
    nbuffer_ =
        gpu::make_compute(ctx_, "machining/nbuffer" + variant, sizeof(EnginePush), {0, 0, 0, 0, int32_t(group_)});
  if (bvh_ && !nbuffer_bvh_) {  // the hierarchy, once (bvh.h)
    const Bvh h = build_bvh(tool_);
    std::vector<glm::vec4> tris;
    for (auto& v : in_bvh_order(tool_, h).vertices) tris.emplace_back(v, 0.0f);
    auto usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    bvh_tris_ = gpu::Buffer(ctx_, tris.size() * 16, usage);
    bvh_tris_.upload(tris);
    bvh_nodes_ = gpu::Buffer(ctx_, h.nodes.size() * sizeof(BvhNode), usage);
    bvh_nodes_.upload(h.nodes.data(), h.nodes.size() * sizeof(BvhNode));
    nbuffer_bvh_ =
        gpu::make_compute(ctx_, "machining/nbuffer_bvh" + variant, sizeof(EnginePush), {0, 0, 0, 0, int32_t(group_)});
  }
  const gpu::Pipeline& kernel = bvh_ ? nbuffer_bvh_ : nbuffer_;
  auto plan = plan_work(Engine::PerBrin, primitives_, first, count, s.nx * s.ny, across_, kLoopBudget, 1, group_);
  for (size_t k = 0; k < plan.dispatches.size(); ++k) {
    if (k > 0)  // a brin's key is read and written again by the next run of positions
      gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    std::vector<gpu::Bind> binds = {gpu::storage_buffer(heights_),   gpu::storage_buffer(bvh_ ? bvh_tris_ : tris_),
                                    gpu::storage_buffer(positions_), gpu::storage_buffer(queue_),
                                    gpu::storage_buffer(heights_),   gpu::storage_buffer(rays_)};
    if (bvh_) binds.push_back(gpu::storage_buffer(bvh_nodes_));
    kernel.bind(cmd, binds, push(plan.dispatches[k], plan));
    vkCmdDispatch(cmd, plan.dispatches[k].groups, 1, 1);
  }
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
               VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  uint32_t n = s.nx * s.ny;
  nbuffer_picture_.bind(cmd, {gpu::storage_buffer(heights_), gpu::storage_buffer(rays_), gpu::storage_buffer(keys32_)},
                        push::NarrowPush{.n = n});
  nbuffer_picture_.dispatch(cmd, n);
}

void Machine::record_hardware(VkCommandBuffer cmd, uint32_t first, uint32_t count) {
  const auto& s = stock_;
  if (!hw_draw_) {
    if (s.nx > ctx_.props.limits.maxFramebufferWidth || s.ny > ctx_.props.limits.maxFramebufferHeight)
      throw std::invalid_argument("hardware engine: the stock is larger than the largest framebuffer");
    gpu::GraphicsDesc g;
    g.vert = "machining/hw.vert";
    g.frag = "machining/hw.frag";
    g.push_bytes = sizeof(HwPush);
    g.depth_test = true;
    g.depth_compare = VK_COMPARE_OP_LESS;
    g.color_format = VK_FORMAT_UNDEFINED;
    hw_draw_ = gpu::make_graphics(ctx_, g);
    hw_merge_ = gpu::make_compute(ctx_, "machining/hw_merge.comp", sizeof(HwPush));
    depth_ = gpu::Image(ctx_, s.nx, s.ny, VK_FORMAT_D32_SFLOAT,
                        VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                        VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL);
    depth_copy_ =
        gpu::Buffer(ctx_, 4ull * s.nx * s.ny, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  }
  HwPush p{.nx = s.nx, .ny = s.ny, .x0 = s.x0, .y0 = s.y0, .d = s.d, .zlo = zlo_, .zhi = zhi_, .pos_first = first};
  gpu::begin_depth_pass(cmd, depth_, s.nx, s.ny, true);
  hw_draw_.bind(cmd, {gpu::storage_buffer(tris_), gpu::storage_buffer(positions_)}, p);
  vkCmdDraw(cmd, uint32_t(3 * triangles_), count, 0, 0);
  vkCmdEndRendering(cmd);
  gpu::transition(cmd, depth_.handle(), VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                  VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
  region.imageExtent = {s.nx, s.ny, 1};
  vkCmdCopyImageToBuffer(cmd, depth_.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, depth_copy_.handle(), 1, &region);
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
               VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  hw_merge_.bind(cmd, {gpu::storage_buffer(heights_), gpu::storage_buffer(depth_copy_)}, p);
  hw_merge_.dispatch(cmd, s.nx * s.ny);
}

void Machine::run(Engine e, double pairs_per_submit) {
  if (e == Engine::Cpu) {
    if (stock_.f64) {
      auto h = heights64();
      if (analytic_)
        mill_analytic_cpu(stock_, h, *analytic_, path_);
      else
        mill_cpu(stock_, h, tool_, path_, 0, hit_test_, frame_);
      std::vector<uint64_t> keys(h.size());
      for (size_t i = 0; i < h.size(); ++i) keys[i] = height_key(h[i]);
      heights_.upload(keys);
      return;
    }
    auto h = heights();
    if (analytic_)
      mill_analytic_cpu(stock_, h, *analytic_, path_);
    else
      mill_cpu(stock_, h, tool_, path_, 0, hit_test_, frame_);
    set_heights(h);
    return;
  }
  uint32_t chunk =
      uint32_t(std::clamp<double>(pairs_per_submit / double(analytic_ ? across_ * cost_ : triangles_), 1, 1 << 20));
  for (size_t first = 0; first < path_size_; first += chunk)
    ctx_.submit_now([&](VkCommandBuffer cmd) { record(cmd, e, uint32_t(first), chunk); });
}

}  // namespace machining
