// The ways vklab runs without a window (the window's own is run_window, app/window/window.h);
// each returns the process exit code.
#pragma once
#include "app/core/cli.h"
#include "app/core/lab.h"
#include "app/core/session.h"
#include "compute/measure/bench_estimate.h"
#include "compute/measure/roofline.h"

#include <nlohmann/json.hpp>

int run_headless(const Options& o);
int run_bench(const Options& o);
int run_bench_runs(const Options& o);  // bench --runs N (bench_runs.cpp)

// One lab's benchmark as JSON rows, each printed as it is measured, with a progress bar and
// an estimate from `history` (compute/measure/bench_estimate.h), to which its rows' times are added.
// With valid peaks, each row also gets its place under the roofline (compute/measure/roofline.h).
nlohmann::json bench_lab(gpu::Context& ctx, Lab& lab, const BenchOptions& options, const gpu::Peaks& peaks,
                         gpu::BenchHistory& history);
