// Benchmarks beside the frame loop: rows are heard as they are measured and a cancel is
// heard between rows; parameter sweeps parse, check and measure; the CLI prints both.
#include "app/core/lab.h"
#include "app/core/sweep.h"
#include "tests/helpers.h"

#include <nlohmann/json.hpp>

#include <fstream>

TEST(BenchRows, EachRowIsHeardWhenPushedAndCancelStopsAfterIt) {
  std::vector<std::string> heard;
  std::atomic<bool> cancel{false};
  gpu::BenchOptions o;
  o.on_row = [&](const gpu::BenchRow& r) { heard.push_back(r.pass); };
  o.cancel = &cancel;
  gpu::BenchRows rows(o);
  rows.push_back({"a", "1"});
  EXPECT_EQ(heard, std::vector<std::string>{"a"});
  cancel = true;
  EXPECT_THROW(rows.push_back({"b", "2"}), gpu::BenchCancelled);
  EXPECT_EQ(heard, (std::vector<std::string>{"a", "b"}));  // the row being timed is kept
  auto all = rows.take();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[1].pass, "b");
}

class LabBench : public GpuTest {};

// Every row a lab's bench returns was heard first, in the same order; a cancel after the
// first row ends the bench there.
TEST_F(LabBench, RowsAreHeardAsMeasuredAndCancelEndsTheBench) {
  auto lab = make_lab("diffusion");
  std::vector<std::string> heard;
  gpu::BenchOptions o;
  o.quick = true;
  o.on_row = [&](const gpu::BenchRow& r) { heard.push_back(r.pass + " " + r.size); };
  auto rows = lab->bench(ctx(), o);
  ASSERT_GE(rows.size(), 2u);
  ASSERT_EQ(heard.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(heard[i], rows[i].pass + " " + rows[i].size);

  std::atomic<bool> cancel{true};
  heard.clear();
  o.cancel = &cancel;
  EXPECT_THROW(lab->bench(ctx(), o), gpu::BenchCancelled);
  EXPECT_EQ(heard.size(), 1u);
}

TEST(Sweep, ParsesAndRefusesWithAReason) {
  auto s = parse_sweep("size=64:512:4");
  EXPECT_EQ(s.param, "size");
  EXPECT_EQ(s.count, 4);
  EXPECT_FALSE(s.log);
  auto v = s.values();
  ASSERT_EQ(v.size(), 4u);
  EXPECT_DOUBLE_EQ(v[0], 64);
  EXPECT_DOUBLE_EQ(v[3], 512);
  EXPECT_NEAR(v[1], 64 + 448.0 / 3, 1e-9);
  auto l = parse_sweep("tolerance=1e-6:1e-2:5:log");
  EXPECT_TRUE(l.log);
  EXPECT_NEAR(l.values()[2], 1e-4, 1e-12);
  for (const char* bad : {"size", "=1:2:3", "size=1:2", "size=a:2:3", "size=1:2:1", "size=1:2:99", "size=0:4:3:log",
                          "size=1:2:3:lin", "size=nan:2:3"})
    EXPECT_THROW(parse_sweep(bad), ParamError) << bad;
  auto lab = make_lab("wave");
  EXPECT_THROW(check_sweep(*lab, parse_sweep("nope=1:2:3")), ParamError);
  EXPECT_THROW(check_sweep(*lab, parse_sweep("scheme=0:1:2")), ParamError);  // a choice
  EXPECT_THROW(check_sweep(*lab, parse_sweep("size=8:64:2")), ParamError);   // below its range
  EXPECT_NO_THROW(check_sweep(*lab, parse_sweep("size=16:64:2")));
}

class SweepRun : public GpuTest {};

// Each point rebuilds the lab at its value and times real steps (the declared bytes follow the
// grid); the base lab's parameters are untouched.
TEST_F(SweepRun, MeasuresEachValueOnAFreshLab) {
  if (!ctx().info.timestamps) GTEST_SKIP() << "no GPU timestamps";
  auto lab = make_lab("diffusion");
  lab->params().set("size", "64");
  SweepSpec spec = parse_sweep("size=64:256:2");
  spec.steps = 10;
  std::vector<double> heard;
  auto points = run_sweep(ctx(), *lab, spec, [&](const SweepPoint& p) { heard.push_back(p.value); });
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(heard, (std::vector<double>{64, 256}));
  for (auto& p : points) {
    EXPECT_TRUE(p.problem.empty()) << p.problem;
    EXPECT_GT(p.ms_per_step, 0);
    EXPECT_GT(p.gbps, 0);
  }
  // The declared traffic a step (GB/s x ms) follows the grid: 16 times the cells, 16 times the bytes
  // (times are not compared: speed is for benchmarks, not tests).
  EXPECT_NEAR(points[1].gbps * points[1].ms_per_step / (points[0].gbps * points[0].ms_per_step), 16.0, 1e-6);
  EXPECT_EQ(lab->params().get_int("size"), 64);
  auto j = sweep_json(*lab, spec, points);
  EXPECT_EQ(j["param"], "size");
  EXPECT_EQ(j["points"].size(), 2u);
  EXPECT_EQ(j["points"][1]["value"], 256.0);
}

TEST(CliBench, SweepPrintsAPointALineAndWritesJson) {
  auto out = scratch("cli-sweep") / "sweep.json";
  auto r = run_process(vklab_args(
      "bench --validate --lab diffusion --set size=64 --sweep size=32:96:3 --sweep-steps 4 --out " + out.string()));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  for (const char* v : {"\n            32 ", "\n            64 ", "\n            96 "})
    EXPECT_NE(r.out.find(v), std::string::npos) << v << " missing in\n" << r.out;
  std::ifstream in(out);
  auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["sweep"]["lab"], "diffusion");
  EXPECT_EQ(j["sweep"]["points"].size(), 3u);
  EXPECT_EQ(j["sweep"]["steps"], 4);
  EXPECT_TRUE(j["device"].contains("name"));
  auto bad = run_process(vklab_args("bench --lab diffusion --sweep colormap=0:1:2"));
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("not a number"), std::string::npos) << bad.err;
  EXPECT_EQ(run_process(vklab_args("--headless --lab diffusion --sweep size=32:64:2")).code, 2);
  EXPECT_EQ(run_process(vklab_args("bench --sweep size=32:64:2")).code, 2);  // which lab?
}

