// A lab rebuilt beside the window's frames (a big input file takes seconds to open): the build runs
// on a worker thread on the window's context (its submissions under the queue's lock,
// gpu::Context::lock_queue) while the window keeps drawing and answering, shows the phases the
// build has finished (BuildProgress) and leaves the lab alone until finish() has run on the
// window's thread. A build that ends within a few frames' time is waited for, so a quick change
// never shows the progress.
#pragma once
#include "app/core/build_progress.h"
#include "app/core/session.h"

#include <atomic>
#include <chrono>
#include <exception>
#include <string>
#include <thread>

class BuildJob {
 public:
  // Rebuild: the lab's parameters changed (Session::build_for_rebuild, then finish_rebuild);
  // First: a session made with Parts::build false builds its lab (Session::build_unbuilt).
  enum class Kind { Rebuild, First };
  explicit BuildJob(Session& s, Kind kind = Kind::Rebuild);  // starts the build
  ~BuildJob();                                               // cancels where the lab can stop and waits for the build
  BuildJob(const BuildJob&) = delete;
  BuildJob& operator=(const BuildJob&) = delete;

  // True once the build has ended, after waiting at most `up_to` for it.
  bool ended(std::chrono::milliseconds up_to = std::chrono::milliseconds(0));
  // On the window's thread, once ended(): the session takes the result (Session::finish_rebuild);
  // a first build rethrows what the build threw.
  void finish();
  BuildProgress& progress() { return progress_; }
  double elapsed_s() const;
  const std::string& what() const { return what_; }    // the lab's title
  bool first() const { return kind_ == Kind::First; }  // its first build: Cancel ends vklab

 private:
  Session& s_;
  Kind kind_;
  BuildProgress progress_;
  std::string what_;
  std::chrono::steady_clock::time_point start_;
  std::exception_ptr failed_;
  std::atomic<bool> ended_{false};
  std::thread worker_;
};
