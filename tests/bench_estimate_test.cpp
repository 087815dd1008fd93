// What makes a second bench fast and every bench say how far it is: the CPU references kept
// per machine (compute/measure/cpu_baselines.h), the estimate from the last run's rows
// (compute/measure/bench_estimate.h), the CPU timer that stops once its figure is stable, and
// --only in the labs that took none; then the whole of it through `vklab bench`.
#include "compute/measure/bench_estimate.h"
#include "app/core/lab.h"
#include "compute/io/output.h"
#include "compute/measure/cpu_baselines.h"
#include "compute/measure/cpu_cache.h"
#include "compute/measure/roofline.h"
#include "compute/measure/timer.h"
#include "tests/helpers.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <thread>

TEST(BenchEstimate, ScalesWhatIsLeftByThisRunsPace) {
  const std::vector<double> last = {2, 4, 6, 8};  // 20 s last time
  auto p = gpu::estimate(last, {}, 0);
  EXPECT_EQ(p.expected, 4u);
  EXPECT_DOUBLE_EQ(p.left_s, 20);
  EXPECT_FLOAT_EQ(p.fraction(), 0.0f);
  // Twice as fast so far (3 s for 6 s of rows): the 14 s left become 7, less 1 s spent in row 3.
  p = gpu::estimate(last, {1, 2}, 4);
  EXPECT_EQ(p.done, 2u);
  EXPECT_DOUBLE_EQ(p.left_s, 6);
  EXPECT_NEAR(p.fraction(), 0.4, 1e-6);
  // A row running long is counted up to its expected time, never below zero left.
  EXPECT_DOUBLE_EQ(gpu::estimate(last, {1, 2}, 100).left_s, 4);
  EXPECT_DOUBLE_EQ(gpu::estimate(last, {2, 4, 6, 8}, 20).left_s, 0);
  EXPECT_NE(gpu::estimate(last, {1, 2}, 4).text().find("2 of 4 rows"), std::string::npos);
}

TEST(BenchEstimate, TheFirstRunSaysItHasNoEstimateAndNeverFillsTheBar) {
  auto p = gpu::estimate({}, {1, 1, 1}, 3);
  EXPECT_EQ(p.expected, 0u);
  EXPECT_LT(p.left_s, 0);
  EXPECT_GT(p.fraction(), 0.0f);
  EXPECT_LT(p.fraction(), 1.0f);
  EXPECT_NE(p.text().find("no estimate"), std::string::npos);
  // More rows than last time (a bench that grew): no estimate either.
  EXPECT_LT(gpu::estimate({1}, {1, 1}, 2).left_s, 0);
}

TEST(BenchEstimate, HistoryIsKeptPerDeviceAndBench) {
  auto file = scratch("bench-history") / "bench_times.json";
  std::string key = gpu::bench_key("linalg", true, {"axpby.modern.buffer", "cg.pipelined.buffer"}, {"gpu"});
  EXPECT_EQ(key, "linalg quick --only axpby.modern.buffer,cg.pipelined.buffer --engines gpu");
  gpu::BenchHistory a(file, "GPU A"), b(file, "GPU B");
  EXPECT_TRUE(a.last(key).empty());
  a.record(key, {1.5, 2.5});
  b.record(key, {9});
  EXPECT_EQ(gpu::BenchHistory(file, "GPU A").last(key), (std::vector<double>{1.5, 2.5}));
  EXPECT_EQ(gpu::BenchHistory(file, "GPU B").last(key), (std::vector<double>{9}));
  EXPECT_TRUE(gpu::BenchHistory(file, "GPU A").last("linalg").empty());
  io::write_file(file, "{ not json");  // damaged: no estimate, then rewritten
  EXPECT_TRUE(a.last(key).empty());
  a.record(key, {3});
  EXPECT_EQ(a.last(key), (std::vector<double>{3}));
}