// The CLI bench prints each row as it is measured: the rows come before the "wrote" line
// and each row line names its pass.
TEST(CliBench, PrintsEveryRowOfTheLab) {
  auto out = scratch("cli-bench-rows") / "b.json";
  auto r = run_process(vklab_args("bench --lab diffusion --quick --out " + out.string()));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  std::ifstream in(out);
  auto j = nlohmann::json::parse(in);
  size_t wrote = r.out.find("wrote ");
  ASSERT_NE(wrote, std::string::npos);
  for (auto& row : j["labs"]["diffusion"]) {
    auto at = r.out.find(row["pass"].get<std::string>() + " ");
    EXPECT_LT(at, wrote) << row["pass"];
  }
}

// bench --runs N: N whole benches in fresh processes; each row's median over the runs with
// its minimum, maximum and spread, in the table and the JSON.
TEST(CliBench, RunsRepeatTheBenchInFreshProcessesAndReportTheSpread) {
  auto out = scratch("cli-bench-runs") / "runs.json";
  auto r = run_process(vklab_args("bench --lab diffusion --quick --runs 2 --out " + out.string()));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("== run 1 of 2 =="), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("== run 2 of 2 =="), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("spread"), std::string::npos) << r.out;
  std::ifstream in(out);
  auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["runs"], 2);
  ASSERT_GE(j["labs"]["diffusion"].size(), 2u);
  for (auto& row : j["labs"]["diffusion"]) {
    auto ms = row["run_medians_ms"].get<std::vector<double>>();
    ASSERT_EQ(ms.size(), 2u);
    EXPECT_LE(ms[0], ms[1]);
    EXPECT_DOUBLE_EQ(row["median_ms"].get<double>(), 0.5 * (ms[0] + ms[1]));
    EXPECT_NEAR(row["spread_pct"].get<double>(), 100.0 * (ms[1] - ms[0]) / (0.5 * (ms[0] + ms[1])), 1e-9);
  }
  EXPECT_EQ(run_process(vklab_args("bench --lab diffusion --runs 2 --set nope=1")).code, 2);
  EXPECT_EQ(run_process(vklab_args("--headless --runs 2")).code, 2);
}
