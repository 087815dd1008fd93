// The 2D wave equation h_tt = c²·∇²h (seed 000, §4.2) on a w x h grid, height zero
// outside (waves reflect), stepped implicitly: every step solves A·h(t+1) = b with the
// linear algebra lab's conjugate gradient on the GPU.
//
// Derivation. With r = (c·Δt/Δx)², L the 5-point Laplacian (L·v = S·v − 4v, S the sum of
// the 4 neighbours, zero outside) and centred second differences in time:
//
//  seed (Crank–Nicolson as printed in §4.2.1: L at t and t+1, weight ½ each), α = r/2:
//      h' − 2h + h⁻ = α·L·(h' + h)
//   ⇒ [(1+4α)I − αS]·h' = [(2−4α)I + αS]·h − h⁻
//   so A = (1+4α)I − αS and M = (2−4α)I + αS, b = M·h − h⁻. (The thesis prints A with
//   8α+1 on the diagonal, b with 1−4α, and M = 2I + αS: none of them follow from its
//   own equation.) A Fourier mode with eigenvalue λ of −L obeys
//   (1+αλ)g² − (2−αλ)g + 1 = 0, so |g| = 1/sqrt(1+αλ): unconditionally stable, and
//   every mode loses energy each step.
//
//  newmark (β = ¼: L weighted ¼, ½, ¼ at t+1, t, t−1):
//      h' − 2h + h⁻ = r·L·(h' + 2h + h⁻)/4
//   ⇒ [(1+r)I − (r/4)S]·h' = [(2−2r)I + (r/2)S]·h − [(1+r)I − (r/4)S]·h⁻
//   so b = M·h − A·h⁻. Dotting the scheme with h' − h⁻ shows that
//      E = ‖h' − h‖² − r·m·L·m,  m = (h' + h)/2
//   is the same at every step in exact arithmetic: waves travel without losing energy.
//
// Damping (optional) relaxes h⁻ towards h before the step, h⁻ ← h⁻ + γ·(h − h⁻), which
// removes a fraction γ of the velocity; γ is uniform plus a sponge that ramps up
// quadratically towards the border (an absorbing border). Both are folded into b:
//   b = P·h + Q·h⁻'  where P, Q = x0·I + x1·S per scheme (coefficients()).
//
// Storage of A, P, Q: banded (5 diagonals, the thesis's way, through linalg::GpuBanded)
// or a matrix-free stencil (linalg::Stencil5 and wave/rhs.comp), same answers.
// The thesis printed A, b and M with three misprints (§4.2.2.1); each is a scheme of its
// own here so a student sees what it does. With λ a mode's eigenvalue of −L (S = 4 − λ on it):
//  printed-a: A = (8α+1)I − αS, the rest right: every mode, the flat one too, shrinks by
//             |g| = 1/sqrt(1+4α+αλ) a step: the water drains away in a few steps;
//  printed-b: b's diagonal 1−4α for 2−4α: the flat mode obeys g² − g + 1 = 0 (g = e^{±iπ/3}),
//             a bump breathes up and down with a period of 6 steps instead of spreading;
//  printed-m: M = 2I + αS (the printed N is S, the neighbours' sum): the flat mode obeys
//             g² − (2+4α)g + 1 = 0, a real root above 1: the heights grow until they blow up.
//
// Solver path: `modern` records the whole step on the GPU (warm start 2h − h⁻, CG stopped on
// the GPU); `thesis` is 'SIMULATION D'ONDES 2D' through the linear algebra lab's thesis
// operators: vectors in textures, M·h by a banded pass, 'MGC SUR GPU' from x0 = b with its
// multi-pass dots, the residual read back every iteration to decide when to stop. (The lab
// and its bench run that path with the thesis's scheme, seed, unless the user names another.)
#pragma once
#include "compute/exercise/user_kernel.h"
#include "compute/linalg/cg.h"

#include <memory>
#include <string>
#include <vector>

