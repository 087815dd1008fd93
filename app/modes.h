// The ways vklab runs; each returns the process exit code.
#pragma once
#include "app/cli.h"
#include "app/lab.h"
#include "app/session.h"
#include "compute/gpu/roofline.h"

#include <nlohmann/json.hpp>

int run_window(const Options& o);
int run_headless(const Options& o);
int run_bench(const Options& o);
int run_bench_runs(const Options& o);  // bench --runs N (bench_runs.cpp)

// One lab's benchmark as JSON rows, each printed as it is measured.
// With valid peaks, each row also gets its place under the roofline (gpu/roofline.h).
nlohmann::json bench_lab(gpu::Context& ctx, Lab& lab, const BenchOptions& options, const gpu::Peaks& peaks);
nlohmann::json bench_row_json(const BenchRow& row, const gpu::Peaks& peaks);
