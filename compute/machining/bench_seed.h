// What the machining bench's parts share (bench.cpp: the seed's §13.2 and §15.4.1 tables;
// bench_sections.cpp: its §7.5.4 and §8.4): the seed's configurations, how one is set up, and
// how a run is timed on the CPU and the GPU.
#pragma once
#include "compute/machining/zbuffer.h"
#include "compute/measure/bench_row.h"
#include "compute/measure/timer.h"

#include <optional>
#include <string>
#include <vector>

namespace machining {

// One of the seed's §13.2 configurations: its path and tool, and its times (bench.cpp).
struct SeedConfig {
  const char* name;
  const char* path;
  uint32_t positions;  // the whole path's (the report's table: the path's size)
  const char* tool;
  uint32_t triangles;  // the report's tool size
  float diameter, surface, zoom;
  uint32_t kept;  // a zoom: the positions the report's window kept (its table's path size), else 0
  bool five_axis;
  double ens[4], personal[4];
  const char* stand_in;  // what our configuration is, against the report's (a bench row's note)
};
// The seed's configurations (bench.cpp's table), and one of them by name.
const std::vector<SeedConfig>& seed_configs();
const SeedConfig& seed_config(const std::string& name);

// A configuration made concrete.
struct Setup {
  std::vector<Position> path;
  Mesh tool;
  Stock st;
  float window = 0;
};
// The configuration's path, tool and stock on n x n brins: the report's counts of positions
// and triangles. A zoom keeps the positions whose tool reaches its window, placed where exactly
// the report's count does (zoom_window.h). The quick bench: 300 positions, a tool scaled to 64
// brins, the zoom's window at the centre; nullopt when no position reaches it.
std::optional<Setup> setup(const SeedConfig& sc, bool quick, uint32_t n);

// The CPU engine over the whole path from `start`, wall clock: three runs (one where the first
// takes over 3 s), their median and fastest into the row; kept per machine (BenchOptions::cpu_ms).
template <class R>
void time_cpu(gpu::BenchRow& row, const gpu::BenchOptions& options, const Stock& st, const std::vector<R>& start,
              const Mesh& tool, const std::vector<Position>& path, HitTest test = HitTest::Edge,
              CpuSchedule schedule = CpuSchedule::Dynamic);

// What the configuration stands for, in the row's JSON ("stand_in") and, for the report's CATIA
// programs (ébauche, finition) and the zooms, in its note.
void note_stand_in(gpu::BenchRow& row, const SeedConfig& sc);

// The seed's time for the row: `thesis` in its JSON (the seed's device, `cpu_only_ms` or
// `gpu_ms`, and `more`), and the same in its note.
void seed_time(gpu::BenchRow& row, const std::string& device, bool cpu, double ms,
               nlohmann::json more = nlohmann::json::object());

// One run of the whole path on a GPU engine, in dispatches of at most 2^26 (triangle,
// position) pairs; a short run is timed again, 3 times after 200 ms of warm-up (clocks
// leave idle).
gpu::GpuTiming time_path(gpu::Context& ctx, Machine& m, Engine eng, size_t positions, uint32_t triangles, bool quick);

// The report's other sections: `--only 5.3` (bench_nbuffer.cpp), `--only 7.5.4`, `--only 8.4` (bench_sections.cpp),
// `--only 12` and `--only 15.4.2`, `--only 15.5` (bench_tools.cpp), `--only 12.1.1` (bench_simplify.cpp).
void bench_nbuffer(gpu::Context& ctx, const gpu::BenchOptions& options, gpu::BenchRows& rows);  // 5.3
void bench_atomics(gpu::Context& ctx, const gpu::BenchOptions& options, gpu::BenchRows& rows);
void bench_torn(gpu::Context& ctx, const gpu::BenchOptions& options, gpu::BenchRows& rows);        // 7.3.2
void bench_partitions(gpu::Context& ctx, const gpu::BenchOptions& options, gpu::BenchRows& rows);  // 4.3
void bench_schedules(gpu::Context& ctx, const gpu::BenchOptions& options, gpu::BenchRows& rows);   // 6.2
void bench_hit_tests(gpu::Context& ctx, const gpu::BenchOptions& options, gpu::BenchRows& rows);
void bench_tools(gpu::Context& ctx, const gpu::BenchOptions& options, gpu::BenchRows& rows);
void bench_simplify(gpu::Context& ctx, const gpu::BenchOptions& options, gpu::BenchRows& rows);     // 12.1.1
void bench_granularity(gpu::Context& ctx, const gpu::BenchOptions& options, gpu::BenchRows& rows);  // 6.4.3
void bench_precision(gpu::Context& ctx, const gpu::BenchOptions& options, gpu::BenchRows& rows);    // 15.4.2, 15.5

}  // namespace machining
