#include "compute/machining/bench.h"
#include "compute/machining/bench_seed.h"

#include "compute/gpu/bandwidth.h"
#include "compute/machining/zbuffer.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <thread>

namespace machining {

using gpu::BenchOptions;
using gpu::BenchRow;
using gpu::BenchRows;

namespace {

// The seed's §13.2 configurations, recreated with the generators. Grids: 1024 x 1024 brins.
// The first five on a surface of 1024 with tools of diameter 10 (the seed: "a bounding box
// of 10 for a surface of 1024"), but single, whose tool is "barely smaller than the
// surface" (diameter 1000); ebauche and finition on a surface of 50 with tools of 10.
// Zooms: the same path re-run on a window 64 (ebauche 8) times smaller at the centre with
// the same 1024 x 1024 brins, keeping the positions whose tool reaches the window.
// Seed times (ms): {CPU Raster, GPU Raster, GPU Inverted, GPU Fine} on the Quadro 4000 /
// Xeon X5650 ("ENS") and the GTX 560 Ti / Phenom II ("personal"); -1: not run.
const SeedConfig kSeedConfigs[] = {
    {"single", "single", 1, "sphere", 1984, 1000, 1024, 1, false, {20, 848, 8, 8}, {30, 498, 7, 7}},
    {"random", "random", 200000, "sphere", 320, 10, 1024, 1, false, {366, 69, 884, 124}, {1260, 48, 507, 56}},
    {"random zoom", "random", 200000, "sphere", 320, 10, 1024, 64, false, {168, 1211, 739, 54}, {264, 757, 439, 28}},
    {"spiral", "spiral", 200000, "sphere", 1984, 10, 1024, 1, false, {1061, 247, 370, 515}, {4634, 105, 179, 227}},
    {"spiral zoom", "spiral", 200000, "sphere", 1984, 10, 1024, 64, false, {321, 161, 199, 69}, {557, 997, 117, 33}},
    {"downspiral", "downspiral", 200000, "cone", 64, 10, 1024, 1, false, {280, 48, 3082, 100}, {792, 25, 1786, 57}},
    {"downspiral zoom",
     "downspiral",
     200000,
     "cone",
     64,
     10,
     1024,
     64,
     false,
     {499, 2310, 6851, 142},
     {818, 1432, 3948, 68}},
    {"volcano", "volcano", 200000, "sphere", 1984, 10, 1024, 1, false, {1081, 199, 384, 514}, {4584, 85, 180, 226}},
    {"volcano zoom", "volcano", 200000, "sphere", 1984, 10, 1024, 64, false, {148, 1449, 139, 51}, {369, 901, 83, 25}},
    {"ebauche", "zigzag", 47837, "torus", 25904, 10, 50, 1, false, {7891, 1548, 1555, 4652}, {25160, 712, 698, 2390}},
    {"ebauche zoom", "zigzag", 47837, "torus", 25904, 10, 50, 8, false, {943, 3473, 241, 294}, {1857, 2080, 118, 151}},
    {"finition", "zigzag", 53667, "sphere", 12482, 10, 50, 1, true, {11542, 2361, -1, 2722}, {30603, 1187, -1, 1117}},
};

// Seed 003 §15.4.1 (GTX 560 Ti / Phenom II): GPU 32-bit, GPU 64-bit, CPU 32-bit, CPU 64-bit (ms).
const std::map<std::string, std::array<double, 4>>& precision_table() {
  static const std::map<std::string, std::array<double, 4>> t = {
      {"random", {48, 106, 1270, 1359}},      {"spiral", {105, 549, 4383, 5015}},
      {"downspiral", {25, 108, 779, 799}},    {"volcano", {85, 410, 4676, 5221}},
      {"ebauche", {714, 3272, 25508, 28388}}, {"finition", {1392, 4185, 31711, 32308}}};
  return t;
}

}  // namespace

std::optional<Setup> setup(const SeedConfig& sc, bool quick, uint32_t n) {
  uint32_t count = quick ? std::min(sc.positions, 300u) : sc.positions;
  auto path = generate_path(sc.path, sc.surface, count, sc.surface / 100.0f + sc.diameter / 5.0f, 11);
  if (sc.five_axis)
    for (size_t i = 0; i < path.size(); ++i) {
      float t = float(i) / float(path.size());
      path[i].axis = glm::normalize(glm::vec3(0.4f * std::sin(12.0f * t), 0.3f * std::cos(7.0f * t), 1.0f));
    }
  Mesh tool = make_tool(sc.tool, sc.diameter * (quick ? sc.surface / 1024.0f * 8 : 1.0f), sc.triangles);
  Stock st;
  st.nx = st.ny = n;
  float window = sc.surface / sc.zoom;
  st.d = window / float(n);
  st.x0 = st.y0 = 0.5f * (sc.surface - window);
  if (sc.zoom > 1) {  // keep the positions whose tool reaches the window
    std::vector<Position> kept;
    float reach = 0.5f * sc.diameter;
    for (auto& p : path)
      if (p.tip.x > st.x0 - reach && p.tip.x < st.x0 + window + reach && p.tip.y > st.y0 - reach &&
          p.tip.y < st.y0 + window + reach)
        kept.push_back(p);
    path = kept;
    if (path.empty()) return std::nullopt;
  }
  return Setup{std::move(path), std::move(tool), st, window};
}

const SeedConfig& seed_config(const std::string& name) {
  auto it = std::find_if(std::begin(kSeedConfigs), std::end(kSeedConfigs), [&](auto& c) { return name == c.name; });
  if (it == std::end(kSeedConfigs)) throw std::invalid_argument("no seed configuration '" + name + "'");
  return *it;
}

template <class R>
void time_cpu(BenchRow& row, const Stock& st, const std::vector<R>& start, const Mesh& tool,
              const std::vector<Position>& path, HitTest test) {
  std::vector<double> ms;
  for (int r = 0; r < 3 && (ms.empty() || ms[0] < 3000); ++r) {
    std::vector<R> h = start;
    auto t0 = std::chrono::steady_clock::now();
    mill_cpu(st, h, tool, path, 0, test);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  row.median_ms = gpu::median(ms);
  row.min_ms = *std::min_element(ms.begin(), ms.end());
  row.repeats = int(ms.size());
}
template void time_cpu(BenchRow&, const Stock&, const std::vector<float>&, const Mesh&, const std::vector<Position>&,
                       HitTest);
template void time_cpu(BenchRow&, const Stock&, const std::vector<double>&, const Mesh&, const std::vector<Position>&,
                       HitTest);

void seed_time(BenchRow& row, const std::string& device, bool cpu, double ms, nlohmann::json more) {
  more["device"] = device;
  more[cpu ? "cpu_only_ms" : "gpu_ms"] = ms;
  row.reference["thesis"] = more;
  row.add_note(cpu ? "CPU %.6g ms" : "GPU %.6g ms", ms);
}

gpu::GpuTiming time_path(gpu::Context& ctx, Machine& m, Engine eng, size_t positions, uint32_t triangles, bool quick) {
  uint32_t chunk = uint32_t(std::clamp<double>(double(1u << 26) / double(triangles), 1, 1 << 20));
  auto record = [&](VkCommandBuffer cmd) {
    for (size_t first = 0; first < positions; first += chunk) m.record(cmd, eng, uint32_t(first), chunk);
  };
  auto t = gpu::time_gpu(ctx, record, 1, 0);
  if (!quick && t.median_ms < 200) t = gpu::time_gpu(ctx, record, 3, 200);
  return t;
}

namespace {

// --only and --engines name what exists.
void check_selection(const BenchOptions& options) {
  for (auto& e : options.engines)
    if (e != "nbuffer" && std::find(engine_names().begin(), engine_names().end(), e) == engine_names().end())
      throw std::invalid_argument("bench: unknown engine '" + e +
                                  "' (engines: cpu, position, triangle, fine, "
                                  "persistent, brin, hardware; nbuffer, section 5.3's N-buffer)");
  for (auto& name : options.only)
    if (name != "5.3" && name != "6.4.3" && name != "7.5.4" && name != "8.4" && name != "12" && name != "15.4.2" &&
        name != "15.5" &&
        std::none_of(std::begin(kSeedConfigs), std::end(kSeedConfigs), [&](auto& c) { return name == c.name; }))
      throw std::invalid_argument(
          "bench: unknown configuration '" + name +
          "' (the seed's: single, random, spiral, "
          "downspiral, volcano, their zooms as 'spiral zoom', ebauche (roughing), finition (finishing); "
          "sections: 5.3 (N-buffer against Z-buffer), 6.4.3 (granularity), 7.5.4 (atomicity), 8.4 (intersection "
          "tests), 12 (analytic tools), 15.4.2 "
          "(single against double), "
          "15.5 (fast "
          "math))");
}

// Every engine in single precision, with the seed's times beside.
void bench_single(gpu::Context& ctx, const BenchOptions& options, const SeedConfig& sc, const Setup& su,
                  BenchRows& rows) {
  const auto& [path, tool, st, window] = su;
  const uint32_t n = st.nx;
  Machine m(ctx, st, tool, path);
  double pairs = double(tool.triangles()) * double(path.size());
  double best_seed = INFINITY;
  for (int k = 1; k < 4; ++k)
    for (const double* t : {sc.ens, sc.personal})
      if (t[k] > 0) best_seed = std::min(best_seed, t[k]);
  for (size_t e = 0; e < engine_names().size(); ++e) {
    Engine eng = Engine(e);
    if (!BenchOptions::chosen(options.engines, engine_names()[e])) continue;
    BenchRow row;
    row.pass = std::string("machining.") + engine_names()[e];
    row.size = std::string(sc.name) + " " + std::to_string(path.size()) + "x" + std::to_string(tool.triangles());
    row.elements = uint64_t(pairs);
    row.reference = {{"configuration", sc.name},
                     {"positions", path.size()},
                     {"triangles", tool.triangles()},
                     {"brins", std::to_string(n) + "x" + std::to_string(n)},
                     {"spacing", st.d},
                     {"tool", sc.tool},
                     {"tool_diameter", sc.diameter},
                     {"five_axis", sc.five_axis}};
    int seed_col = eng == Engine::Cpu           ? 0
                   : eng == Engine::PerPosition ? 1
                   : eng == Engine::PerTriangle ? 2
                   : eng == Engine::Fine        ? 3
                                                : -1;
    if (seed_col >= 0)
      seed_time(row, "Abecassis 2012 (SIMSURF) 13.2: Quadro 4000 / Xeon X5650 (ENS); GTX 560 Ti / Phenom II",
                seed_col == 0, sc.ens[seed_col],
                {{"ens_ms", sc.ens[seed_col]}, {"personal_ms", sc.personal[seed_col]}});
    row.reference["seed_best_gpu_ms"] = best_seed;
    // Work estimates: brin tests of the rasterizing engines (two tool surfaces over the
    // tool's footprint, within the window, at every position), and for the per-brin engine
    // every triangle of every position whose box covers the brin.
    double footprint =
        std::min(0.7854 * double(sc.diameter / st.d) * double(sc.diameter / st.d), double(st.nx) * double(st.ny));
    double tests = 2.0 * footprint * double(path.size());
    double overlap = std::min(
        1.0, double(sc.diameter + 2 * st.d) * double(sc.diameter + 2 * st.d) / (double(window) * double(window)));
    double brin_work = double(n) * n * double(path.size()) * (1.0 + overlap * tool.triangles());
    if (eng == Engine::PerBrin && brin_work > 2e11) {
      row.reference["skipped"] = "per brin: every brin scans every position's triangles; too long at this size";
      rows.push_back(row);
      continue;
    }
    if (eng == Engine::Cpu) {
      if (pairs > (options.quick ? 1e6 : 2e9) || tests > 1e10) {
        row.reference["skipped"] = "CPU: too long at this size";
        rows.push_back(row);
        continue;
      }
      time_cpu(row, st, m.heights(), tool, path);
      row.reference["threads"] = std::thread::hardware_concurrency();
    } else {
      auto t = time_path(ctx, m, eng, path.size(), tool.triangles(), options.quick);
      row.median_ms = t.median_ms;
      row.min_ms = t.min_ms;
      row.repeats = t.repeats;
      if (best_seed < INFINITY) row.reference["speedup_over_seed_best_gpu"] = best_seed / t.median_ms;
    }
    rows.push_back(row);
  }
}

// Seed 003 §15.4.1: the same run in 64 bits (fine on the GPU, the CPU engine where it runs).
void bench_double(gpu::Context& ctx, const BenchOptions& options, const SeedConfig& sc, const Setup& su,
                  BenchRows& rows) {
  const auto& [path, tool, st, window] = su;
  double pairs = double(tool.triangles()) * double(path.size());
  auto sixty_four = precision_table().find(sc.name);
  if (sixty_four == precision_table().end() || !ctx.int64_atomics) return;
  Stock st64 = st;
  st64.f64 = true;
  Machine m64(ctx, st64, tool, path);
  for (Engine eng : {Engine::Fine, Engine::Cpu}) {
    if (!BenchOptions::chosen(options.engines, engine_names()[size_t(eng)])) continue;
    BenchRow row;
    row.pass = std::string("machining.") + engine_names()[size_t(eng)] + ".f64";
    row.size = std::string(sc.name) + " " + std::to_string(path.size()) + "x" + std::to_string(tool.triangles());
    row.elements = uint64_t(pairs);
    const auto& t = sixty_four->second;
    bool cpu = eng == Engine::Cpu;
    row.reference = {{"configuration", sc.name}, {"precision", "double heights and intersection"}};
    seed_time(row, "Abecassis 2012 (SIMSURF) 15.4.1: GTX 560 Ti / Phenom II", cpu, cpu ? t[3] : t[1],
              {{"ms_32bit", cpu ? t[2] : t[0]}, {"ms_64bit", cpu ? t[3] : t[1]}});
    if (cpu) {
      if (pairs > 2e9) continue;
      time_cpu(row, st64, m64.heights64(), tool, path);
    } else {
      auto tm = time_path(ctx, m64, eng, path.size(), tool.triangles(), options.quick);
      row.median_ms = tm.median_ms, row.min_ms = tm.min_ms, row.repeats = tm.repeats;
    }
    rows.push_back(row);
  }
}

}  // namespace

std::vector<BenchRow> bench(gpu::Context& ctx, const BenchOptions& options) {
  check_selection(options);
  BenchRows rows(options);
  const uint32_t n = options.quick ? 64 : 1024;
  for (const auto& sc : kSeedConfigs) {
    if (options.quick && std::string(sc.name) != "spiral" && std::string(sc.name) != "single") continue;
    if (!BenchOptions::chosen(options.only, sc.name)) continue;
    auto su = setup(sc, options.quick, n);
    if (!su) continue;
    bench_single(ctx, options, sc, *su, rows);
    bench_double(ctx, options, sc, *su, rows);
  }
  if (BenchOptions::chosen(options.only, "5.3")) bench_nbuffer(ctx, options, rows);
  if (BenchOptions::chosen(options.only, "6.4.3")) bench_granularity(ctx, options, rows);
  if (BenchOptions::chosen(options.only, "7.5.4")) bench_atomics(ctx, options, rows);
  if (BenchOptions::chosen(options.only, "8.4")) bench_hit_tests(ctx, options, rows);
  if (BenchOptions::chosen(options.only, "12")) bench_tools(ctx, options, rows);
  if (BenchOptions::chosen(options.only, "15.4.2") || BenchOptions::chosen(options.only, "15.5"))
    bench_precision(ctx, options, rows);
  return rows.take();
}

}  // namespace machining
