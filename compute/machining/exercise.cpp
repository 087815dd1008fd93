// The machining lab's exercises (Abecassis 2012, SIMSURF): the brin-triangle intersection
// (§8.3, below), and (ch. 7) the Z-buffer's lowering made atomic: one invocation a (triangle,
// position) pair lowers every brin under the placed triangle to the tool's height there; pairs
// that cover the same brin run at once, so a plain read-compare-write loses lowerings (the
// report's figure 7.1). Heights are order-preserving keys (§15.1), so an atomicMin on them is
// the float minimum. Twin: machining::mill_cpu, the lab's CPU engine; shipped kernel: the
// lab's "GPU Fine" engine (per triangle × position).
#include "compute/exercise/operator.h"
#include "compute/machining/cpu_edges.h"
#include "compute/machining/zbuffer.h"

#include <cmath>
#include <sstream>

namespace exercise {

namespace {

struct Setup {
  machining::Stock stock;
  machining::Mesh tool;
  std::vector<machining::Position> path;
};

// The heights the lab's CPU engine leaves: both operators' twin.
std::vector<float> cpu_milled(const Setup& s) {
  std::vector<float> h = machining::surface_heights(s.stock);
  machining::mill_cpu(s.stock, h, s.tool, s.path);
  return h;
}

// The case's stock, ball-end tool and path: positions `step` apart along x, each `rise`
// higher than the one before (so that, of pairs racing for a brin, the later is not the lowest).
Setup setup_of(const Case& c) {
  Setup s;
  s.stock.nx = c.u("nx"), s.stock.ny = c.u("ny");
  s.stock.d = c.f("d"), s.stock.top = c.f("top");
  s.stock.x0 = 0, s.stock.y0 = 0;
  s.tool = machining::ball_end(c.f("radius"), c.u("slices"));
  uint32_t n = c.u("positions");
  for (uint32_t k = 0; k < n; ++k) {
    machining::Position p;
    p.tip = glm::vec3(c.f("x") + float(k) * c.f("step"), c.f("y"), c.f("z") + float(k) * c.f("rise"));
    s.path.push_back(p);
  }
  return s;
}

struct Push {
  uint32_t nx, ny;
  float x0, y0, d;
  uint32_t tri_count, pos_count;
};

class Lowering : public Operator {
 public:
  std::string id() const override { return "machining.lowering"; }
  std::string shipped_kernel() const override { return "shaders/machining/fine.prec.comp (zbuffer.glsl's lower())"; }
  Problem problem(const gpu::Context&, const Case& c, gpu::Dim3) const override {
    Setup s = setup_of(c);
    std::vector<uint32_t> keys;
    for (float h : machining::surface_heights(s.stock)) keys.push_back(machining::height_key(h));
    std::vector<float> tris, pos;
    for (auto& v : s.tool.vertices) tris.insert(tris.end(), {v.x, v.y, v.z, 0.0f});
    for (auto& p : s.path) {
      machining::PackedPosition q = machining::pack(p, s.tool);
      for (const glm::vec4& r : {q.t, q.r0, q.r1, q.r2}) pos.insert(pos.end(), {r.x, r.y, r.z, r.w});
    }
    Problem p;
    p.arrays = {Array{"H", Array::Role::InOut, Elem::HeightKey, 1, s.stock.nx, keys},
                Array{"TRI", Array::Role::In, Elem::F32, 4, 0, words_of(tris)},
                Array{"POS", Array::Role::In, Elem::F32, 16, 0, words_of(pos)}};
    uint32_t triangles = uint32_t(s.tool.triangles()), positions = uint32_t(s.path.size());
    p.set_push(Push{.nx = s.stock.nx,
                    .ny = s.stock.ny,
                    .x0 = s.stock.x0,
                    .y0 = s.stock.y0,
                    .d = s.stock.d,
                    .tri_count = triangles,
                    .pos_count = positions});
    p.invocations = {triangles * positions, 1, 1};
    return p;
  }
  std::vector<Want> twin(const Case& c, const Problem&) const override {
    std::vector<float> h = cpu_milled(setup_of(c));
    Want w;
    w.value.assign(h.begin(), h.end());
    return {w, {}, {}};
  }
  ShippedRun shipped(gpu::Context& ctx, const Case& c, const Problem&) const override {
    Setup s = setup_of(c);
    machining::Machine m(ctx, s.stock, s.tool, s.path);
    ShippedRun r;
    r.ms = timed_submit(ctx, [&](VkCommandBuffer cmd) {
      m.record(cmd, machining::Engine::Fine, 0, uint32_t(s.path.size()));
      gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT);
    });
    std::vector<uint32_t> keys;
    for (float h : m.heights()) keys.push_back(machining::height_key(h));
    r.words = {keys, {}, {}};
    return r;
  }
  std::string inputs_at(const Case& c, const Problem&, size_t, size_t e) const override {
    Setup s = setup_of(c);
    uint32_t i = uint32_t(e % s.stock.nx), j = uint32_t(e / s.stock.nx);
    glm::vec2 brin(s.stock.x0 + float(i) * s.stock.d, s.stock.y0 + float(j) * s.stock.d);
    // The (triangle, position) pairs over this brin: how many race for it, and the lowest.
    uint32_t over = 0;
    float lowest = INFINITY;
    size_t at_pos = 0, at_tri = 0;
    for (size_t p = 0; p < s.path.size(); ++p)
      for (size_t t = 0; t < s.tool.triangles(); ++t) {
        auto hit = machining::intersect_tool_frame(s.tool.vertices[3 * t], s.tool.vertices[3 * t + 1],
                                                   s.tool.vertices[3 * t + 2], s.path[p].tip, brin);
        if (!hit.inside) continue;
        ++over;
        if (hit.height < lowest) lowest = hit.height, at_pos = p, at_tri = t;
      }
    std::ostringstream out;
    out.precision(9);
    out << "brin (" << i << ", " << j << ") at (" << brin.x << ", " << brin.y << "), starting at " << s.stock.top
        << "; " << over << " (triangle, position) pairs lower it";
    if (over)
      out << ", the lowest to " << lowest << " (triangle " << at_tri << " at position " << at_pos << ", invocation "
          << at_tri * s.path.size() + at_pos << ")";
    return out.str();
  }
};

// The intersection exercise's stock and tool at one position: a ball-end tool (wound the other
// way with "flip": each triangle's second and third vertices swapped) with its tip at (x, y, z)
// over an nx x ny stock of brins d apart from (x0, y0), flat at `top`.
Setup intersection_setup_of(const Case& c) {
  Setup s;
  s.stock.nx = c.u("nx"), s.stock.ny = c.u("ny");
  s.stock.d = c.f("d"), s.stock.top = c.f("top");
  s.stock.x0 = c.values.value("x0", 0.0f), s.stock.y0 = c.values.value("y0", 0.0f);
  s.tool = machining::ball_end(c.f("radius"), c.u("slices"));
  if (c.values.value("flip", false))
    for (size_t t = 0; t < s.tool.triangles(); ++t) std::swap(s.tool.vertices[3 * t + 1], s.tool.vertices[3 * t + 2]);
  machining::Position p;
  p.tip = glm::vec3(c.f("x"), c.f("y"), c.f("z"));
  s.path = {p};
  return s;
}

// The tool's triangles placed at the position (rotated, in the tool frame: relative to the tip).
std::vector<machining::Placed> placed_triangles(const Setup& s) {
  machining::PackedPosition q = machining::pack(s.path[0], s.tool);
  std::vector<machining::Placed> out;
  for (size_t t = 0; t < s.tool.triangles(); ++t) out.push_back(machining::place(q, &s.tool.vertices[3 * t]));
  return out;
}

struct IntersectionPush {
  uint32_t nx, ny;
  float x0, y0, d;
  uint32_t tri_count;
  float tip_x, tip_y, tip_z;
};

// The engines' brin-triangle intersection (Abecassis 2012, SIMSURF, §8.3, the rasterizer's
// test): is the brin under the placed triangle (edge functions, edges included, either
// winding), and if so the height there (barycentric interpolation), kept if lower. One
// invocation a brin looks at every triangle (the per-brin engine's way, no atomics). Twin:
// machining::mill_cpu, the lab's CPU engine; shipped kernel: the per-brin engine (its hit()).
class Intersection : public Operator {
 public:
  std::string id() const override { return "machining.intersection"; }
  std::string shipped_kernel() const override {
    return "shaders/machining/per_brin.prec.comp (zbuffer.glsl's hit_edge())";
  }
  Problem problem(const gpu::Context&, const Case& c, gpu::Dim3) const override {
    Setup s = intersection_setup_of(c);
    std::vector<float> tris;
    for (auto& t : placed_triangles(s))
      for (const glm::vec3& v : {t.a, t.b, t.c}) tris.insert(tris.end(), {v.x, v.y, v.z, 0.0f});
    Problem p;
    p.arrays = {Array{"H", Array::Role::InOut, Elem::F32, 1, s.stock.nx, words_of(machining::surface_heights(s.stock))},
                Array{"TRI", Array::Role::In, Elem::F32, 4, 0, words_of(tris)}};
    glm::vec3 tip = s.path[0].tip;
    p.set_push(IntersectionPush{.nx = s.stock.nx,
                                .ny = s.stock.ny,
                                .x0 = s.stock.x0,
                                .y0 = s.stock.y0,
                                .d = s.stock.d,
                                .tri_count = uint32_t(s.tool.triangles()),
                                .tip_x = tip.x,
                                .tip_y = tip.y,
                                .tip_z = tip.z});
    p.invocations = {s.stock.nx, s.stock.ny, 1};
    return p;
  }
  std::vector<Want> twin(const Case& c, const Problem&) const override {
    std::vector<float> h = cpu_milled(intersection_setup_of(c));
    Want w;
    w.value.assign(h.begin(), h.end());
    // A height is the tip's plus one below it of the tool's size: rounding is measured on that.
    w.scale.assign(h.size(), std::fabs(double(c.f("z"))) + 2.0 * c.f("radius"));
    return {w, {}};
  }
  ShippedRun shipped(gpu::Context& ctx, const Case& c, const Problem&) const override {
    Setup s = intersection_setup_of(c);
    machining::Machine m(ctx, s.stock, s.tool, s.path);
    ShippedRun r;
    r.ms = timed_submit(ctx, [&](VkCommandBuffer cmd) {
      m.record(cmd, machining::Engine::PerBrin, 0, 1);
      gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT);
    });
    r.words = {words_of(m.heights()), {}};
    return r;
  }
  std::string inputs_at(const Case& c, const Problem&, size_t, size_t e) const override {
    Setup s = intersection_setup_of(c);
    uint32_t i = uint32_t(e % s.stock.nx), j = uint32_t(e / s.stock.nx);
    glm::vec3 tip = s.path[0].tip;
    float px = (s.stock.x0 + float(i) * s.stock.d) - tip.x, py = (s.stock.y0 + float(j) * s.stock.d) - tip.y;
    uint32_t over = 0;
    float lowest = INFINITY;
    size_t at = 0;
    auto placed = placed_triangles(s);
    for (size_t t = 0; t < placed.size(); ++t) {
      machining::Edges<float> edges(placed[t]);
      float z = 0;
      if (edges.area == 0 || !edges.hit(px, py, z)) continue;
      ++over;
      if (z < lowest) lowest = z, at = t;
    }
    std::ostringstream out;
    out.precision(9);
    out << "brin (" << i << ", " << j << "), " << px << ", " << py << " from the tip, starting at " << s.stock.top
        << "; under " << over << " triangles";
    if (over) out << ", the lowest triangle " << at << ", " << lowest << " above the tip (" << tip.z + lowest << ")";
    return out.str();
  }
};

}  // namespace

std::vector<std::unique_ptr<Operator>> machining_operators() {
  std::vector<std::unique_ptr<Operator>> v;
  v.push_back(std::make_unique<Lowering>());
  v.push_back(std::make_unique<Intersection>());
  return v;
}

}  // namespace exercise
