#include "app/window/build_job.h"

BuildJob::BuildJob(Session& s, Kind kind) : s_(s), kind_(kind), start_(std::chrono::steady_clock::now()) {
  what_ = s.lab().title();
  worker_ = std::thread([this] {
    try {
      if (kind_ == Kind::First)
        s_.build_unbuilt(&progress_);
      else
        s_.build_for_rebuild(&progress_);
    } catch (...) {
      failed_ = std::current_exception();
    }
    ended_ = true;
  });
}

BuildJob::~BuildJob() {
  progress_.cancel();
  if (worker_.joinable()) worker_.join();
}

bool BuildJob::ended(std::chrono::milliseconds up_to) {
  auto until = std::chrono::steady_clock::now() + up_to;
  while (!ended_ && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return ended_;
}

void BuildJob::finish() {
  if (worker_.joinable()) worker_.join();
  if (kind_ == Kind::Rebuild)
    s_.finish_rebuild(failed_);
  else if (failed_)
    std::rethrow_exception(failed_);
}

double BuildJob::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}
