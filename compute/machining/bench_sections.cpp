// `vklab bench --lab machining` sections after the report's chapters 4, 7 and 8: partitions against
// the watchdog (§4.3), the cost of atomicity (§7.5.4) and the three brin-triangle tests (§8.4).
#include "compute/machining/bench_seed.h"
#include "compute/machining/partition.h"
#include "compute/machining/torn.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <thread>

namespace machining {

using gpu::BenchOptions;
using gpu::BenchRow;
using gpu::BenchRows;

namespace {

// Seed 003 §7.5.4 ("réalisé sur la configuration GTX 560 et AMD Phenom II X4 955"; it names no
// path and tool, its times near §15.4.1's ebauche on ch. 2.2's personal configuration): the cost
// of atomicity, GPU and CPU, 32 and 64 bits, in ms. Lock: none given (§7.5.1 calls a lock too costly); atomicMin in 64
// bits: none in CUDA then.
struct SeedAtomicTimes {
  double gpu32, gpu64, cpu32, cpu64;  // -1: not measured
};
const std::map<Atomic, SeedAtomicTimes> kSeedAtomics = {{Atomic::None, {689.7, 3035, 24773, 27348}},
                                                        {Atomic::Native, {690.3, -1, -1, -1}},
                                                        {Atomic::Cas, {750.5, 3072, 24984, 27756}},
                                                        {Atomic::Lock, {-1, -1, -1, -1}}};

}  // namespace

// Section "7.5.4" (`--only 7.5.4`): every way of lowering a brin, on the rasterizing engines in single precision and
// the fine one in double, on ebauche (the quick bench: spiral, 300 positions). Each mode's heights
// after one run of the whole path from the flat stock are compared with atomicMin's: the brins
// a race left too high. The CPU engine needs no atomics (a band of rows or a copy of them
// belongs to one thread): its row stands beside the seed's CPU figures.
void bench_atomics(gpu::Context& ctx, const BenchOptions& options, BenchRows& rows) {
  const SeedConfig& sc = seed_config(options.quick ? "spiral" : "ebauche");
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
        BenchRow row{.pass = "machining." + engine_names()[size_t(eng)] + (cpu ? "" : "." + atomic_names()[size_t(a)]) +
                             (f64 ? ".f64" : ""),
                     .size = "7.5.4 " + std::string(sc.name) + " " + std::to_string(path.size()) + "x" +
                             std::to_string(tool.triangles()),
                     .elements = uint64_t(double(tool.triangles()) * double(path.size()))};
        const SeedAtomicTimes& t = kSeedAtomics.at(cpu ? Atomic::None : a);
        double seed = cpu ? (f64 ? t.cpu64 : t.cpu32) : (f64 ? t.gpu64 : t.gpu32);
        note_stand_in(row, sc);
        row.reference.update(
            {{"section", "7.5.4"},
             {"configuration", sc.name},
             {"atomic", cpu ? "none needed (a band of rows or a copy of them a thread)" : atomic_names()[size_t(a)]},
             {"precision", f64 ? "double" : "single"}});
        if ((seed > 0 || cpu) && !options.quick)  // the quick bench's spiral is not the report's run
          seed_time(row, "Abecassis 2012 (SIMSURF) 7.5.4: 'GTX 560 and AMD Phenom II X4 955' (its words)", cpu,
                    seed > 0 ? seed : (f64 ? t.cpu64 : t.cpu32),
                    cpu ? nlohmann::json{{"cpu_compare_and_swap_ms", f64 ? 27756 : 24984}} : nlohmann::json::object());
        if (cpu) {
          if (f64) {
            time_cpu(row, options, s, m.heights64(), tool, path);
          } else {
            time_cpu(row, options, s, m.heights(), tool, path);
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
        row.add_note("%zu brins unlike atomicMin", wrong);
        auto tm = time_path(ctx, m, eng, path.size(), tool.triangles(), options.quick);
        row.set_times(tm);
        rows.push_back(row);
      }
    }
  }
}

