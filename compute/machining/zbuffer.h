// Z-buffer milling (seed 003, ch. 5–8): a grid of brins (dexels) with one height each,
// lowered to the lowest point of the tool mesh over it at every position of the path.
// Engines: the multithreaded CPU rasterizer (the seed's "CPU Raster", edge functions) and,
// on the GPU, per position ("GPU Raster"), per triangle ("GPU Inverted"), per triangle ×
// position ("GPU Fine"), persistent threads over a work queue, per brin (the N-buffer's
// way, no atomics), and the hardware rasterizer (tool drawn instanced into a depth image).
// The compute engines share one intersection (shaders/machining/zbuffer.glsl, in the tool
// frame, or in the world frame to show §15.3's instability) and an atomic minimum on
// order-preserving integer keys: their heightfields are bit-identical. The hardware
// rasterizer agrees within its depth quantisation.
#pragma once
#include "compute/machining/io/path.h"
#include "compute/machining/io/tool.h"
#include "compute/machining/surface.h"

#include "compute/gpu/pipeline.h"
#include "compute/gpu/profiler.h"

#include <array>
#include <bit>
#include <map>
#include <memory>
#include <optional>

namespace push {
struct EnginePush;  // shaders/machining/machining_push.h
}
namespace exercise {
class UserKernel;  // compute/exercise/user_kernel.h
}

namespace machining {

struct Dispatch;  // work.h
struct WorkPlan;

enum class Engine { Cpu, PerPosition, PerTriangle, Fine, Persistent, PerBrin, Hardware };
const std::vector<std::string>&
engine_names();  // "cpu", "position", "triangle", "fine", "persistent", "brin", "hardware"
Engine engine_from_name(const std::string& name);

// How the compute engines that rasterize (position, triangle, fine, persistent) lower a brin
// (seed 003 ch. 7): atomicMin on order-preserving keys (§7.5.3, the default), a
// compare-and-swap loop (§7.5.2), a spin lock per brin around a read-compare-write (§7.5.1),
// or a plain read-compare-write, a race that can lose a lowering (figure 7.1). The per-brin engine needs none (a brin
// belongs to one invocation), nor the CPU engine (a band of rows or a copy of them belongs to one thread); the hardware
// one has its depth test.
enum class Atomic { Native, Cas, Lock, None };
const std::vector<std::string>& atomic_names();  // "native", "cas", "lock", "none"
Atomic atomic_from_name(const std::string& name);

// The brin-triangle test every engine but the hardware one uses (seed 003 ch. 8): edge
// functions then barycentric interpolation (§8.3, the rasterizer's, the default), Möller–
// Trumbore with the Z-buffer's ray (0, 0, 1) propagated by hand (§8.2), or Möller–Trumbore as
// published for any ray (§8.1). Each computes the same bits on the GPU and the CPU.
enum class HitTest { Edge, Zbuffer, General };
const std::vector<std::string>& hit_test_names();  // "edge", "zbuffer", "general"
HitTest hit_test_from_name(const std::string& name);

// Where the brin-triangle test computes (seed 003 §15.3): in the tool frame, the brin moved by
// the inverse translation and the triangle never translated (§15.3.2, the report's fix, the
// default), or in the world frame, the triangle translated to the position first (§15.3's
// first strategy, which its example and figure 15.3 show unstable in single precision: a
// vertex of the tool's size added to a position of the stock's loses its low bits). Every
// compute engine and the CPU engine honour it, bit for bit alike; not the analytic tool, the
// N-buffer or the hardware engine.
enum class Frame { Tool, World };
const std::vector<std::string>& frame_names();  // "tool", "world"
Frame frame_from_name(const std::string& name);

struct Stock {
  uint32_t nx = 256, ny = 256;  // brins
  float x0 = 0, y0 = 0, d = 1;  // brin (i, j) at (x0 + i·d, y0 + j·d)
  float top = 0;                // starting height (flat stock)
  bool f64 = false;             // heights and the intersection in double (seed 003 §15.4: brins
                                // in 64 bits, triangles and positions in 32); not the hardware engine
  Surface surface;              // the starting surface (surface.h)
  // Seed 003 §5.3, the N-buffer (nbuffer.h): each brin is a ray along the surface's normal and
  // holds its length from the surface (0 uncut, negative cut) instead of a height; single
  // precision, the per-brin and CPU engines.
  bool nbuffer = false;
};

// Order-preserving keys, as the shaders compute them (inline: the CPU engine's inner loop).
inline uint32_t height_key(float h) {
  uint32_t b = std::bit_cast<uint32_t>(h);
  return (b & 0x80000000u) ? ~b : b | 0x80000000u;
}
inline float key_height(uint32_t k) { return std::bit_cast<float>((k & 0x80000000u) ? k & 0x7fffffffu : ~k); }
inline uint64_t height_key(double h) {
  uint64_t b = std::bit_cast<uint64_t>(h);
  return (b & 0x8000000000000000ull) ? ~b : b | 0x8000000000000000ull;
}
inline double key_height(uint64_t k) {
  return std::bit_cast<double>((k & 0x8000000000000000ull) ? k & 0x7fffffffffffffffull : ~k);
}

// The GPU's view of a position: tip, rotation rows, and the placed tool's bounding box.
struct PackedPosition {
  glm::vec4 t, r0, r1, r2;
};
PackedPosition pack(const Position& p, const Mesh& tool);
PackedPosition pack(const Position& p, glm::vec3 tool_lo, glm::vec3 tool_hi);  // the tool's bounding box
glm::mat3 tool_rotation(const Position& p);  // tool frame -> world: +z to the axis, after ω about z

// The seed's CPU engine: threads owning bands of rows (or, on a 5-axis path, runs of positions
// milled into copies of their rows, then merged); the shaders' arithmetic (tool frame) with the
// given brin-triangle test, so the same heights.
// How the CPU engine hands its bands of rows to its threads (SIMSURF §6.2 parallelises the loop
// with OpenMP, whose schedules these are): static, a band a thread, fixed in advance; dynamic
// (the default), up to 8 bands a thread, taken one at a time as threads free up; guided, bands
// taken as threads free up, each half the rows left over the threads, shrinking to 4 tool spans.
// The same heights bit for bit (a 5-axis path's runs of positions are always taken dynamically).
enum class CpuSchedule { Dynamic, Static, Guided };
void mill_cpu(const Stock& s, std::vector<float>& heights, const Mesh& tool, const std::vector<Position>& path,
              uint32_t threads = 0, HitTest test = HitTest::Edge, Frame frame = Frame::Tool,
              CpuSchedule schedule = CpuSchedule::Dynamic);
void mill_cpu(const Stock& s, std::vector<double>& heights, const Mesh& tool, const std::vector<Position>& path,
              uint32_t threads = 0, HitTest test = HitTest::Edge, Frame frame = Frame::Tool,
              CpuSchedule schedule = CpuSchedule::Dynamic);

// The seed's §15.3 example: the intersection of a brin with a triangle, as barycentric
// u, v and the height, computed by translating the triangle (world frame) or the brin
// (tool frame). Returns false if the brin misses the triangle.
struct Intersection {
  float u = 0, v = 0, height = 0;
  bool inside = false;
};
Intersection intersect_world(glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 translation, glm::vec2 brin);
Intersection intersect_tool_frame(glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 translation, glm::vec2 brin);

class Machine {
 public:
  // With `exact`, the engines mill that analytic tool (seed 003 ch. 12; not the hardware
  // engine) and `tool` is only its picture.
  Machine(gpu::Context& ctx, const Stock& stock, const Mesh& tool, const std::vector<Position>& path,
          const AnalyticTool* exact = nullptr);
  const Stock& stock() const { return stock_; }
  size_t positions() const { return path_size_; }
  size_t triangles() const { return triangles_; }

