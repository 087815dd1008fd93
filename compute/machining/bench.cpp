#include "bench.h"

#include "zbuffer.h"
#include "gpu/bandwidth.h"

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
struct SeedConfig {
  const char* name;
  const char* path;
  uint32_t positions;
  const char* tool;
  uint32_t triangles;
  float diameter, surface, zoom;
  bool five_axis;
  double ens[4], personal[4];
};
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

// The CPU engine over the whole path from the same starting heights, wall clock: three runs
// (one where the first takes over 3 s), their median and fastest.
template <class R>
void time_cpu(BenchRow& row, const Stock& st, const std::vector<R>& start, const Mesh& tool,
              const std::vector<Position>& path) {
  std::vector<double> ms;
  for (int r = 0; r < 3 && (ms.empty() || ms[0] < 3000); ++r) {
    std::vector<R> h = start;
    auto t0 = std::chrono::steady_clock::now();
    mill_cpu(st, h, tool, path);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  row.median_ms = gpu::median(ms);
  row.min_ms = *std::min_element(ms.begin(), ms.end());
  row.repeats = int(ms.size());
}

// One run of the whole path on a GPU engine, in dispatches of at most 2^26 (triangle,
// position) pairs; a short run is timed again, 3 times after 200 ms of warm-up (clocks
// leave idle).
gpu::GpuTiming time_path(gpu::Context& ctx, Machine& m, Engine eng, size_t positions, uint32_t triangles, bool quick) {
  uint32_t chunk = uint32_t(std::clamp<double>(double(1u << 26) / double(triangles), 1, 1 << 20));
  auto record = [&](VkCommandBuffer cmd) {
    for (size_t first = 0; first < positions; first += chunk) m.record(cmd, eng, uint32_t(first), chunk);
  };
  auto t = gpu::time_gpu(ctx, record, 1, 0);
  if (!quick && t.median_ms < 200) t = gpu::time_gpu(ctx, record, 3, 200);
  return t;
}

}  // namespace