namespace {

// Seed 003 §8.4: the three tests {general, zbuffer, edge ("rastérisation")} under CUDA on the
// GeForce GTX 560 Ti (§8.4.1), and on a CPU §8.4.2 does not name, ms.
const std::map<std::string, std::array<double, 6>> kSeedHitTests = {
    {"ebauche", {2343, 773.6, 751.8, 42892, 34625, 28756}},
    {"finition", {4027, 1385.3, 1352.8, 51297, 35531, 31427}},
    {"volcano", {206.9, 99.5, 94.7, 8321, 6432, 5794}},
    {"random", {106.0, 44.3, 39.3, 2033, 1853, 1623}}};

}  // namespace

// Section "8.4" (`--only 8.4`): each brin-triangle test timed on the fine engine and the CPU on
// the report's four configurations (the quick bench: spiral, 300 positions), then how many brins
// each gets right in single precision on the stability case of §15.3 and figure 15.3, the
// downspiral's cone: of the brins cut, those equal to the 64-bit heights (the CPU engine's, edge
// test) rounded to float, and the error in float ulps of max(|h|, 1).
void bench_hit_tests(gpu::Context& ctx, const BenchOptions& options, BenchRows& rows) {
  const uint32_t n = options.quick ? 64 : 1024;
  std::vector<std::string> timed = {"ebauche", "finition", "volcano", "random"};
  if (options.quick) timed = {"spiral"};
  for (const auto& name : timed) {
    const SeedConfig& sc = seed_config(name);
    auto su = setup(sc, options.quick, n);
    const auto& [path, tool, st, window] = *su;
    Machine m(ctx, st, tool, path);
    for (Engine eng : {Engine::Fine, Engine::Cpu}) {
      if (!BenchOptions::chosen(options.engines, engine_names()[size_t(eng)])) continue;
      for (HitTest test : {HitTest::General, HitTest::Zbuffer, HitTest::Edge}) {
        BenchRow row{.pass = "machining." + engine_names()[size_t(eng)] + "." + hit_test_names()[size_t(test)],
                     .size = "8.4 " + name + " " + std::to_string(path.size()) + "x" + std::to_string(tool.triangles()),
                     .elements = uint64_t(double(tool.triangles()) * double(path.size()))};
        note_stand_in(row, sc);
        row.reference.update(
            {{"section", "8.4"}, {"configuration", name}, {"intersection", hit_test_names()[size_t(test)]}});
        auto seed = kSeedHitTests.find(name);
        if (seed != kSeedHitTests.end()) {
          size_t col = size_t(test == HitTest::General ? 0 : test == HitTest::Zbuffer ? 1 : 2);
          bool cpu = eng == Engine::Cpu;
          seed_time(row,
                    cpu ? "Abecassis 2012 (SIMSURF) 8.4.2: configuration not named by the report"
                        : "Abecassis 2012 (SIMSURF) 8.4.1: GeForce GTX 560 Ti (CUDA)",
                    cpu, seed->second[cpu ? col + 3 : col]);
        }
        m.set_hit_test(test);
        if (eng == Engine::Cpu) {
          time_cpu(row, options, st, std::vector<float>(size_t(st.nx) * st.ny, st.top), tool, path, test);
        } else {
          auto t = time_path(ctx, m, eng, path.size(), tool.triangles(), options.quick);
          row.set_times(t);
        }
        rows.push_back(row);
      }
    }
  }
  // The stability case.
  if (!BenchOptions::chosen(options.engines, "fine")) return;
  const SeedConfig& sc = seed_config("downspiral");
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
    BenchRow row{
        .pass = "machining.fine." + hit_test_names()[size_t(test)],
        .size = "8.4 stability downspiral " + std::to_string(path.size()) + "x" + std::to_string(tool.triangles()),
        .elements = uint64_t(double(tool.triangles()) * double(path.size())),
        .reference = {
            {"section", "8.4"},
            {"configuration", "downspiral"},
            {"intersection", hit_test_names()[size_t(test)]},
            {"stability", "SIMSURF (Abecassis 2012) §15.3, figure 15.3: single precision against the 64-bit heights"},
            {"brins", h.size()},
            {"brins_cut", cut},
            {"brins_correctly_rounded", right},
            {"mean_ulps", cut ? mean / double(cut) : 0.0},
            {"max_ulps", worst}}};
    row.add_note("%llu of %llu brins cut correctly rounded, mean %.3g ulp, worst %.3g", (unsigned long long)right,
                 (unsigned long long)cut, cut ? mean / double(cut) : 0.0, worst);
    auto t = time_path(ctx, m, Engine::Fine, path.size(), tool.triangles(), options.quick);
    row.set_times(t);
    rows.push_back(row);
  }
}

}  // namespace machining

