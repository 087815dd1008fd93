// Conjugate gradient (seed 000, §3.4) on the GPU with every scalar kept there: no
// read-back inside an iteration; the residual history is read every `check_every`
// iterations to decide whether to stop.
//  - thesis variant: 'MGC SUR GPU' line by line — three multi-pass dots, a banded
//    product in passes of 12 diagonals, three axpbys (7 operator calls an iteration);
//  - modern variant: 3 dispatches — matrix product fused with d·Ad, the x/r update fused
//    with r·r, and d = r + beta·d; with the matrix-free stencil, one: Chronopoulos and
//    Gear's form, both dot products from one reduction (Ops::cg_stencil), or the same in one
//    pass over x, r and p alone (StencilCg::Pipelined, Ops::cg_pipelined).
// The matrix is banded (GpuBanded) or a matrix-free 5-point stencil (Stencil5).
#pragma once
#include "compute/gpu/profiler.h"
#include "compute/linalg/ops.h"

namespace exercise {
class UserKernel;  // compute/exercise/user_kernel.h
}

namespace linalg {

// A modern iteration on a matrix-free stencil, per unknown: one dispatch keeping w = A·r and
// s = A·p (10 vector passes, 40 bytes), or one pass recomputing both products from r and p
// (6 passes, 24 bytes: x read and written, r and p read, the next r and p written).
enum class StencilCg { OneDispatch, Pipelined };

// Where solve() starts: x = 0, x = b (the thesis's 'MGC SUR GPU', line 4), or the x given.
enum class CgStart { Zero, RightHandSide, Given };

struct CgOptions {
  Variant variant = Variant::Modern;
  CgStart start = CgStart::Zero;
  float tolerance = 1e-5f;  // on ||r|| / ||b||
  uint32_t max_iterations = 1000;
  uint32_t check_every = 10;  // iterations a submission
};

struct CgResult {
  uint32_t iterations = 0;
  float relative_residual = 0;
  bool converged = false;
  std::string problem;         // why it stopped early ("" if it did not)
  std::vector<float> history;  // ||r_i|| / ||b|| for i = 0..iterations
};

// What record_solve() leaves in S[kOutcomeSlot ..]; read it after the submission.
struct CgOutcome {
  uint32_t iterations = 0;
  bool converged = false;
  float relative_residual = 0;  // ||r|| / ||b|| (the recurrence's r)
};

class Cg {
 public:
  static constexpr uint32_t kOutcomeSlot = 8;  // S[8..10]; CG itself uses S[0..7]
  Cg(Ops& ops, const GpuBanded& a);
  Cg(Ops& ops, const Stencil5& a, StencilCg form = StencilCg::OneDispatch);  // matrix-free; the stencil is copied
  // Pipelined form: grid rows an invocation walks down (0: Ops::cg_strip_rows' choice).
  void set_strip_rows(uint32_t rows) { strip_rows_ = rows; }
  uint32_t strip_rows() const { return strip_rows_ ? strip_rows_ : ops_.cg_strip_rows(stencil_); }
  // Solves a·x = b from the start the options name (x = 0 by default).
  CgResult solve(const Vec& b, const Vec& x, const CgOptions& options, gpu::Profiler* prof = nullptr);
  // The same in float-float (seed 002): vectors as hi + lo pairs, scalars likewise; the
  // solution is x_hi + x_lo. The modern algorithm, 7 dispatches an iteration.
  CgResult solve_ff(const Vec& b, Vec& x_hi, Vec& x_lo, const CgOptions& options);

  // A whole modern solve in one command buffer, nothing read back: starts from the x it
  // is given (a warm start), stops on the GPU once ||r|| <= tolerance·||b|| (later passes
  // launch zero workgroups) or after max_iterations. Outcome in outcome() afterwards.
  void record_solve(VkCommandBuffer cmd, const Vec& b, const Vec& x, float tolerance, uint32_t max_iterations);
  CgOutcome outcome() const;

  // S[5] = b·b, x0 as `start` says, r0 = b − A·x0, d0 = r0, history[0] = r0·r0.
  void record_init(VkCommandBuffer cmd, Variant v, const Vec& b, const Vec& x, CgStart start = CgStart::Zero);
  // prof: the user's update (use_update) timed as a pass of its own.
  void record_iteration(VkCommandBuffer cmd, Variant v, uint32_t i, const Vec& x, gpu::Profiler* prof = nullptr);
  // The exercise linalg/cg-update's kernel (its bindings: X, R, D, Q, S = {rho, dad}; push: n)
  // updates x and r in place of Ops::cg_update in the modern iterations of a banded A, and a
  // dot product after it gives r·r (the fused reduction cg_update.vec.comp does); nullptr:
  // Ops::cg_update again. Buffer layout only; record_solve() refuses it (it has no gate).
  void use_update(const exercise::UserKernel* k);
  double bytes_per_iteration(Variant v) const;
  double flops_per_iteration(Variant v) const;
  // The same for record_solve()'s start: b·b, r0 = b − A·x0, (d0 = r0,) r0·r0.
  double setup_bytes() const;
  double setup_flops() const;
  // The recurrence's r after the last iteration recorded (after a stencil solve stopped on
  // the GPU, the one of the recorded budget's parity, not necessarily the last one run).
  const Vec& residual() const { return residual(recorded_); }

 private:
  // q = A·v, with S[slot] = v·q when slot != kNoSlot (modern) or A·v by thesis passes.
  void apply(VkCommandBuffer cmd, Variant v, const Vec& in, const Vec& out, uint32_t slot);
  uint32_t n() const;
  void record_user_update(VkCommandBuffer cmd, const Vec& x, uint32_t rho, uint32_t rho_next, uint32_t hist,
                          gpu::Profiler* prof);

  Ops& ops_;
  const GpuBanded* a_ = nullptr;
  Stencil5 stencil_;
  StencilCg form_ = StencilCg::OneDispatch;
  uint32_t strip_rows_ = 0;
  void record_stencil_iteration(VkCommandBuffer cmd, uint32_t i, const Vec& x);
  void record_pipelined_iteration(VkCommandBuffer cmd, uint32_t i, const Vec& x);
  // A stencil iteration i reads r_i (and w_i = A·r_i, s_(i-1) one-dispatch; p_(i-1) pipelined)
  // and writes the next ones to the other vector of each pair: r_ and q_ (as w) for even i,
  // the partners below for odd i; d_ is p (one-dispatch; pipelined: p of even iterations,
  // p_odd the other). Every other solve keeps r in r_.
  const Vec& residual(uint32_t i) const { return i % 2 ? pairs_->r_odd : r_; }
  Vec r_, d_, q_;
  struct Partners {
    Vec r_odd, w_odd, s_even, s_odd, p_odd;  // those the form uses; the others stay empty
  };
  std::unique_ptr<Partners> pairs_;                    // stencil only
  uint32_t recorded_ = 0;                              // stencil iterations recorded since the solve began
  std::unique_ptr<Vec> r_lo_, d_lo_, q_lo_;            // float-float low parts, made on first use
  const exercise::UserKernel* user_update_ = nullptr;  // use_update(), not owned
  gpu::Buffer user_scalars_;                           // its S: S[rho] and S[dad] copied before each run
};

}  // namespace linalg