  // The brins' values: heights, or with Stock::nbuffer the rays' lengths along the normals.
  void set_heights(const std::vector<float>& h);
  std::vector<float> heights() const;     // rounded to float in f64 mode
  std::vector<double> heights64() const;  // f64 mode: the double heights
  // Row-major keys for drawing: the heights themselves in 32-bit mode; in f64 mode a 32-bit
  // copy refreshed by record() (keys of the heights rounded to float); for an N-buffer the
  // heights its rays reach (nbuffer_picture.comp).
  const gpu::Buffer& height_keys() const { return stock_.f64 || stock_.nbuffer ? keys32_ : heights_; }

  // Mills positions [first, first + count) with a GPU engine (not Engine::Cpu).
  void record(VkCommandBuffer cmd, Engine e, uint32_t first, uint32_t count, gpu::Profiler* prof = nullptr);
  // How record() lowers brins from now on (pipelines and the locks made when first asked for).
  void set_atomic(Atomic a) { atomic_ = a; }
  Atomic atomic() const { return atomic_; }
  // The brin-triangle test record() and run() use from now on (the CPU engine's too).
  void set_hit_test(HitTest t) { hit_test_ = t; }
  HitTest hit_test() const { return hit_test_; }
  // The frame record() and run() intersect in from now on (the CPU engine's too; a mesh tool's).
  void set_frame(Frame f) { frame_ = f; }
  Frame frame() const { return frame_; }
  // Single precision only: the compute engines built without `precise` and with the driver's
  // division and square root (seed 003 §15.5, fast math) from now on.
  void set_fast_math(bool fast) { fast_math_ = fast && !stock_.f64; }
  bool fast_math() const { return fast_math_; }
  // With Stock::nbuffer: its kernel walks a bounding-volume hierarchy over the tool's triangles
  // (bvh.h: the same lengths, fewer tests) from now on, or tests every triangle (the default).
  void set_nbuffer_bvh(bool on) { bvh_ = on; }
  bool nbuffer_bvh() const { return bvh_; }
  // Seed 003 §6.4.3: the position engine shares a position's triangles among G threads, the
  // triangle engine a triangle's positions (1: the report's engines); and the compute engines'
  // workgroup size (a power of two from 32 to the device's limit; 64 by default).
  void set_granularity(uint32_t g) { parts_ = std::max(1u, g); }
  void set_workgroup(uint32_t size);
  uint32_t granularity() const { return parts_; }
  uint32_t workgroup() const { return group_; }
  // Runs the whole path in submissions of at most `pairs_per_submit` (triangle, position)
  // pairs (seed 003, ch. 4: bounded work per submission); CPU engine included.
  void run(Engine e, double pairs_per_submit = 1 << 24);
  const Mesh& tool() const { return tool_; }
  const std::optional<AnalyticTool>& analytic() const { return analytic_; }
  // Whether the single precision engines divide exactly (through double: needs fp64) and so
  // equal the CPU engine bit for bit on any device; else within an ulp (zbuffer.glsl).
  bool exact_division() const { return ctx_.info.fp64; }
  const std::vector<Position>& path() const { return path_; }

