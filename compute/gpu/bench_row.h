// What a lab's benchmark gives back (compute/<lab>/bench.*): plain rows, one a pass and
// size, with the seed's or the CPU's figure beside; `vklab bench` (app/bench.cpp) runs
// them, prints them and writes the JSON.
#pragma once
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace gpu {

struct BenchOptions {
  bool quick = false;                // small sizes only (tests, lavapipe)
  double saxpy_gbps = 0;             // the device's measured streaming bandwidth
  std::vector<std::string> only;     // --only: just these configurations (empty: all)
  std::vector<std::string> engines;  // --engines: just these engines or variants (empty: all)
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
  nlohmann::json reference;     // what the figure is compared with
  double gbps() const { return median_ms > 0 ? bytes / (median_ms * 1e6) : 0; }
  double gflops() const { return median_ms > 0 ? flops / (median_ms * 1e6) : 0; }
};

}  // namespace gpu
