// Cloth after Jakobsen as in Bleton 2005 §4.1: a grid of equal-mass particles, Verlet
// integration x' = (1+d)·x − d·x* + a·Δt² (d <= 1 replaces the 2 of eq. 4.1 and damps),
// then n_iter relaxations of distance constraints to the 4 neighbours (plus shear and
// bend springs if asked), a sphere and a ground no particle may enter, pinned particles.
//
// The relaxation runs either as the thesis's sub-streams — interior, 4 edges, 4 corners,
// each its own dispatch of a kernel specialised for the borders it may touch — or as one
// kernel that tests every border (branching); both do the same arithmetic in the same
// order, so their positions are bit-identical. Order: Jacobi (each particle gathers its
// neighbours' corrections from the previous iterate, as the thesis — this is where the
// sub-streams apply) or coloured Gauss–Seidel (constraint by constraint as Jakobsen
// relaxes them, each colour a set of edges no two of which share a particle; edges lie
// inside the grid, so there is no border to branch on). Gauss–Seidel runs a dispatch a
// colour, or (method = tiles, the default) many colours a dispatch in shared memory (tiles.h).
#pragma once
#include "compute/gpu/pipeline.h"
#include "compute/gpu/profiler.h"

#include <glm/glm.hpp>

#include <array>
#include <memory>
#include <vector>