TEST(CpuBaselines, ATimeIsTakenOncePerMachineAndReadBackAfter) {
  auto file = scratch("cpu-baselines") / "cpu_baselines.json";
  int calls = 0;
  auto time = [&] { return ++calls, 12.5; };
  {
    gpu::CpuBaselines kept(file, false);
    EXPECT_DOUBLE_EQ(kept.ms("lab/pass/64", time), 12.5);
    EXPECT_DOUBLE_EQ(kept.ms("lab/pass/64", time), 12.5);  // kept in memory already
    EXPECT_EQ(calls, 1);
    kept.save();
  }
  gpu::CpuBaselines again(file, false);
  EXPECT_TRUE(again.has("lab/pass/64"));
  EXPECT_DOUBLE_EQ(again.ms("lab/pass/64", [] { return 99.0; }), 12.5);
  EXPECT_EQ(again.read(), 1);
  EXPECT_EQ(again.timed(), 0);
  // --remeasure-cpu: timed again, and the new figure replaces the old.
  gpu::CpuBaselines fresh(file, true);
  EXPECT_DOUBLE_EQ(fresh.ms("lab/pass/64", [] { return 7.0; }), 7.0);
  fresh.save();
  EXPECT_DOUBLE_EQ(gpu::CpuBaselines(file, false).ms("lab/pass/64", [] { return 99.0; }), 7.0);
  // Another machine's figures are its own: this machine's entry sits beside them.
  auto j = nlohmann::json::parse(file_bytes(file));
  j["machines"]["Another CPU, 64 threads"] = {{"lab/pass/64", {{"ms", 1.0}}}};
  io::write_file(file, j.dump());
  gpu::CpuBaselines mine(file, false);
  EXPECT_DOUBLE_EQ(mine.ms("lab/pass/64", [] { return 99.0; }), 7.0);
  EXPECT_DOUBLE_EQ(mine.ms("lab/other/64", [] { return 3.0; }), 3.0);
  mine.save();
  j = nlohmann::json::parse(file_bytes(file));
  EXPECT_TRUE(j["machines"].contains("Another CPU, 64 threads"));
  EXPECT_TRUE(j["machines"][gpu::cpu_machine()].contains("lab/other/64"));
  // A damaged file: timed again and rewritten; nothing kept: every call timed.
  io::write_file(file, "[1, 2");
  EXPECT_DOUBLE_EQ(gpu::CpuBaselines(file, false).ms("lab/pass/64", [] { return 5.0; }), 5.0);
  gpu::CpuBaselines none;
  calls = 0;
  none.ms("k", time), none.ms("k", time);
  EXPECT_EQ(calls, 2);
  none.save();  // no file: nothing written
}

TEST(CpuTimer, StopsOnceItsFigureIsStableOrItsBudgetSpent) {
  int calls = 0;
  auto sleep = [&](int ms) {
    return [&calls, ms] {
      ++calls;
      std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    };
  };
  double ms = gpu::median_wall_ms(sleep(120), 9, 200);  // two calls pass the budget
  EXPECT_EQ(calls, 2);
  EXPECT_GE(ms, 119);
  calls = 0;
  gpu::median_wall_ms(sleep(400), 9, 200);  // one call: a long call is its own figure
  EXPECT_EQ(calls, 1);
  calls = 0;
  gpu::median_wall_ms(sleep(1), 2, 1000);  // never past the repeats
  EXPECT_EQ(calls, 2);
  calls = 0;
  int k = 0;  // alternating 1 ms and 30 ms: never three alike, so all the repeats run
  gpu::median_wall_ms(
      [&] {
        ++calls;
        std::this_thread::sleep_for(std::chrono::milliseconds(k++ % 2 ? 30 : 1));
      },
      6, 10000);
  EXPECT_EQ(calls, 6);
}

class BenchOnly : public GpuTest {};

