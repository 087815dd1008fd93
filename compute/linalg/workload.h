// One operator of the linear algebra lab on one size, with its data on the GPU, ready to
// be recorded again and again (the lab's frames, the panel's runs, bench), with the
// traffic and arithmetic it declares and a CPU reference to time and check it against.
#pragma once
#include "compute/linalg/cg.h"

#include <functional>
#include <memory>

namespace linalg {

enum class Op { Axpby, Product, Dot, Norm, Max, Min, Banded, Dense, Cg };
// "axpby", "product", "dot", "norm", "max", "min", "banded", "dense", "cg"
const std::vector<std::string>& op_names();
Op op_from_name(const std::string& name);

// CG's modern iteration: A stored as 5 diagonals (3 dispatches, the default), or applied on
// the fly as a Stencil5 (StencilCg: one dispatch keeping A·r and A·p, or one pass without).
enum class CgForm { Banded, OneDispatch, Pipelined };
const std::vector<std::string>& cg_form_names();  // "banded", "one-dispatch", "pipelined"

struct WorkloadConfig {
  Op op = Op::Banded;
  Variant variant = Variant::Modern;
  Layout layout = Layout::Buffer;
  uint32_t side = 256;              // vectors of side·side·4 values (the thesis's sizes); CG: a 2·side grid
  uint32_t diagonals = 12;          // banded
  uint32_t dense_n = 1024;          // dense: an n x n matrix
  float cg_c = 10.0f;               // CG: A = I - c·L (the implicit wave / diffusion matrix)
  CgForm cg_form = CgForm::Banded;  // CG, modern variant: how an iteration is built
  bool float_float = false;         // dot: accumulate in float-float (seed 002) instead of float
  bool frac_index = false;          // banded, texture layout: the thesis's float index formulas 3.1-3.4
  // banded, CG's banded form: the matrix uploaded again before each application, as a matrix
  // that changes every step must be (Bleton 2005 §4.1.1, §4.4.1; GpuBanded::record_upload)
  bool upload_matrix = false;
  // Operands as smooth fields on the vector's grid (x: hot spots, y: a Gaussian; banded: a
  // box filter, every diagonal 1/diagonals) for pictures that teach; else random, non-zero.
  bool fields = false;
  int sign = 0;           // random operands: 0 both signs, -1 all negative, +1 all positive
  bool zero_pad = false;  // max, min: padding counts as 0 (the thesis's), not as the identity
  uint32_t seed = 1;
};

// A vector the picture shows, named ("x", "A x", ...).
struct Panel {
  std::string name;
  const Vec* vec;
};

// CG on the same system in float32 (GPU), float-float (GPU) and double (CPU reference),
// each solution's true relative residual ||b - A·x|| / ||b|| computed in double.
struct PrecisionComparison {
  struct Entry {
    std::string precision;
    uint32_t iterations = 0;
    double true_residual = 0;
  };
  std::vector<Entry> entries;
};

// e.g. "banded12.thesis", "cg.pipelined": the operator, its form and variant (bench rows add the layout).
std::string workload_name(const WorkloadConfig& c);

class Workload {
 public:
  Workload(gpu::Context& ctx, const WorkloadConfig& config);
  const WorkloadConfig& config() const { return config_; }
  uint32_t n() const { return n_; }
  std::string name() const;                // e.g. "banded12.thesis"
  std::string size() const;                // e.g. "256x256x4"
  double bytes() const { return bytes_; }  // declared per application
  double flops() const { return flops_; }

