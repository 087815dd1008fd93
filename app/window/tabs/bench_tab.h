// The Bench tab: the lab's benchmark and parameter sweeps, run beside the frame loop (the
// window keeps drawing; the lab pauses), with progress, Cancel, the rows as they arrive and
// the sweep's plot. Results are written to bench/ as JSON (app/window/bench_runner.h).
#pragma once
#include "app/core/session.h"
#include "app/core/sweep.h"
#include "app/window/bench_runner.h"

class BenchTab {
 public:
  explicit BenchTab(bool quick) : quick_(quick) {}
  void draw(Session& s, BenchRunner& bench);
  bool quick() const { return quick_; }  // kept in the settings file

 private:
  void bench(Session& s, BenchRunner& bench);
  void sweep_form(Session& s, BenchRunner& bench);
  void sweep_results(const BenchJob& job);
  bool quick_ = true;
  SweepSpec sweep_;
};
