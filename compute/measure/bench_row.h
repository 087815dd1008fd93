// What a lab's benchmark gives back (compute/<lab>/bench.*): plain rows, one a pass and
// size, with the seed's or the CPU's figure beside, as data and in words; `vklab bench`
// (app/modes/bench.cpp) runs them, prints them and writes the JSON.
#pragma once
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpu {

struct BenchRow;
class CpuBaselines;
struct GpuTiming;
struct Peaks;

struct BenchOptions {
  bool quick = false;                           // small sizes only (tests, lavapipe)
  double saxpy_gbps = 0;                        // the device's measured streaming bandwidth
  std::vector<std::string> only;                // --only: just these configurations (empty: all)
  std::vector<std::string> engines;             // --engines: just these engines or variants (empty: all)
  std::function<void(const BenchRow&)> on_row;  // each row as soon as it is measured (progress)
  const std::atomic<bool>* cancel = nullptr;    // set: the bench stops after the row being timed
  CpuBaselines* cpu_baselines = nullptr;        // the CPU references' times kept per machine (none: timed)
  // The CPU reference under `key` ("<lab>/<pass>/<size>/<what>"): kept from an earlier bench on
  // this machine, else `time()` now (cpu_baselines.h).
  double cpu_ms(const std::string& key, const std::function<double()>& time) const;
  // Throws std::invalid_argument when --only names what `known` does not hold (the message lists them).
  void check_only(const std::string& lab, const std::vector<std::string>& known) const;
  static bool chosen(const std::vector<std::string>& list, const std::string& name) {
    return list.empty() || std::find(list.begin(), list.end(), name) != list.end();
  }
};

struct BenchRow {
  std::string pass, size;
  uint64_t elements = 0;
  int repeats = 0;
  double median_ms = 0, min_ms = 0;
  double bytes = 0, flops = 0;  // one run of the pass
  nlohmann::json reference;     // what the figure is compared with (the JSON's keys, read by tests and docs)
  std::string note;             // the same in words, printed at the end of the row's line
  double seconds = 0;           // wall-clock time the row took to measure, set-up and CPU references included
  nlohmann::json warm_up;       // how the GPU timing's warm-up ended (GpuTiming::warm_up)
  double gbps() const { return median_ms > 0 ? bytes / (median_ms * 1e6) : 0; }
  // The median, the minimum and the repeats of a timing (compute/measure/timer.h) of `per`
  // applications at once, as the time of one.
  void set_times(const GpuTiming& t, double per = 1);
  double gflops() const { return median_ms > 0 ? flops / (median_ms * 1e6) : 0; }
  // Appends a printf-formatted clause to the note, "; " between clauses, e.g.
  // "CPU 12.3 ms; 619 brins unlike atomicMin".
  [[gnu::format(printf, 2, 3)]] void add_note(const char* format, ...) {
    char text[256];
    va_list values;
    va_start(values, format);
    std::vsnprintf(text, sizeof text, format, values);
    va_end(values);
    note += (note.empty() ? "" : "; ") + std::string(text);
  }
};

// A row as the bench's JSON writes it: its fields, its GB/s and GFLOP/s, and with valid peaks
// its place under the roofline (compute/measure/roofline.h).
nlohmann::json bench_row_json(const BenchRow& row, const Peaks& peaks);

struct BenchCancelled : std::runtime_error {
  BenchCancelled() : std::runtime_error("benchmark cancelled") {}
};

// The rows a lab's bench collects: each one is said (options.on_row) as it is measured, and
// a cancel is heard between rows (throws BenchCancelled).
class BenchRows {
 public:
  explicit BenchRows(const BenchOptions& options) : options_(options) {}
  void push_back(BenchRow row) {
    auto now = std::chrono::steady_clock::now();
    row.seconds = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    if (options_.on_row) options_.on_row(row);
    rows_.push_back(std::move(row));
    if (options_.cancel && options_.cancel->load()) throw BenchCancelled();
  }
  std::vector<BenchRow> take() { return std::move(rows_); }

 private:
  const BenchOptions& options_;
  std::vector<BenchRow> rows_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace gpu