namespace machining {

// Section "6.4.3" (`--only 6.4.3`): the granularity factor G (the position engine shares a
// position's triangles among G threads, the triangle engine a triangle's positions) and the
// workgroup size, swept where each matters (the report gives no table): the position engine on
// "spiral zoom" (few positions reach the window), the triangle engine on "downspiral" (a
// 64-triangle cone), the fine and persistent engines' workgroups on "spiral". Each run's heights
// are checked against the first's (bit for bit: the minimum does not depend on who computes it);
// then a row per engine says which setting the sweep chose.
void bench_granularity(gpu::Context& ctx, const BenchOptions& options, BenchRows& rows) {
  struct Sweep {
    Engine engine;
    const char* config;
    bool granularity;  // else the workgroup size
  };
  const Sweep sweeps[] = {{Engine::PerPosition, "spiral zoom", true},
                          {Engine::PerTriangle, "downspiral", true},
                          {Engine::PerPosition, "spiral zoom", false},
                          {Engine::Fine, "spiral", false},
                          {Engine::Persistent, "spiral", false}};
  const uint32_t n = options.quick ? 64 : 1024;
  for (const auto& sw : sweeps) {
    if (!BenchOptions::chosen(options.engines, engine_names()[size_t(sw.engine)])) continue;
    const SeedConfig& sc = seed_config(options.quick ? "spiral" : sw.config);
    auto su = setup(sc, options.quick, n);
    if (!su) continue;
    const auto& [path, tool, st, window] = *su;
    Machine m(ctx, st, tool, path);
    std::vector<uint32_t> values;
    if (sw.granularity)
      values = options.quick ? std::vector<uint32_t>{1, 4}
                             : std::vector<uint32_t>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048};
    else
      for (uint32_t g = 32; g <= std::min(1024u, ctx.props.limits.maxComputeWorkGroupSize[0]); g *= 2)
        if (!options.quick || g <= 128) values.push_back(g);
    std::vector<float> first;
    double best = INFINITY;
    uint32_t best_value = 0;
    const std::string what = sw.granularity ? "G" : "workgroup";
    for (uint32_t v : values) {
      m.set_granularity(sw.granularity ? v : 1);
      m.set_workgroup(sw.granularity ? 64 : v);
      BenchRow row;
      row.pass =
          "machining." + engine_names()[size_t(sw.engine)] + "." + (sw.granularity ? "G" : "wg") + std::to_string(v);
      row.size =
          "6.4.3 " + std::string(sc.name) + " " + std::to_string(path.size()) + "x" + std::to_string(tool.triangles());
      row.elements = uint64_t(double(tool.triangles()) * double(path.size()));
      auto t = time_path(ctx, m, sw.engine, path.size(), uint32_t(tool.triangles()), options.quick);
      row.set_times(t);
      auto h = m.heights();
      if (first.empty()) first = h;
      row.reference = {{"section", "6.4.3"},
                       {"configuration", sc.name},
                       {what == "G" ? "granularity" : "workgroup", v},
                       {"heights_as_the_first", h == first}};
      if (t.median_ms < best) best = t.median_ms, best_value = v;
      rows.push_back(row);
    }
    BenchRow chosen;
    chosen.pass = "machining." + engine_names()[size_t(sw.engine)] + ".chosen";
    chosen.size = "6.4.3 " + std::string(sc.name) + " " + what + " " + std::to_string(best_value);
    chosen.median_ms = best;
    chosen.reference = {{"section", "6.4.3"},
                        {"configuration", sc.name},
                        {"chosen", {{what == "G" ? "granularity" : "workgroup", best_value}}}};
    rows.push_back(chosen);
  }
}