namespace cloth {

enum class Branching { SubStreams, Branching };
enum class Order { Jacobi, GaussSeidel };
// kernels: Verlet and the relaxations as kernels of their own (below); shift: 'VERLET SUR GPU'
// as the thesis wrote it, through the linear algebra operators and shift matrices (shift.h);
// tiles: Gauss–Seidel's substep in a few dispatches, each workgroup relaxing a tile of the cloth
// in shared memory (tiles.h; Jacobi, the thesis's order, keeps its kernels).
enum class Method { Kernels, ShiftMatrices, Tiles };
// What a Jacobi relaxation does with the corrections it gathers (relaxation_scale()):
// thesis: each spring moves the particle by ½ of the gap, (|AB| − l)/|AB|·AB (§4.1.1; ½
// next to a pinned particle too: the thesis has no masses), the springs' moves summed and
// multiplied by stiffness as gpuVerlet does (Annex II.6); it overshoots where stiffness is
// high, the instability §4.1.2.2 warns of. scaled: each spring's share by inverse mass
// (½ between free particles, 1 next to a pinned one), the sum times stiffness·½/(families of
// springs), which holds at every stiffness. Gauss–Seidel projects spring by spring as §4.1.1
// writes it either way.
enum class Correction { Scaled, Thesis };
class ShiftPath;
class TilePath;
struct TilePlan;

// The defaults are the lab's: a cloth that settles over the sphere and stays there
// (coloured Gauss–Seidel with shear springs, substeps, contact thickness and friction, and
// long-range attachments to pinned corners). thesis() is the seed's own setup.
struct Config {
  uint32_t width = 64, height = 64;  // particles
  float size = 2.0f;                 // cloth side (m): rest length = size / (width − 1)
  float damping = 0.99f;             // d in x' = (1+d)·x − d·x* per step (per substep: d^(1/substeps))
  float stiffness = 1.0f;            // scales every constraint correction, (0, 1]
  uint32_t iterations = 10;          // relaxations per substep (n_iter)
  uint32_t substeps = 6;             // Verlet steps of dt / substeps, each relaxed n_iter times
  float dt = 1.0f / 60.0f;
  glm::vec3 gravity{0.0f, -9.81f, 0.0f};
  glm::vec3 wind{0.0f};  // acceleration along the normal, m/s²
  bool shear = true, bend = false;
  bool sphere_on = true;
  glm::vec4 sphere{0.0f, 0.0f, 0.0f, 0.5f};  // centre, radius
  bool ground_on = true;
  float ground = -1.2f;
  float thickness = 0.01f;  // m: particles keep this far from the sphere and the ground
  float friction = 0.6f;    // Coulomb coefficient of the contacts (0: frictionless)
  bool attachments = true;  // long-range attachments to the pinned corners
  Branching branching = Branching::Branching;
  Order order = Order::GaussSeidel;
  Method method = Method::Tiles;
  Correction correction = Correction::Scaled;
  uint32_t tile = 0;              // tiles: cells a side a workgroup writes (0: the whole cloth if it fits, else
                                  // the largest that fits with its halo)
  uint32_t tile_relaxations = 0;  // tiles: relaxations a dispatch when the cloth is cut into tiles (0: one)
  // Seed 000 §4.1 as written: Jacobi with the thesis's correction (at stiffness 0.5), 3
  // relaxations, structural springs only, one step a frame, contacts without thickness or
  // friction, no attachments.
  static Config thesis();
  float rest() const { return size / float(width - 1); }
  uint32_t n() const { return width * height; }
  float substep_dt() const { return dt / float(substeps); }
  float substep_damping() const;
  bool tiled() const { return method == Method::Tiles && order == Order::GaussSeidel; }
  // Jacobi: what multiplies the sum of gathered corrections: stiffness (the thesis's) or
  // stiffness / (2·families of springs) (scaled; relax.comp says why). Gauss–Seidel applies
  // stiffness to each constraint.
  float relaxation_scale() const {
    if (correction == Correction::Thesis) return stiffness;
    return stiffness * 0.5f / (1.0f + (shear ? 1.0f : 0.0f) + (bend ? 1.0f : 0.0f));
  }
};
void check(const Config& c);  // throws std::invalid_argument naming the bad value

// Starting poses: "hang" (vertical, top edge at y = 1, facing +z) and "drape" (horizontal
// at y = 0.9 above the sphere). Particles are vec4 (position, inverse mass; 0 = pinned).
std::vector<glm::vec4> initial_positions(const Config& c, const std::string& pose);

constexpr float kNoGround = -1e30f;  // the ground plane's y when there is none

// Gauss–Seidel's constraint families: edges (x, y)–(x + dx, y + dy) of rest length
// factor·rest, coloured by x (or y) modulo stride so that no two edges of a colour share
// a particle. Relaxed in this order, colour by colour.
struct Family {
  int dx, dy;
  float factor;
  uint32_t stride;
  bool along_y;
};
std::vector<Family> families(const Config& c);

uint32_t corner_index(const Config& c, int corner);

// The cells a relaxation dispatch covers and the borders they may touch (bit 0 left, 1 right,
// 2 top, 3 bottom): the thesis's sub-streams (interior, 4 edges, 4 corners) or, branching, one.
struct Region {
  uint32_t x0, y0, w, h;
  int sides;
};
std::vector<Region> regions(const Config& c);  // 0 (0,0), 1 (w−1,0), 2 (0,h−1), 3 (w−1,h−1)

struct Stats {
  float max_stretch = 0, mean_stretch = 0, rms_stretch = 0;  // |structural edge − rest| / rest
  float kinetic = 0;                                         // J, for a 1 kg cloth
  float min_y = 0, max_y = 0;                                // lowest and highest point
  float min_sphere_gap = 0;                                  // closest distance to the sphere surface
  uint32_t non_finite = 0;
  std::array<glm::vec4, 4> corners{};  // for picking
};

// CPU reference of a step (all its substeps), same operation order as the kernels (wind off).
void step_cpu(const Config& c, std::vector<glm::vec4>& x, std::vector<glm::vec4>& prev);
void substep_cpu(const Config& c, std::vector<glm::vec4>& x, std::vector<glm::vec4>& prev);
Stats stats_cpu(const Config& c, const std::vector<glm::vec4>& x, const std::vector<glm::vec4>& prev);

}  // namespace cloth

namespace exercise {
class UserKernel;  // compute/exercise/user_kernel.h
}

namespace cloth {

class Simulation {
 public:
  Simulation(gpu::Context& ctx, const Config& config);
  Config config;  // all but the size may change between steps

  // Uploads a state and keeps a copy on the GPU that record_restart() goes back to.
  void set_state(const std::vector<glm::vec4>& x, const std::vector<glm::vec4>& prev);
  void record_restart(VkCommandBuffer cmd);
  std::vector<glm::vec4> positions() const;
  std::vector<glm::vec4> previous() const;

  // Records n steps; the last ends with normals and stats (read with last_stats() once the
  // submission completed) and a barrier making positions and normals visible to drawing.
  void record_steps(VkCommandBuffer cmd, gpu::Profiler* prof, uint32_t n);
  // Holds particle i at p, still (inverse mass 0 while held); pins it where it is (w = 0)
  // or frees it (w = 1).
  void record_hold(VkCommandBuffer cmd, uint32_t i, glm::vec3 p);
  void record_pin(VkCommandBuffer cmd, uint32_t i, bool pinned);
  Stats last_stats() const;
  Stats stats();  // record, submit, wait

