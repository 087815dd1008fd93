// What a lab's build has done so far, for the window to show while the build runs on a worker
// thread (app/window/build_job.h): the phases it has finished, each with its seconds (a big
// file: read, then the tables made from it, ...), and whether the user asked to stop. A lab
// reports phases and stops only where it still holds its previous state (Lab::build's strong
// guarantee): Lab::phase_done and Lab::stop_if_cancelled.
#pragma once
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

// Thrown by Lab::stop_if_cancelled: the build stops and the lab keeps what it had.
struct BuildCancelled : std::runtime_error {
  BuildCancelled() : std::runtime_error("cancelled") {}
};

class BuildProgress {
 public:
  using Phase = std::pair<std::string, double>;  // its name, its seconds
  void done(const std::string& phase, double seconds) {
    std::lock_guard lock(mutex_);
    phases_.emplace_back(phase, seconds);
  }
  std::vector<Phase> phases() const {
    std::lock_guard lock(mutex_);
    return phases_;
  }
  void cancel() { cancel_ = true; }
  bool cancelled() const { return cancel_; }
  // Whether the lab reports phases (and so has points where it can stop).
  bool reports() const {
    std::lock_guard lock(mutex_);
    return !phases_.empty();
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Phase> phases_;
  std::atomic<bool> cancel_{false};
};