// Section "7.3.2" (`--only 7.3.2`): a 64-bit value raced on as two 32-bit halves and whole (torn.h), on the GPU and
// this CPU; each row counts the reads that saw two writers' halves and the slots left with a value no writer wrote.
void bench_torn(gpu::Context& ctx, const BenchOptions& options, BenchRows& rows) {
  TornConfig c;
  if (options.quick) c.writers = 4096, c.rounds = 16;
  const uint32_t threads = std::max(2u, std::thread::hardware_concurrency());
  auto races = torn_races_gpu(ctx, c);
  for (auto& r : torn_races_cpu(c.slots, threads, options.quick ? 2000 : 20000)) races.push_back(r);
  for (const TornRace& r : races) {
    if (!r.skipped.empty()) continue;
    BenchRow row{.pass = std::string("machining.torn.") +
                         (r.form == "halves"   ? "halves"
                          : r.form == "atomic" ? "atomic"
                                               : "whole") +
                         (r.gpu ? "" : ".cpu"),
                 .size = "7.3.2 " + std::to_string(c.slots) + " slots, " +
                         (r.gpu ? std::to_string(c.writers) + "+" + std::to_string(c.writers) + " invocations x " +
                                      std::to_string(c.rounds)
                                : std::to_string(threads) + " threads"),
                 .elements = r.reads,
                 .repeats = 1,
                 .median_ms = r.ms,  // the race's one run, on the GPU or this CPU
                 .min_ms = r.ms};
    row.reference = {{"section", "Abecassis 2012 (SIMSURF) 7.3.2"},
                     {"form", r.form},
                     {"where", r.gpu ? ctx.info.name : "this CPU"},
                     {"reads", r.reads},
                     {"torn_reads", r.torn_reads},
                     {"torn_slots", r.torn_slots},
                     {"slots", c.slots}};
    row.add_note("%s: %llu of %llu reads torn, %llu of %u slots end torn (a value no writer wrote)", r.form.c_str(),
                 (unsigned long long)r.torn_reads, (unsigned long long)r.reads, (unsigned long long)r.torn_slots,
                 c.slots);
    rows.push_back(std::move(row));
  }
}