  const gpu::Buffer& position_buffer() const { return x_[cur_]; }
  const gpu::Buffer& previous_buffer() const { return x_[prev_]; }
  const gpu::Buffer& normal_buffer() const { return normals_; }
  // Puts a saved state back (step back), leaving what record_restart() goes back to.
  void restore(const std::vector<glm::vec4>& x, const std::vector<glm::vec4>& prev);
  uint64_t steps() const { return steps_; }
  // The springs relaxed by a kernel the user wrote (exercise cloth/colour, which checked it
  // against project.comp's springs) from the next step on, one dispatch a colour as the kernels
  // method runs them (the lab picks that method while it is in use); project.comp then adds the
  // contacts alone, which the exercise leaves out (with stiffness 0 its springs move nothing, so
  // the two dispatches do what its one does). nullptr: project.comp alone again. Not owned.
  void use_colours(const exercise::UserKernel* k) { user_colours_ = k; }
  // Per substep: verlet reads 2 and writes 1 vec4 a particle, each relaxation reads 2 (its
  // neighbours come from cache; the step's start for friction) and writes 1, attachments
  // as many again.
  // The shift path: 3 copies and 3 axpbys (9 passes), then a relaxation's 4 banded products (2
  // diagonals, the positions and the result: 4 passes each) and gpuVerlet (positions, 4 vectors,
  // the start read, one written).
  double bytes_per_step() const {
    if (config.method == Method::ShiftMatrices)
      return 16.0 * config.n() * config.substeps * (6 + 9 + config.iterations * (4 * 4 + 7));
    if (config.tiled()) return tile_bytes_per_step();
    double relax = 3.0 * config.iterations * (config.attachments ? 2 : 1);
    return 16.0 * config.n() * config.substeps * (3 + relax);
  }
  // The tiles: a dispatch reads its region (halos included) and the step's start, Verlet's
  // also x*, and writes the cloth once.
  double tile_bytes_per_step() const;
  double flops_per_step() const;
  uint32_t dispatches_per_relaxation() const;  // the tiles: the substep's dispatches, rounded up a relaxation
  uint32_t dispatches_per_step() const;        // the substeps' and the normals' (the stats come after the last step)
  // Throws std::invalid_argument if this simulation cannot run c (check(), and the tiles fit
  // this device's shared memory); the lab calls it before a step with new settings.
  void validate(const Config& c) const;
  TilePlan tile_plan() const;                                // how method = tiles covers this cloth on this device
  uint32_t tile_capacity() const { return tile_capacity_; }  // particles a workgroup's shared memory holds
  uint32_t tile_invocations() const;                         // a workgroup of the tiles (0 before they first step)
  ~Simulation();

 private:
  void record_relax(VkCommandBuffer cmd, const gpu::Buffer& in, const gpu::Buffer& out);  // Jacobi
  void record_project(VkCommandBuffer cmd, const gpu::Buffer& x);                         // Gauss–Seidel
  void record_attach(VkCommandBuffer cmd, const gpu::Buffer& x);
  void record_stats(VkCommandBuffer cmd);
  gpu::Context& ctx_;
  gpu::Buffer x_[4];  // current, previous and two work buffers (indices rotate)
  int cur_ = 0, prev_ = 1;
  gpu::Buffer normals_, stats_, start_x_, start_prev_;
  gpu::Pipeline verlet_, normals_pipe_, stats_pipe_, project_, attach_;
  gpu::Pipeline relax_[16];  // by SIDES
  uint64_t steps_ = 0;
  float phase_ = 0;
  std::unique_ptr<ShiftPath> shift_;  // made when method = shift is first stepped
  std::unique_ptr<TilePath> tiles_;   // and when method = tiles is
  uint32_t tile_capacity_ = 0, tile_groups_ = 1;
  std::vector<float> inverse_mass_;  // every particle's w as the host last set it (the shift path's a)
  std::vector<float> start_mass_;    // and as set_state() gave it (record_restart() goes back to it)
  uint64_t mass_version_ = 0;
  const exercise::UserKernel* user_colours_ = nullptr;  // use_colours()
  void set_inverse_mass(uint32_t i, float w);
};

}  // namespace cloth
