// A benchmark or a sweep run beside the window, so the window never freezes: a copy of the
// lab's parameters, its own gpu::Context (its own device and queue: the window's frames and
// the bench never share a queue), a worker thread. Rows or points arrive as they are
// measured; Cancel stops after the one being measured. The window pauses the lab meanwhile
// so the two do not share the GPU (it still draws its picture and panels).
#pragma once
#include "app/core/lab.h"
#include "app/core/sweep.h"
#include "compute/measure/bench_estimate.h"
#include "compute/measure/cpu_baselines.h"
#include "compute/measure/roofline.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>

class BenchJob {
 public:
  struct State {
    std::vector<BenchRow> rows;      // bench: rows measured so far
    std::vector<SweepPoint> points;  // sweep: points measured so far
    std::string error;               // why it stopped early ("" when not)
    bool finished = false, cancelled = false;
    double saxpy_gbps = 0;
    gpu::Peaks peaks;  // the roofs the rows are placed under (invalid: none known)
    uint64_t validation_messages = 0;
  };
  struct MeasurePeaks {};
  // The context is made here, on the caller's thread (volk's table is written there).
  BenchJob(const gpu::ContextOptions& co, const Lab& lab, bool quick);              // the lab's bench
  BenchJob(const gpu::ContextOptions& co, const Lab& lab, const SweepSpec& sweep);  // a sweep
  BenchJob(const gpu::ContextOptions& co, const Lab& lab, MeasurePeaks);            // the roofs, then cached
  ~BenchJob();                                                                      // cancels and waits
  BenchJob(const BenchJob&) = delete;
  BenchJob& operator=(const BenchJob&) = delete;

  void cancel() { cancel_ = true; }
  State state() const;
  double elapsed_s() const;
  // The bench's rows so far and, from the last run of the same bench on this device, what is left.
  gpu::BenchProgress progress() const;
  bool is_sweep() const { return sweep_; }
  bool is_peaks() const { return peaks_only_; }
  const SweepSpec& sweep_spec() const { return spec_; }
  const Lab& lab() const { return *lab_; }
  nlohmann::json device_facts() const;

 private:
  BenchJob(const gpu::ContextOptions& co, const Lab& lab);
  void run_bench(bool quick);
  void run_sweep();
  template <class F>
  void guarded(F&& body);

  std::unique_ptr<gpu::Context> ctx_;
  std::unique_ptr<Lab> lab_;
  bool sweep_ = false, peaks_only_ = false;
  SweepSpec spec_;
  std::atomic<bool> cancel_{false};
  gpu::CpuBaselines cpu_;            // a full bench keeps the CPU references' times per machine
  std::vector<double> last_, done_;  // each row's seconds: the last run here, this one
  mutable std::mutex mutex_;
  State state_;
  std::chrono::steady_clock::time_point rows_start_ = std::chrono::steady_clock::now();  // after the roofs
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double seconds_ = 0;  // when finished
  std::thread thread_;  // last: started once everything above exists
};
