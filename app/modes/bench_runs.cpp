// vklab bench --runs N: the whole bench N times, each in a fresh process (a fresh device and
// fresh allocations), then each row's median time over the runs with its minimum, maximum and
// spread, so a figure that changes from run to run shows it.
#include "app/core/figures.h"
#include "app/modes/modes.h"
#include "compute/io/output.h"
#include "compute/io/platform.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace {

std::string self_exe() {
  auto exe = platform::executable();
  if (exe.empty()) throw std::runtime_error("cannot find vklab's own executable to rerun it");
  return exe.string();
}

}  // namespace

// bench --runs N: N whole benches, each in a fresh process (so no run warms the next), merged
// row by row into min / median / max and their spread, printed as a table and written as JSON.
int run_bench_runs(const Options& o) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  for (auto& n : o.lab.empty() ? lab_names() : std::vector<std::string>{o.lab})
    lab_from_options(o, n);  // bad parameters fail here, once, before any run
  auto dir = std::filesystem::temp_directory_path() / ("vklab-runs-" + std::to_string(platform::process_id()));
  std::filesystem::create_directories(dir);
  std::vector<nlohmann::json> runs;
  for (int k = 1; k <= o.runs; ++k) {
    std::vector<std::string> command = {self_exe()};
    for (size_t i = 0; i < o.args.size(); ++i) {  // the same command without --runs and --out
      if (o.args[i] == "--runs" || o.args[i] == "--out") {
        ++i;
        continue;
      }
      command.push_back(o.args[i]);
    }
    auto out = dir / ("run-" + std::to_string(k) + ".json");
    command.insert(command.end(), {"--out", out.string()});
    std::printf("== run %d of %d ==\n", k, o.runs);
    std::fflush(stdout);
    if (platform::run_process(command) != 0) throw std::runtime_error("run " + std::to_string(k) + " failed");
    std::ifstream in(out);
    runs.push_back(nlohmann::json::parse(in));
  }
  std::filesystem::remove_all(dir);

  nlohmann::json merged = runs.front();
  merged["runs"] = o.runs;
  std::printf("\n%-26s %-12s %10s %10s %10s %8s %9s\n", "pass", "size", "min ms", "median ms", "max ms", "spread",
              "GB/s");
  for (auto& [lab, rows] : merged["labs"].items())
    for (size_t r = 0; r < rows.size(); ++r) {
      auto& row = rows[r];
      std::vector<double> ms;
      for (auto& run : runs) {
        const auto& other = run["labs"][lab];
        if (r < other.size() && other[r]["pass"] == row["pass"] && other[r]["size"] == row["size"])
          ms.push_back(other[r]["median_ms"].get<double>());
      }
      if (ms.empty()) continue;
      std::sort(ms.begin(), ms.end());
      double med = ms.size() % 2 ? ms[ms.size() / 2] : 0.5 * (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]);
      double spread = med > 0 ? 100.0 * (ms.back() - ms.front()) / med : 0;
      row["run_medians_ms"] = ms;
      row["median_ms"] = med;
      row["spread_pct"] = spread;
      double bytes = row["bytes"].get<double>(), flops = row["flops"].get<double>();
      row["gbps"] = med > 0 ? bytes / (med * 1e6) : 0;
      row["gflops"] = med > 0 ? flops / (med * 1e6) : 0;
      std::printf("%-26s %-12s %10.4f %10.4f %10.4f %7.1f%% %s\n", row["pass"].get<std::string>().c_str(),
                  row["size"].get<std::string>().c_str(), ms.front(), med, ms.back(), spread,
                  right(figure(row["gbps"].get<double>(), "%.1f"), 9).c_str());
    }
  if (!o.out.empty()) {
    auto path = platform::utf8_path(o.out);
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
    io::write_file(path, merged.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    std::printf("\nwrote %s\n", o.out.c_str());
  }
  return 0;
}
