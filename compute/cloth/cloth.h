// Cloth after Jakobsen as in seed 000 §4.1: a grid of equal-mass particles, Verlet
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
// inside the grid, so there is no border to branch on).
#pragma once
#include "gpu/pipeline.h"
#include "gpu/profiler.h"

#include <glm/glm.hpp>

#include <array>
#include <vector>

namespace cloth {

enum class Branching { SubStreams, Branching };
enum class Order { Jacobi, GaussSeidel };

struct Config {
  uint32_t width = 64, height = 64;  // particles
  float size = 2.0f;                 // cloth side (m): rest length = size / (width − 1)
  float damping = 0.99f;             // d in x' = (1+d)x − d·x*
  float stiffness = 1.0f;            // scales every constraint correction, (0, 1]
  uint32_t iterations = 3;           // relaxations per step (n_iter)
  float dt = 1.0f / 60.0f;
  glm::vec3 gravity{0.0f, -9.81f, 0.0f};
  glm::vec3 wind{0.0f};              // acceleration along the normal, m/s²
  bool shear = false, bend = false;
  bool sphere_on = true;
  glm::vec4 sphere{0.0f, 0.0f, 0.0f, 0.5f};  // centre, radius
  bool ground_on = true;
  float ground = -1.2f;
  Branching branching = Branching::Branching;
  Order order = Order::Jacobi;
  float rest() const { return size / float(width - 1); }
  uint32_t n() const { return width * height; }
  // Jacobi: what multiplies the sum of gathered corrections, stiffness / (2·families of
  // springs) (relax.comp says why); Gauss–Seidel applies stiffness to each constraint.
  float relaxation_scale() const { return stiffness * 0.5f / (1.0f + (shear ? 1.0f : 0.0f) + (bend ? 1.0f : 0.0f)); }
};
void check(const Config& c);  // throws std::invalid_argument naming the bad value

// Starting poses: "hang" (vertical, top edge at y = 1, facing +z) and "drape" (horizontal
// at y = 0.9 above the sphere). Particles are vec4 (position, inverse mass; 0 = pinned).
std::vector<glm::vec4> initial_positions(const Config& c, const std::string& pose);
uint32_t corner_index(const Config& c, int corner);  // 0 (0,0), 1 (w−1,0), 2 (0,h−1), 3 (w−1,h−1)

struct Stats {
  float max_stretch = 0, rms_stretch = 0;  // structural edges, relative to the rest length
  float kinetic = 0;                       // J, for a 1 kg cloth
  float min_y = 0, min_sphere_gap = 0;     // lowest point; closest distance to the sphere surface
  uint32_t non_finite = 0;
  std::array<glm::vec4, 4> corners{};      // for picking
};

// CPU reference of a step, same operation order as the kernels (wind off).
void step_cpu(const Config& c, std::vector<glm::vec4>& x, std::vector<glm::vec4>& prev);
Stats stats_cpu(const Config& c, const std::vector<glm::vec4>& x, const std::vector<glm::vec4>& prev);

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
  const gpu::Buffer& normal_buffer() const { return normals_; }
  uint64_t steps() const { return steps_; }
  // Per step: verlet reads 2 and writes 1 vec4 a particle, each relaxation reads 1 (its
  // neighbours come from cache) and writes 1.
  double bytes_per_step() const { return 16.0 * config.n() * (3 + 2.0 * config.iterations); }
  double flops_per_step() const;
  uint32_t dispatches_per_relaxation() const;

 private:
  void record_relax(VkCommandBuffer cmd, const gpu::Buffer& in, const gpu::Buffer& out);  // Jacobi
  void record_project(VkCommandBuffer cmd, const gpu::Buffer& x);                           // Gauss–Seidel
  void record_stats(VkCommandBuffer cmd);
  gpu::Context& ctx_;
  gpu::Buffer x_[4];  // current, previous and two work buffers (indices rotate)
  int cur_ = 0, prev_ = 1;
  gpu::Buffer normals_, stats_, start_x_, start_prev_;
  gpu::Pipeline verlet_, normals_pipe_, stats_pipe_, project_;
  gpu::Pipeline relax_[16];  // by SIDES
  uint64_t steps_ = 0;
  float phase_ = 0;
};

}  // namespace cloth
