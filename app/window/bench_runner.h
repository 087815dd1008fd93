// The window's one benchmark, sweep or peak measurement at a time (app/window/bench_job.h), beside the
// frame loop: started by the Bench and Timings tabs and key B, collected between frames, its
// results written to bench/ as JSON and the measured roofs handed to the session.
#pragma once
#include "app/core/session.h"
#include "app/window/bench_job.h"

#include <map>
#include <memory>
#include <string>

class BenchRunner {
 public:
  // `co`: the bench's own context (its own device and queue), with the window's instance
  // extensions: volk's table is process-wide and reloaded with each instance.
  explicit BenchRunner(const gpu::ContextOptions& co) : co_(co) {}
  bool running() const { return job_ && !job_->state().finished; }
  void start_bench(Session& s, bool quick);
  void start_sweep(Session& s, const SweepSpec& spec);
  void start_peaks(Session& s);
  void cancel() {
    if (job_) job_->cancel();
  }
  // Once a frame, before the panels: a finished job's results are kept, written to bench/ and said on stdout.
  void poll(Session& s, uint64_t frame, bool validate);
  // Waits for a running job: cancelled unless `finish` (a scripted run lets it end).
  void stop(bool finish);

  const BenchJob* job() const { return job_.get(); }
  bool quick() const { return quick_; }
  const std::string& result_file() const { return file_; }

 private:
  void started(const char* what, std::unique_ptr<BenchJob> job);
  gpu::ContextOptions co_;
  std::unique_ptr<BenchJob> job_;
  bool collected_ = false;
  bool quick_ = true;
  std::string file_;
  uint64_t frame_ = 0;  // the window's frame at the last poll
};