namespace wave {

enum class Scheme { Newmark, Seed, PrintedA, PrintedB, PrintedM };
const char* scheme_name(Scheme s);                 // newmark, seed, printed-a, printed-b, printed-m
Scheme scheme_from_name(const std::string& name);  // throws std::invalid_argument
enum class Solver { Modern, Thesis };
enum class Storage { Banded, Stencil };

struct Config {
  uint32_t width = 256, height = 256;  // width a multiple of 4
  float c = 1.0f, dt = 1.0f, dx = 1.0f;
  Scheme scheme = Scheme::Newmark;
  Storage storage = Storage::Stencil;  // the thesis path always stores by diagonals
  Solver solver = Solver::Modern;
  float tolerance = 1e-6f;  // CG: ||r|| <= tolerance·||b||
  uint32_t max_iterations = 100;
  float damping = 0.0f;         // γ everywhere
  uint32_t sponge = 0;          // absorbing border width in cells (0: reflecting walls)
  float sponge_damping = 0.2f;  // γ added at the outermost cells
  float r() const { return c * c * dt * dt / (dx * dx); }
  uint32_t n() const { return width * height; }
};
void check(const Config& c);  // throws std::invalid_argument with what is wrong

// x0·I + x1·S for A (left side), P (on h) and Q (on the damped h⁻).
// A mode's amplitude obeys (a0 + a1·s)·x' = (p0 + p1·s)·x + (q0 + q1·s)·x⁻, s = 4 − λ.
struct Coefficients {
  float a0, a1, p0, p1, q0, q1;
};
Coefficients coefficients(const Config& c);
float damping_at(const Config& c, uint32_t x, uint32_t y);  // γ of a cell, as the shader computes it
// Eigenvalue of −L for the Dirichlet mode sin(kx·π·(x+1)/(w+1))·sin(ky·π·(y+1)/(h+1)).
double mode_eigenvalue(const Config& c, uint32_t kx, uint32_t ky);
std::vector<float> mode_field(const Config& c, uint32_t kx, uint32_t ky, float amplitude);

// The discrete energy E above (kinetic + r·potential) of the pair (h(t), h(t−1)).
double energy_cpu(const Config& c, const std::vector<float>& h, const std::vector<float>& prev);

// CPU reference in T (double for tests, float for the benchmark's CPU column): one step in
// place (prev <- h, h <- solution), CG from the same warm start 2h − h⁻ to the same
// tolerance; returns CG iterations.
template <class T>
uint32_t step_cpu(const Config& c, std::vector<T>& h, std::vector<T>& prev);

// Disturbances, added to h and h⁻ alike (the water starts at rest): a Gaussian bump at
// (x, y) in cells, or a ridge along the row/column through it.
enum class Shape { Drop, LineX, LineY };
void disturb_cpu(const Config& c, std::vector<float>& f, Shape s, float x, float y, float radius, float amplitude);

struct StepStats {
  uint32_t iterations = 0;
  bool converged = false;
  float residual = 0;  // ||r|| / ||b|| when CG stopped
  float energy = 0;    // E after the step
};

class Simulation {
 public:
  Simulation(gpu::Context& ctx, const Config& config);
  const Config& config() const { return config_; }

  void set_state(const std::vector<float>& h, const std::vector<float>& prev);
  std::vector<float> height() const;    // h(t)
  std::vector<float> previous() const;  // h(t−1)
  // Step results land in a host-visible ring; read them once the command buffer is done.
  // The thesis path does not record: it submits each step and waits, reading CG's residual
  // back every iteration as the thesis did, and leaves cmd empty (its outcome is in the ring
  // at once).
  // Each step records `budget()` CG iterations (gated: the ones past convergence launch
  // no work but still cost a dispatch and a barrier each), see observe().
  void record_steps(VkCommandBuffer cmd, gpu::Profiler* prof, uint32_t n);
  // Call with every recorded step complete: reads their outcomes and sets the iteration
  // budget of the next steps to 1.5x (+8) the most any step of them or of the previous
  // observation needed, at most
  // max_iterations; a step that ran out of budget doubles it. A disturbance resets it to
  // max_iterations (the work it needs is unknown). Returns how many steps ran out.
  uint32_t observe();
  uint32_t budget() const { return budget_; }
  void record_disturb(VkCommandBuffer cmd, Shape s, float x, float y, float radius, float amplitude);
  // b by a kernel the user wrote (exercise wave/rhs, which checked it against rhs.comp) from the
  // next step on; nullptr: rhs.comp again. Not owned. False where this configuration does not
  // compute b with rhs.comp (banded storage, the thesis path): the kernel is then not used.
  bool use_rhs(const exercise::UserKernel* k) {
    user_rhs_ = k;
    return !a_;
  }
  uint64_t steps() const { return steps_; }
  // Stats of step k (1-based, k > steps() − kRing); valid once its submission completed.
  StepStats stats(uint64_t k) const;
  static constexpr uint32_t kRing = 4096;

  // Thesis path: the wall time of its last step and the residual read-backs it made.
  double thesis_step_ms() const { return thesis_ms_; }
  uint32_t thesis_readbacks() const { return thesis_readbacks_; }

  const gpu::Buffer& height_buffer() const;    // h(t) as w·h floats, row-major (drawing)
  const gpu::Buffer& previous_buffer() const;  // h(t−1), the same way
  double bytes_per_iteration() const { return cg_->bytes_per_iteration(variant()); }
  double flops_per_iteration() const { return cg_->flops_per_iteration(variant()); }
  linalg::Variant variant() const { return thesis() ? linalg::Variant::Thesis : linalg::Variant::Modern; }

 private:
  bool thesis() const { return config_.solver == Solver::Thesis; }
  void record_rhs(VkCommandBuffer cmd, linalg::Variant v);
  void record_energy(VkCommandBuffer cmd, const gpu::Buffer& h, const gpu::Buffer& prev);
  void step_thesis();
  void record_show(VkCommandBuffer cmd);  // thesis path: the textures h, h⁻ into shown_
  gpu::Context& ctx_;
  Config config_;
  Coefficients k_;
  linalg::Ops ops_;
  std::unique_ptr<linalg::GpuBanded> a_, p_, q_;  // banded storage only
  std::unique_ptr<linalg::Cg> cg_;
  linalg::Vec fields_[3], b_, tmp_;
  int cur_ = 0;  // fields_[cur_] = h(t), fields_[(cur_+2)%3] = h(t−1)
  gpu::Pipeline rhs_, energy_, disturb_;
  const exercise::UserKernel* user_rhs_ = nullptr;  // use_rhs()
  gpu::Buffer ring_;
  uint64_t steps_ = 0, observed_ = 0;
  uint32_t budget_ = 0, last_most_ = 0;
  gpu::Buffer shown_[2];  // thesis path: h(t), h(t−1) as buffers, for drawing and saving
  double thesis_ms_ = 0;
  uint32_t thesis_readbacks_ = 0;
};

}  // namespace wave
