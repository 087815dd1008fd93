// The bench's progress bar on a terminal (bench_progress.h).
#include "app/modes/bench_progress.h"

#include "compute/io/platform.h"

#include <cstdio>

BenchProgressLine::BenchProgressLine(std::string lab, std::vector<double> last)
    : lab_(std::move(lab)), last_(std::move(last)), terminal_(platform::stderr_is_terminal()) {
  if (!terminal_) return;
  ticker_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!stop_) {
      draw();
      wake_.wait_for(lock, std::chrono::milliseconds(500));
    }
  });
}

BenchProgressLine::~BenchProgressLine() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    clear();
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

gpu::BenchProgress BenchProgressLine::progress() const {
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return gpu::estimate(last_, done_, elapsed);
}

void BenchProgressLine::row(double seconds, const std::function<void()>& print) {
  std::lock_guard lock(mutex_);
  clear();
  std::fflush(stderr);
  print();
  std::fflush(stdout);
  done_.push_back(seconds);
  draw();
}

void BenchProgressLine::clear() {
  if (terminal_) std::fprintf(stderr, "\r\033[K");
}

void BenchProgressLine::draw() {
  if (!terminal_ || stop_) return;
  auto p = progress();
  const int width = 30;
  int filled = int(p.fraction() * width + 0.5f);
  std::string bar(size_t(filled), '#');
  bar.resize(width, '.');
  std::fprintf(stderr, "\r\033[K[%s] %s: %s", bar.c_str(), lab_.c_str(), p.text().c_str());
  std::fflush(stderr);
}