// --only in the labs that had none: diffusion and wave by the grid's side, cloth by pass;
// a name the lab does not know is refused with the list of those it knows.
TEST_F(BenchOnly, DiffusionWaveAndClothTimeWhatIsNamedAndRefuseTheRest) {
  gpu::BenchOptions o;
  o.quick = true;
  struct Case {
    const char* lab;
    std::vector<std::string> only;
    std::string size, pass;
  };
  for (const Case& c : {Case{"diffusion", {"128"}, "128x128", "diffusion.step"}, Case{"wave", {"64"}, "64x64", ""},
                        Case{"cloth", {"cloth.step.substreams"}, "", "cloth.step.substreams"}}) {
    SCOPED_TRACE(c.lab);
    auto lab = make_lab(c.lab);
    o.only = c.only;
    auto rows = lab->bench(ctx(), o);
    ASSERT_FALSE(rows.empty());
    for (auto& r : rows) {
      if (!c.size.empty()) {
        EXPECT_EQ(r.size, c.size) << r.pass;
      }
      if (!c.pass.empty()) {
        EXPECT_EQ(r.pass, c.pass) << r.size;
      }
      EXPECT_GT(r.seconds, 0) << r.pass;
    }
    o.only = {"nonsense"};
    try {
      lab->bench(ctx(), o);
      ADD_FAILURE() << "--only nonsense was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("unknown configuration 'nonsense'"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.only[0]), std::string::npos) << e.what();
    }
  }
}

// A full (not quick) bench keeps this machine's CPU references and its rows' times: the second
// run reads the references back and says how long the last run took, and a third with
// --remeasure-cpu times them again. (Diffusion at 256² and 512²: about a second on lavapipe.)
TEST(Cli, ASecondBenchReadsTheCpuReferencesBackAndKnowsHowLongItTakes) {
  auto dir = scratch("bench-kept");
  // The roofs kept already (a full bench would measure them first, for seconds on lavapipe): this
  // device's, made up; they only place rows under the roofline.
  gpu::Peaks roofs{.device = test_context().info.name,
                   .driver = test_context().info.driver,
                   .measured = "a test",
                   .fp32_gflops = 100,
                   .fp64_gflops = 50,
                   .saxpy_gbps = 10,
                   .copy_gbps = 10};
  gpu::store_peaks(dir / "peaks.json", roofs);
  auto run = [&](const std::string& extra, const std::string& out) {
    auto r = run_process("VKLAB_CONFIG_DIR=" + dir.string() + " " +
                         vklab_args("bench --lab diffusion --only 256,512 --out " + (dir / out).string() + extra));
    EXPECT_EQ(r.code, 0) << r.err;
    return std::make_pair(r, nlohmann::json::parse(file_bytes(dir / out)));
  };
  auto [first, j1] = run("", "1.json");
  EXPECT_EQ(first.out.find("the last run of this bench here"), std::string::npos);
  EXPECT_EQ(j1["cpu_baselines"]["timed_now"], 2);
  EXPECT_EQ(j1["cpu_baselines"]["read_from_file"], 0);
  ASSERT_EQ(j1["labs"]["diffusion"].size(), 2u);
  for (auto& row : j1["labs"]["diffusion"]) EXPECT_GT(row["seconds_to_measure"].get<double>(), 0);
  EXPECT_GT(j1["seconds"]["diffusion"].get<double>(), 0);
  auto [second, j2] = run("", "2.json");
  EXPECT_NE(second.out.find("the last run of this bench here: 2 rows"), std::string::npos) << second.out;
  EXPECT_NE(second.out.find("CPU references: 2 read back"), std::string::npos) << second.out;
  EXPECT_EQ(j2["cpu_baselines"]["read_from_file"], 2);
  for (int i = 0; i < 2; ++i)
    EXPECT_EQ(j2["labs"]["diffusion"][i]["reference"]["cpu_single_thread_ms"],
              j1["labs"]["diffusion"][i]["reference"]["cpu_single_thread_ms"]);
  // --remeasure-cpu times them again (CpuBaselines.ATimeIsTakenOncePerMachineAndReadBackAfter: and
  // keeps the new figures); a quick bench keeps none, as it measures its roofs small every time.
  auto [third, j3] = run(" --remeasure-cpu --quick --only 64", "3.json");
  EXPECT_EQ(j3["cpu_baselines"]["file"], "");
  EXPECT_EQ(j3["cpu_baselines"]["timed_now"], 1);
}

// SIMSURF §13.1.2's flush before a CPU run: the report's 64 MiB copied, and the machining bench's
// CPU rows say their caches were emptied.
TEST(CpuCache, TheFlushCopiesTheReportsLength) { EXPECT_EQ(gpu::flush_cpu_caches(), size_t(1) << 26); }
