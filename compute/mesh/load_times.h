// Where opening a mesh spends its time (issue: a big mesh must open in seconds): each phase's
// wall-clock seconds in order (reading the file, the faces, the numbering, the tables and their
// upload, the links and balls, the kernels, the workgroup calibration, the pictures), said by
// the lab's panel, its headless report and its dump, with when the kernels were first launched.
#pragma once
#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace mesh {

class LoadTimes {
 public:
  // on_lap: told each phase as it ends (the window's progress while a big mesh opens).
  explicit LoadTimes(std::function<void(const std::string&, double)> on_lap = {})
      : last_(std::chrono::steady_clock::now()), on_lap_(std::move(on_lap)) {}
  // The phase that ends now: the time since the last lap (or since construction).
  void lap(const std::string& phase) {
    auto now = std::chrono::steady_clock::now();
    phases_.emplace_back(phase, std::chrono::duration<double>(now - last_).count());
    last_ = now;
    if (on_lap_) on_lap_(phase, phases_.back().second);
  }
  double total() const {
    double t = 0;
    for (auto& p : phases_) t += p.second;
    return t;
  }
  const std::vector<std::pair<std::string, double>>& phases() const { return phases_; }
  // The kernels are about to be launched for the first time: the phases so far are what a user
  // waits for before a kernel runs (issue 52's measure, GMlib's reading and links).
  void launching() { first_launch_ = total(); }
  double first_launch() const { return first_launch_; }
  // "opened in 3.21 s, the first launch at 2.80 s: read 1.10 s, faces 0.42 s, ...".
  std::string text() const;

 private:
  std::chrono::steady_clock::time_point last_;
  std::vector<std::pair<std::string, double>> phases_;
  double first_launch_ = 0;
  std::function<void(const std::string&, double)> on_lap_;
};

}  // namespace mesh
