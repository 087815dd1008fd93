// How far a bench has gone and how long it has left: the seconds each row took the last time
// the same bench (lab, quick or not, --only, --engines) ran to its end on this device and
// driver, kept beside the settings like the roofs. A run scales the rows still to come by how
// fast its own rows have gone against last time's (the CPU references read back from
// cpu_baselines.h make a second run faster). The first run on a device has no estimate.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace gpu {

// The bench's name in the history: "linalg", "mesh quick --only gmlib".
std::string bench_key(const std::string& lab, bool quick, const std::vector<std::string>& only,
                      const std::vector<std::string>& engines);

class BenchHistory {
 public:
  BenchHistory() = default;  // nothing kept
  BenchHistory(std::filesystem::path file, std::string device);
  // Each row's seconds the last time `bench` ran to its end here (empty: never).
  std::vector<double> last(const std::string& bench) const;
  // A run that ended: kept at once (a failure to write is said, not thrown).
  void record(const std::string& bench, const std::vector<double>& seconds);

 private:
  std::filesystem::path file_;
  std::string device_;
};

struct BenchProgress {
  size_t done = 0, expected = 0;      // rows; expected 0: unknown (the first run here)
  double elapsed_s = 0, left_s = -1;  // left < 0: unknown
  float fraction() const;             // 0 to 1; with nothing known, creeps towards 1
  std::string text() const;           // "12 of 40 rows, 23 s, about 31 s left"
};

// `last`: each row's seconds last time; `done`: this run's rows so far; `elapsed_s`: since
// the bench's first row began (the row being measured included).
BenchProgress estimate(const std::vector<double>& last, const std::vector<double>& done, double elapsed_s);

}  // namespace gpu