namespace {

// --only and --engines name what exists.
void check_selection(const BenchOptions& options) {
  for (auto& e : options.engines)
    if (std::find(engine_names().begin(), engine_names().end(), e) == engine_names().end())
      throw std::invalid_argument("bench: unknown engine '" + e +
                                  "' (engines: cpu, position, triangle, fine, "
                                  "persistent, brin, hardware)");
  for (auto& name : options.only)
    if (name != "7.5.4" && name != "8.4" &&
        std::none_of(std::begin(kSeedConfigs), std::end(kSeedConfigs), [&](auto& c) { return name == c.name; }))
      throw std::invalid_argument(
          "bench: unknown configuration '" + name +
          "' (the seed's: single, random, spiral, "
          "downspiral, volcano, their zooms as 'spiral zoom', ebauche (roughing), finition (finishing); "
          "sections: 7.5.4 (atomicity), 8.4 (intersection tests))");
}

// The configuration's path, tool and stock (the zooms keep the positions whose tool
// reaches the window); nullopt when no position does.
struct Setup {
  std::vector<Position> path;
  Mesh tool;
  Stock st;
  float window = 0;
};
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
      row.reference["thesis"] = {
          {"device", "Abecassis 2012 (SIMSURF) 13.2: Quadro 4000 / Xeon X5650 (ENS); GTX 560 Ti / Phenom II"},
          {seed_col == 0 ? "cpu_only_ms" : "gpu_ms", sc.ens[seed_col]},
          {"ens_ms", sc.ens[seed_col]},
          {"personal_ms", sc.personal[seed_col]}};
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
    row.reference = {{"configuration", sc.name},
                     {"precision", "double heights and intersection"},
                     {"thesis",
                      {{"device", "Abecassis 2012 (SIMSURF) 15.4.1: GTX 560 Ti / Phenom II"},
                       {cpu ? "cpu_only_ms" : "gpu_ms", cpu ? t[3] : t[1]},
                       {"ms_32bit", cpu ? t[2] : t[0]},
                       {"ms_64bit", cpu ? t[3] : t[1]}}}};
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

// Seed 003 §7.5.4 (GTX 560 Ti / Phenom II X4 955; the report names no configuration, its times
// are those of §13.2's and §15.4.1's ebauche on that machine): the cost of atomicity, GPU and CPU,
// 32 and 64 bits, in ms. Lock: none given (§7.5.1 calls a lock too costly); atomicMin in 64
// bits: none in CUDA then.
struct SeedAtomicTimes {
  double gpu32, gpu64, cpu32, cpu64;  // -1: not measured
};
const std::map<Atomic, SeedAtomicTimes> kSeedAtomics = {{Atomic::None, {689.7, 3035, 24773, 27348}},
                                                        {Atomic::Native, {690.3, -1, -1, -1}},
                                                        {Atomic::Cas, {750.5, 3072, 24984, 27756}},
                                                        {Atomic::Lock, {-1, -1, -1, -1}}};

// Section "7.5.4" (`--only 7.5.4`): every way of lowering a brin, on the rasterizing engines in single precision and
// the fine one in double, on ebauche (the quick bench: spiral, 300 positions). Each mode's heights
// after one run of the whole path from the flat stock are compared with atomicMin's: the brins
// a race left too high. The CPU engine needs no atomics (a band of rows or a copy of them
// belongs to one thread): its row stands beside the seed's CPU figures.
void bench_atomics(gpu::Context& ctx, const BenchOptions& options, BenchRows& rows) {
  const SeedConfig& sc = *std::find_if(std::begin(kSeedConfigs), std::end(kSeedConfigs), [&](auto& c) {
    return std::string(c.name) == (options.quick ? "spiral" : "ebauche");
  });
  auto su = setup(sc, options.quick, options.quick ? 64 : 1024);
  const auto& [path, tool, st, window] = *su;
  for (bool f64 : {false, true}) {
    if (f64 && !ctx.int64_atomics) continue;
    Stock s = st;
    s.f64 = f64;
    Machine m(ctx, s, tool, path);
    auto heights = [&] {
      if (f64) return m.heights64();
      auto h = m.heights();
      return std::vector<double>(h.begin(), h.end());
    };
    std::vector<double> exact;  // atomicMin's, the reference
    for (Engine eng : {Engine::PerPosition, Engine::PerTriangle, Engine::Fine, Engine::Persistent, Engine::Cpu}) {
      if (f64 && eng != Engine::Fine && eng != Engine::Cpu) continue;
      if (!BenchOptions::chosen(options.engines, engine_names()[size_t(eng)])) continue;
      const bool cpu = eng == Engine::Cpu;
      for (Atomic a : {Atomic::Native, Atomic::Cas, Atomic::Lock, Atomic::None}) {
        if (cpu && a != Atomic::Native) break;
        BenchRow row;
        row.pass = "machining." + engine_names()[size_t(eng)] + (cpu ? "" : "." + atomic_names()[size_t(a)]) +
                   (f64 ? ".f64" : "");
        row.size = "7.5.4 " + std::string(sc.name) + " " + std::to_string(path.size()) + "x" +
                   std::to_string(tool.triangles());
        row.elements = uint64_t(double(tool.triangles()) * double(path.size()));
        const SeedAtomicTimes& t = kSeedAtomics.at(cpu ? Atomic::None : a);
        double seed = cpu ? (f64 ? t.cpu64 : t.cpu32) : (f64 ? t.gpu64 : t.gpu32);
        row.reference = {
            {"section", "7.5.4"},
            {"configuration", sc.name},
            {"atomic", cpu ? "none needed (a band of rows or a copy of them a thread)" : atomic_names()[size_t(a)]},
            {"precision", f64 ? "double" : "single"}};
        if (seed > 0 || cpu)
          row.reference["thesis"] = {{"device", "Abecassis 2012 (SIMSURF) 7.5.4: GTX 560 Ti / Phenom II X4 955"},
                                     {cpu ? "cpu_only_ms" : "gpu_ms", seed > 0 ? seed : (f64 ? t.cpu64 : t.cpu32)}};
        if (cpu) {
          row.reference["thesis"]["cpu_compare_and_swap_ms"] = f64 ? 27756 : 24984;
          if (f64) {
            time_cpu(row, s, m.heights64(), tool, path);
          } else {
            time_cpu(row, s, m.heights(), tool, path);
          }
          rows.push_back(row);
          continue;
        }
        m.set_atomic(a);
        m.set_heights(std::vector<float>(size_t(s.nx) * s.ny, s.top));  // one run from the flat stock
        ctx.submit_now([&](VkCommandBuffer cmd) { m.record(cmd, eng, 0, uint32_t(path.size())); });
        auto h = heights();
        if (exact.empty()) exact = h;
        size_t wrong = 0;
        for (size_t i = 0; i < h.size(); ++i) wrong += h[i] != exact[i];
        row.reference["brins_unlike_atomicmin"] = wrong;
        auto tm = time_path(ctx, m, eng, path.size(), tool.triangles(), options.quick);
        row.median_ms = tm.median_ms, row.min_ms = tm.min_ms, row.repeats = tm.repeats;
        rows.push_back(row);
      }
    }
  }
}

// Seed 003 §8.4: the three tests {general, zbuffer, edge ("rastérisation")} on the GTX 560 Ti
// under CUDA and on the Phenom II X4 955, ms.
const std::map<std::string, std::array<double, 6>> kSeedHitTests = {
    {"ebauche", {2343, 773.6, 751.8, 42892, 34625, 28756}},
    {"finition", {4027, 1385.3, 1352.8, 51297, 35531, 31427}},
    {"volcano", {206.9, 99.5, 94.7, 8321, 6432, 5794}},
    {"random", {106.0, 44.3, 39.3, 2033, 1853, 1623}}};

// Section "8.4" (`--only 8.4`): each brin-triangle test timed on the fine engine and the CPU on
// the report's four configurations (the quick bench: spiral, 300 positions), then how many brins
// each gets right in single precision on the stability case of §15.3 and figure 15.3, the
// downspiral's cone: of the brins cut, those equal to the 64-bit heights (the CPU engine's, edge
// test) rounded to float, and the error in float ulps of max(|h|, 1).
void bench_hit_tests(gpu::Context& ctx, const BenchOptions& options, BenchRows& rows) {
  const uint32_t n = options.quick ? 64 : 1024;
  auto config = [&](const std::string& name) {
    return *std::find_if(std::begin(kSeedConfigs), std::end(kSeedConfigs), [&](auto& c) { return name == c.name; });
  };
  std::vector<std::string> timed = {"ebauche", "finition", "volcano", "random"};
  if (options.quick) timed = {"spiral"};
  for (const auto& name : timed) {
    const SeedConfig& sc = config(name);
    auto su = setup(sc, options.quick, n);
    const auto& [path, tool, st, window] = *su;
    Machine m(ctx, st, tool, path);
    for (Engine eng : {Engine::Fine, Engine::Cpu}) {
      if (!BenchOptions::chosen(options.engines, engine_names()[size_t(eng)])) continue;
      for (HitTest test : {HitTest::General, HitTest::Zbuffer, HitTest::Edge}) {
        BenchRow row;
        row.pass = "machining." + engine_names()[size_t(eng)] + "." + hit_test_names()[size_t(test)];
        row.size = "8.4 " + name + " " + std::to_string(path.size()) + "x" + std::to_string(tool.triangles());
        row.elements = uint64_t(double(tool.triangles()) * double(path.size()));
        row.reference = {{"section", "8.4"}, {"configuration", name}, {"intersection", hit_test_names()[size_t(test)]}};
        auto seed = kSeedHitTests.find(name);
        if (seed != kSeedHitTests.end()) {
          size_t col = size_t(test == HitTest::General ? 0 : test == HitTest::Zbuffer ? 1 : 2);
          bool cpu = eng == Engine::Cpu;
          row.reference["thesis"] = {{"device", "Abecassis 2012 (SIMSURF) 8.4: GTX 560 Ti (CUDA) / Phenom II X4 955"},
                                     {cpu ? "cpu_only_ms" : "gpu_ms", seed->second[cpu ? col + 3 : col]}};
        }
        m.set_hit_test(test);
        if (eng == Engine::Cpu) {
          std::vector<float> start(size_t(st.nx) * st.ny, st.top);
          std::vector<double> ms;
          for (int r = 0; r < 3 && (ms.empty() || ms[0] < 3000); ++r) {
            std::vector<float> h = start;
            auto t0 = std::chrono::steady_clock::now();
            mill_cpu(st, h, tool, path, 0, test);
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
          }
          row.median_ms = gpu::median(ms);
          row.min_ms = *std::min_element(ms.begin(), ms.end());
          row.repeats = int(ms.size());
        } else {
          auto t = time_path(ctx, m, eng, path.size(), tool.triangles(), options.quick);
          row.median_ms = t.median_ms, row.min_ms = t.min_ms, row.repeats = t.repeats;
        }
        rows.push_back(row);
      }
    }
  }
  // The stability case.
  if (!BenchOptions::chosen(options.engines, "fine")) return;
  const SeedConfig& sc = config("downspiral");
  auto su = setup(sc, options.quick, n);
  if (options.quick) {  // the seed's path is too long for 300 positions to reach far: its shape, small
    su->path = generate_path("downspiral", 30.0f, 300, 1.5f);
    su->tool = make_tool("cone", 6.0f, 64);
    su->st.d = 0.5f, su->st.x0 = su->st.y0 = 0.0f;
  }
  const auto& [path, tool, st, window] = *su;
  Stock st64 = st;
  st64.f64 = true;
  std::vector<double> exact(size_t(st.nx) * st.ny, double(st.top));
  mill_cpu(st64, exact, tool, path);
  Machine m(ctx, st, tool, path);
  for (HitTest test : {HitTest::General, HitTest::Zbuffer, HitTest::Edge}) {
    m.set_hit_test(test);
    m.set_heights(std::vector<float>(exact.size(), st.top));
    ctx.submit_now([&](VkCommandBuffer cmd) { m.record(cmd, Engine::Fine, 0, uint32_t(path.size())); });
    auto h = m.heights();
    uint64_t right = 0, cut = 0;
    double mean = 0, worst = 0;
    for (size_t i = 0; i < h.size(); ++i) {
      if (!(exact[i] < double(st.top))) continue;  // the brins cut
      ++cut;
      right += h[i] == float(exact[i]);
      float scale = std::max(1.0f, std::fabs(float(exact[i])));
      double ulps = std::fabs(double(h[i]) - exact[i]) / double(std::nextafter(scale, INFINITY) - scale);
      mean += ulps, worst = std::max(worst, ulps);
    }
    BenchRow row;
    row.pass = "machining.fine." + hit_test_names()[size_t(test)];
    row.size = "8.4 stability downspiral " + std::to_string(path.size()) + "x" + std::to_string(tool.triangles());
    row.elements = uint64_t(double(tool.triangles()) * double(path.size()));
    row.reference = {{"section", "8.4"},
                     {"configuration", "downspiral"},
                     {"intersection", hit_test_names()[size_t(test)]},
                     {"stability", "seed 003 15.3, figure 15.3: single precision against the 64-bit heights"},
                     {"brins", h.size()},
                     {"brins_cut", cut},
                     {"brins_correctly_rounded", right},
                     {"mean_ulps", cut ? mean / double(cut) : 0.0},
                     {"max_ulps", worst}};
    auto t = time_path(ctx, m, Engine::Fine, path.size(), tool.triangles(), options.quick);
    row.median_ms = t.median_ms, row.min_ms = t.min_ms, row.repeats = t.repeats;
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
  if (BenchOptions::chosen(options.only, "7.5.4")) bench_atomics(ctx, options, rows);
  if (BenchOptions::chosen(options.only, "8.4")) bench_hit_tests(ctx, options, rows);
  return rows.take();
}

}  // namespace machining
