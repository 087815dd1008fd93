// `vklab bench`'s progress on a terminal: a bar under the table on stderr, redrawn twice a
// second and cleared while a row is printed, with rows done, seconds and the estimate of what
// is left (compute/measure/bench_estimate.h). Through a pipe there is no bar: the rows and
// each lab's closing line are the progress.
#pragma once
#include "compute/measure/bench_estimate.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

class BenchProgressLine {
 public:
  BenchProgressLine(std::string lab, std::vector<double> last);
  ~BenchProgressLine();  // clears the bar
  // Prints a finished row (through `print`) above the bar, and counts it.
  void row(double seconds, const std::function<void()>& print);
  gpu::BenchProgress progress() const;
  const std::vector<double>& done() const { return done_; }

 private:
  void draw();  // with mutex_ held
  void clear();
  std::string lab_;
  std::vector<double> last_, done_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  bool terminal_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread ticker_;
};
