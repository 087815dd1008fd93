// The ways vklab runs; each returns the process exit code.
#pragma once
#include "app/cli.h"
#include "app/lab.h"
#include "compute/gpu/roofline.h"

#include <nlohmann/json.hpp>

int run_window(const Options& o);
int run_headless(const Options& o);
int run_bench(const Options& o);
int run_bench_runs(const Options& o);    // bench --runs N (bench_runs.cpp)
int run_float_report(const Options& o);  // vklab floatlab --report

// A lab made from the options (--lab, --set); ParamError on a bad name or value.
std::unique_ptr<Lab> lab_from_options(const Options& o, const std::string& name);
// One lab's benchmark as JSON rows, each printed as it is measured.
// With valid peaks, each row also gets its place under the roofline (gpu/roofline.h).
nlohmann::json bench_lab(gpu::Context& ctx, Lab& lab, const BenchOptions& options, const gpu::Peaks& peaks);
nlohmann::json bench_row_json(const BenchRow& row, const gpu::Peaks& peaks);
nlohmann::json device_json(const gpu::Context& ctx);
// What a capture carries (its PNG's "vklab" text): lab, parameters, device, step, version; a
// preset, so --preset shot.png replays it.
std::string capture_manifest(const Lab& lab, const gpu::Context& ctx);
