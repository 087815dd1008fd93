// The CPU side as Bleton 2005 measured it (tables 4.3-4.6): each operator through a real
// BLAS, here OpenBLAS from Debian: sgbmv for the band, saxpby, snrm2, sdot, sgemv, and a
// CG iteration built from BLAS calls. Timed with one thread and with all of them.
#pragma once
#include "compute/linalg/matrix.h"
#include "compute/measure/bench_row.h"

#include <memory>

namespace linalg {

class Workload;

class BlasReference {
 public:
  explicit BlasReference(const Workload& w);
  ~BlasReference();
  std::string calls() const;  // what one application calls, e.g. "cblas_sgbmv (kl 6, ku 5)"
  // One application; its result (dot, norm: one value). Axpby, dense and CG update their
  // output in place as the BLAS calls do, so only the first application equals the
  // workload's CPU reference (CG: one iteration from the workload's start, x = 0 or x = b).
  std::vector<float> run();
  // Threads for the next applications: OpenBLAS's own, except for the band: OpenBLAS 0.3.21's
  // threaded sgbmv overruns its work buffer from about 4M rows on 16 threads (a segfault), so
  // there the rows are split into `threads` blocks, each a one-thread sgbmv on a thread of ours.
  void set_threads(int threads);
  // Max |blas - reference| over max |reference| on the rows both compute the same way (a
  // BLAS band has no wrap-around: its first and last rows differ from the thesis's matrix).
  double max_relative_difference(const std::vector<float>& blas, const std::vector<double>& reference) const;

 private:
  struct State;
  std::unique_ptr<State> s_;
  void band_rows(int first, int last);             // y[first, last) = (A x)[first, last), one thread
  void band_product(const std::vector<float>& v);  // CG: q = A·v
};

struct BlasTiming {
  double ms_one_thread = 0, ms_all_threads = 0;
  int threads = 0;             // "all": OpenBLAS's count of this machine's processors
  double max_rel_diff = 0;     // the first application against the workload's CPU reference
  std::string calls, library;  // e.g. "OpenBLAS 0.3.21 ... Haswell"
  // Wall-clock seconds: the operands built, the checked application, the timings.
  double build_s = 0, check_s = 0, time_s = 0;
};
// Builds the BLAS operands of `w` (after w.run_cpu()), checks one application, times
// `repeats` applications with one thread and with all (medians).
// `keep`: the CPU references' times kept per machine (BenchOptions::cpu_ms), under `key`/openblas-1 and /openblas-all.
BlasTiming time_blas(const Workload& w, int repeats, const gpu::BenchOptions& keep, const std::string& key);

}  // namespace linalg
