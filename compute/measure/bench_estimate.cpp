// A bench's progress and what it has left (bench_estimate.h).
#include "compute/measure/bench_estimate.h"
#include "compute/io/platform.h"

#include "compute/io/input.h"
#include "compute/io/output.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace gpu {

namespace {

nlohmann::json load_history(const std::filesystem::path& file) {
  std::error_code ec;
  if (file.empty() || !std::filesystem::exists(file, ec)) return nlohmann::json::object();
  try {
    auto j = nlohmann::json::parse(io::read_input(file, 16 << 20));
    if (j.is_object()) return j;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vklab: %s: %s (it will be rewritten)\n", platform::utf8(file).c_str(), e.what());
  }
  return nlohmann::json::object();
}

}  // namespace

std::string bench_key(const std::string& lab, bool quick, const std::vector<std::string>& only,
                      const std::vector<std::string>& engines) {
  std::string key = lab + (quick ? " quick" : "");
  auto list = [](const std::vector<std::string>& v) {
    std::string s;
    for (auto& x : v) s += (s.empty() ? "" : ",") + x;
    return s;
  };
  if (!only.empty()) key += " --only " + list(only);
  if (!engines.empty()) key += " --engines " + list(engines);
  return key;
}

BenchHistory::BenchHistory(std::filesystem::path file, std::string device)
    : file_(std::move(file)), device_(std::move(device)) {}

std::vector<double> BenchHistory::last(const std::string& bench) const {
  try {
    auto j = load_history(file_);
    if (j.contains(device_) && j[device_].contains(bench)) return j[device_][bench].get<std::vector<double>>();
  } catch (const std::exception&) {  // a damaged entry: no estimate
  }
  return {};
}

void BenchHistory::record(const std::string& bench, const std::vector<double>& seconds) {
  if (file_.empty() || seconds.empty()) return;
  auto j = load_history(file_);
  j[device_][bench] = seconds;
  try {
    if (file_.has_parent_path()) std::filesystem::create_directories(file_.parent_path());
    io::write_file(file_, j.dump(1) + "\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vklab: could not keep the bench's times in %s: %s\n", platform::utf8(file_).c_str(),
                 e.what());
  }
}

float BenchProgress::fraction() const {
  if (expected > 0 && left_s >= 0) {
    double total = elapsed_s + left_s;
    return total > 0 ? float(std::clamp(elapsed_s / total, 0.0, 1.0)) : 1.0f;
  }
  if (expected > 0) return float(std::min(1.0, double(done) / double(expected)));
  return float(done) / float(done + 4);  // nothing known: creeps, never full
}

std::string BenchProgress::text() const {
  char s[160];
  if (expected > 0 && left_s >= 0)
    std::snprintf(s, sizeof s, "%zu of %zu rows, %.0f s, about %.0f s left", done, expected, elapsed_s, left_s);
  else if (expected > 0)
    std::snprintf(s, sizeof s, "%zu rows (%zu last time), %.0f s", done, expected, elapsed_s);
  else
    std::snprintf(s, sizeof s, "%zu rows, %.0f s (the first run here: no estimate yet)", done, elapsed_s);
  return s;
}

BenchProgress estimate(const std::vector<double>& last, const std::vector<double>& done, double elapsed_s) {
  const size_t n = done.size();
  BenchProgress p{.done = n, .expected = last.size(), .elapsed_s = elapsed_s};
  if (last.empty() || n > last.size()) return p;
  double before = std::accumulate(last.begin(), last.begin() + long(n), 0.0);
  double after = std::accumulate(last.begin() + long(n), last.end(), 0.0);
  double rows_s = std::accumulate(done.begin(), done.end(), 0.0);
  // This run's pace against last time's, once a few seconds of both are known.
  double pace = before > 2 && rows_s > 2 ? std::clamp(rows_s / before, 0.2, 5.0) : 1.0;
  // The row being measured has taken part of its time already.
  double in_row = n < last.size() ? std::clamp(elapsed_s - rows_s, 0.0, last[n] * pace) : 0.0;
  p.left_s = std::max(0.0, after * pace - in_row);
  return p;
}

}  // namespace gpu