// Section "4.3" (`--only 4.3`): the whole path of ebauche (the quick bench: spiral) milled by the
// fine engine a submission at a time, each waited for: static partitions of 1 to all positions
// (§4.3.1) and dynamic ones aimed at a budget (§4.3.2). A row's time is the whole path's, wall
// clock (the launches and waits the finest partitions pay); its note counts the submissions
// longer than kWatchdogMs, a watchdog's limit standing in for the report's 10 s.
void bench_partitions(gpu::Context& ctx, const BenchOptions& options, BenchRows& rows) {
  constexpr double kWatchdogMs = 8;
  const SeedConfig& sc = seed_config(options.quick ? "spiral" : "ebauche");
  auto su = setup(sc, options.quick, options.quick ? 64 : 1024);
  const auto& [path, tool, st, window] = *su;
  Machine m(ctx, st, tool, path);
  const uint32_t total = uint32_t(path.size());
  struct Way {
    std::optional<uint32_t> fixed;
    double budget_ms;
  };
  std::vector<Way> ways;
  // a position a submission only on the quick bench's short path (ébauche's would take a minute)
  for (uint32_t n : {options.quick ? 1u : 10u, 10u, 100u, 1000u, total})
    if (n <= total && (ways.empty() || n != *ways.back().fixed)) ways.push_back({n, 0});
  for (double b : {kWatchdogMs / 4, kWatchdogMs}) ways.push_back({std::nullopt, b});
  for (const Way& w : ways) {
    const int repeats =
        options.quick || (w.fixed && total / *w.fixed > 1000) ? 1 : 3;  // thousands of submissions: once
    std::vector<PartitionStats> runs;
    for (int k = 0; k < repeats; ++k) runs.push_back(mill_in_partitions(ctx, m, Engine::Fine, w.fixed, w.budget_ms));
    std::sort(runs.begin(), runs.end(), [](auto& a, auto& b) { return a.wall_ms < b.wall_ms; });
    const PartitionStats& r = runs[runs.size() / 2];
    uint32_t over = 0;
    for (auto& s : r.submissions) over += s.ms > kWatchdogMs;
    char way[64];
    if (w.fixed)
      std::snprintf(way, sizeof way, "static %u", *w.fixed);
    else
      std::snprintf(way, sizeof way, "dynamic %.3g ms", w.budget_ms);
    BenchRow row{.pass = std::string("machining.partition.") + (w.fixed ? "static" : "dynamic"),
                 .size = "4.3 " + std::string(sc.name) + " " + std::to_string(total) + "x" +
                         std::to_string(tool.triangles()) + ", " + way,
                 .elements = uint64_t(double(tool.triangles()) * double(total)),
                 .repeats = repeats,
                 .median_ms = r.wall_ms,
                 .min_ms = runs.front().wall_ms};
    note_stand_in(row, sc);
    row.reference = {{"section", "Abecassis 2012 (SIMSURF) 4.3"},
                     {"partition", w.fixed ? "static" : "dynamic"},
                     {"positions_a_submission", w.fixed ? nlohmann::json(*w.fixed) : nlohmann::json(nullptr)},
                     {"budget_ms", w.fixed ? nlohmann::json(nullptr) : nlohmann::json(w.budget_ms)},
                     {"submissions", r.submissions.size()},
                     {"gpu_ms", r.gpu_ms()},
                     {"median_submission_ms", r.median_ms()},
                     {"longest_submission_ms", r.max_ms()},
                     {"watchdog_ms", kWatchdogMs},
                     {"over_watchdog", over}};
    row.add_note(
        "%zu submissions, GPU %.2f ms of the wall's %.2f; a submission: median %.3f ms, longest %.3f ms; "
        "%u over a %.0f ms watchdog",
        r.submissions.size(), r.gpu_ms(), r.wall_ms, r.median_ms(), r.max_ms(), over, kWatchdogMs);
    rows.push_back(std::move(row));
  }
}

// Section "6.2" (`--only 6.2`): the CPU engine (SIMSURF §6.2: an OpenMP parallel for) on ébauche
// (the quick bench: spiral) with its three schedules (CpuSchedule), each timed with the caches
// emptied first, each checked equal to the dynamic one's heights.
void bench_schedules(gpu::Context&, const BenchOptions& options, BenchRows& rows) {
  const SeedConfig& sc = seed_config(options.quick ? "spiral" : "ebauche");
  auto su = setup(sc, options.quick, options.quick ? 64 : 1024);
  const auto& [path, tool, st, window] = *su;
  const std::vector<float> flat(size_t(st.nx) * st.ny, st.top);
  std::vector<float> reference = flat;
  mill_cpu(st, reference, tool, path);
  const char* names[] = {"dynamic", "static", "guided"};
  for (CpuSchedule schedule : {CpuSchedule::Static, CpuSchedule::Dynamic, CpuSchedule::Guided}) {
    std::vector<float> h = flat;
    mill_cpu(st, h, tool, path, 0, HitTest::Edge, Frame::Tool, schedule);
    const bool same = h == reference;
    BenchRow row{.pass = std::string("machining.cpu.") + names[size_t(schedule)],
                 .size = "6.2 " + std::string(sc.name) + " " + std::to_string(path.size()) + "x" +
                         std::to_string(tool.triangles()),
                 .elements = uint64_t(double(tool.triangles()) * double(path.size()))};
    note_stand_in(row, sc);
    row.reference = {{"section", "Abecassis 2012 (SIMSURF) 6.2"},
                     {"schedule", names[size_t(schedule)]},
                     {"threads", std::max(1u, std::thread::hardware_concurrency())},
                     {"same_heights_as_dynamic", same}};
    time_cpu(row, options, st, flat, tool, path, HitTest::Edge, schedule);
    row.add_note("%s schedule; %s", names[size_t(schedule)], same ? "the same heights" : "heights DIFFER");
    rows.push_back(std::move(row));
  }
}

}  // namespace machining