  // The user's kernel of the exercise machining/atomic-lowering (Lab::use_kernel) milling
  // positions [first, first + count) in place of an engine, on the exercise's contract
  // (compute/machining/exercise.cpp): H the brins' 32-bit keys (this stock's buffer), TRI the
  // tool's vertices, POS the positions as PackedPosition, the grid and the counts pushed, an
  // invocation a (triangle, position) pair; in dispatches of at most `most_pairs` pairs (0: as
  // many as the device's workgroup count and kMaxGroups allow, work.h). user_lowering_unfit()
  // says why this stock, tool or device cannot take such a kernel ("" when it can; record_user()
  // throws then). Definitions: user_lowering.cpp.
  std::string user_lowering_unfit(const exercise::UserKernel& k) const;
  void record_user(VkCommandBuffer cmd, const exercise::UserKernel& k, uint32_t first, uint32_t count,
                   gpu::Profiler* prof = nullptr, uint64_t most_pairs = 0);

 private:
  void record_hardware(VkCommandBuffer cmd, uint32_t first, uint32_t count);
  void record_nbuffer(VkCommandBuffer cmd, uint32_t first, uint32_t count);
  push::EnginePush push(const Dispatch& d, const WorkPlan& plan) const;  // a dispatch's push constants
  gpu::Pipeline make_engine(int e, Atomic a, HitTest t, Frame f, bool fast,
                            uint32_t group) const;  // kShaders[e] specialised
  gpu::Context& ctx_;
  Stock stock_;
  Mesh tool_;
  std::optional<AnalyticTool> analytic_;
  uint32_t primitives_ = 0;  // what the engines loop over: the triangles, or 1 (the analytic tool)
  uint32_t cost_ = 1;        // loop iterations a brin-primitive test can take (analytic_cost())
  std::vector<Position> path_;
  size_t path_size_ = 0, triangles_ = 0;
  uint32_t across_ = 1;  // brins along x or y under one triangle (work.h)
  gpu::Buffer heights_, tris_, positions_, queue_, keys32_;
  gpu::Pipeline narrow_;  // f64 -> 32-bit keys for drawing
  gpu::Buffer rays_;      // N-buffer: a brin's normal and surface height (surface_rays())
  gpu::Pipeline nbuffer_, nbuffer_picture_;
  bool bvh_ = false;
  gpu::Pipeline nbuffer_bvh_;         // made with the hierarchy, when first asked for
  gpu::Buffer bvh_nodes_, bvh_tris_;  // the hierarchy and the triangles in its order
  glm::vec4 sphere_{0.0f};            // the tool's bounding sphere (nbuffer.h)
  gpu::Pipeline engines_[6];
  Atomic atomic_ = Atomic::Native;
  HitTest hit_test_ = HitTest::Edge;
  Frame frame_ = Frame::Tool;
  bool fast_math_ = false;
  uint32_t parts_ = 1, group_ = 64;
  std::map<std::array<int, 6>, gpu::Pipeline>
      variants_;       // {engine - 1, atomic, test, frame, fast, group} but the defaults
  gpu::Buffer locks_;  // a lock a brin, zero when free (Atomic::Lock)
  // hardware rasterizer
  gpu::Pipeline hw_draw_, hw_merge_;
  gpu::Image depth_;
  gpu::Buffer depth_copy_;
  float zlo_ = 0, zhi_ = 1;
};

}  // namespace machining
