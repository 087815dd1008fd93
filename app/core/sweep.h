// A parameter sweep: one numeric parameter of a lab stepped over a range; at each value the
// lab is rebuilt and run for a number of steps, and the GPU time a step takes is measured.
// `vklab bench --lab L --sweep NAME=FROM:TO:COUNT` and the window's Bench panel run it.
#pragma once
#include "app/core/lab.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

struct SweepSpec {
  std::string param;
  double from = 0, to = 1;
  int count = 5;
  uint64_t steps = 20;  // measured steps a point (after a few warm-up steps)
  bool log = false;     // values spaced evenly on a log scale
  std::vector<double> values() const;
};

struct SweepPoint {
  double value = 0;        // as the parameter took it (ints rounded, clamped into range)
  double ms_per_step = 0;  // summed GPU pass time / steps
  double gbps = 0, gflops = 0;
  std::string problem;  // a watchdog's stop at this value, or ""
};

// "size=64:512:4" (optionally ":log"); UsageError-free: throws ParamError naming what is wrong.
SweepSpec parse_sweep(const std::string& text);
// Checks the parameter exists on `lab` and is numeric; throws ParamError.
void check_sweep(const Lab& lab, const SweepSpec& spec);
// Runs the sweep on ctx with a copy of `lab`'s parameters. on_point hears each point as it is
// measured; a set `cancel` stops after the point being measured (throws gpu::BenchCancelled).
std::vector<SweepPoint> run_sweep(gpu::Context& ctx, const Lab& lab, const SweepSpec& spec,
                                  const std::function<void(const SweepPoint&)>& on_point,
                                  const std::atomic<bool>* cancel = nullptr);
nlohmann::json sweep_json(const Lab& lab, const SweepSpec& spec, const std::vector<SweepPoint>& points);