  // One application (CG: one iteration, continuing from the last); prof: the user's kernel's
  // dispatches (use_kernel) timed as passes of their own.
  void record(VkCommandBuffer cmd, gpu::Profiler* prof = nullptr);
  // The exercises (Lab::use_kernel): the user's kernel of the exercise whose operator is `op`
  // ("linalg.axpby", "linalg.banded", "linalg.dot", "linalg.cg-update"; same bindings and push
  // constants as compute/linalg/exercise.cpp's checker) runs in this workload's own buffers in
  // place of the lab's kernel from the next record() on; nullptr: the lab's own again. Throws
  // std::invalid_argument with user_kernel_unfit()'s reason where it cannot.
  static bool user_op(const std::string& op);  // one of these operators
  void use_kernel(const std::string& op, const exercise::UserKernel* k);
  const exercise::UserKernel* user_kernel() const { return user_; }
  // Why `k` cannot run as `op` on this workload, with the knob to change, or "".
  std::string user_kernel_unfit(const std::string& op, const exercise::UserKernel& k) const;
  // CG: back to the start (recorded): x0 = b for the thesis variant ('MGC SUR GPU', line 4),
  // x0 = 0 for the modern one; others: nothing to do.
  // upload_matrix: the matrix's trip over the bus alone (what each application adds), and its bytes.
  void record_matrix_upload(VkCommandBuffer cmd) const { gpu_banded_->record_upload(cmd); }
  double matrix_bytes() const { return gpu_banded_ ? gpu_banded_->bytes() : 0; }
  void record_restart(VkCommandBuffer cmd);
  CgStart cg_start() const { return config_.variant == Variant::Thesis ? CgStart::RightHandSide : CgStart::Zero; }
  double b_dot_b() const { return bb_; }  // CG: b·b (double), what ||r|| / ||b|| divides by
  // One CPU reference application, kept for checking; `threads` slice the banded products (the
  // same result: the check of a big workload whose single-threaded time is known already).
  void run_cpu(unsigned threads = 1);
  // Max |gpu - cpu| over max |cpu| of the last results (CG: true relative residual of x).
  double check() const;

  const Vec& result() const;  // the operator's vector result (CG: x; dot, norm: x)
  // The operands and the result as the picture shows them, side by side on grid_width().
  std::vector<Panel> panels() const;
  const Vec* residual() const;  // CG: the recurrence's residual r; others: none
  // CG only: solve this workload's system three ways (see PrecisionComparison).
  PrecisionComparison compare_precisions(float tolerance, uint32_t max_iterations);
  uint32_t grid_width() const;  // the grid the vectors are drawn on: its width in values (2·side, square)
  Ops& ops() { return *ops_; }
  Cg* cg() { return cg_.get(); }                       // CG only
  uint32_t cg_iterations() const { return cg_iter_; }  // since the start (a restart counts from 0)
  // CG: the double CPU twin's true relative residual after cg_iterations() from the same start,
  // what check() gives for the GPU's x without float's rounding. Costs cg_iterations() CPU
  // iterations over n() unknowns.
  double cg_twin_residual() const;
  // The operands as the CPU references see them (CG: y is b) and the last run_cpu() result
  // (dot, norm: one value).
  const std::vector<float>& x_values() const { return xs_; }
  const std::vector<float>& y_values() const { return ys_; }
  const BandedMatrix& banded() const { return banded_; }
  const DenseMatrix& dense() const { return dense_; }
  std::vector<double> cpu_values() const { return scalar() ? std::vector<double>{cpu_scalar_} : cpu_result_; }
  // Dot, norm, max, min: the result is one number on the GPU (scalar_slot()), not a vector.
  bool scalar() const;
  static constexpr uint32_t scalar_slot() { return 8; }
  // Max, min: the reduction's passes (thesis: extreme_passes(); modern: one dispatch of this many workgroups).
  std::vector<ExtremePass> extreme_passes() const;
  uint32_t extreme_groups() const;

 private:
  // ||b - A x|| / ||b|| in double, for x = hi + lo (lo: none where x is a float vector).
  double true_residual(const std::vector<float>& hi, const std::vector<float>* lo = nullptr) const;
  double true_residual(const std::vector<double>& x) const;  // x split into float + remainder
  gpu::Context& ctx_;
  WorkloadConfig config_;
  uint32_t n_ = 0;
  double bytes_ = 0, flops_ = 0;
  std::unique_ptr<Ops> ops_;
  std::vector<float> xs_, ys_;
  std::unique_ptr<Vec> x_, y_, out_;
  BandedMatrix banded_;
  std::unique_ptr<GpuBanded> gpu_banded_;
  DenseMatrix dense_;
  std::unique_ptr<GpuDense> gpu_dense_;
  std::unique_ptr<Cg> cg_;
  uint32_t cg_iter_ = 0;
  double bb_ = 0;
  std::vector<double> cpu_result_;
  double cpu_scalar_ = 0;
  const exercise::UserKernel* user_ = nullptr;       // use_kernel(), not owned (CG: cg_->use_update)
  gpu::Buffer user_partial_, user_done_, user_sum_;  // the dot exercise's PARTIAL, DONE and RESULT
  void record_user(VkCommandBuffer cmd, gpu::Profiler* prof);
};

}  // namespace linalg
