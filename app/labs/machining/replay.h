// SIMSURF §16.3.2's video mode in the machining lab: the path milled, the tool travels it again
// over the finished surface (the removal itself is not replayed, as in the report) in a given
// time at 60 frames a second, a step a frame: a recording at 60 frames a second lasts that long.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>

class Replay {
 public:
  static constexpr double kFramesASecond = 60;
  void start() { at_ = 0, running_ = true, played_ = true; }
  void reset() { at_ = 0, running_ = false, played_ = false; }
  // `steps` frames of a replay of `seconds` over a path of n positions; false once at its end.
  bool advance(uint64_t steps, size_t n, double seconds) {
    if (!running_ || n == 0) return false;
    const double per_frame = seconds > 0 ? double(n) / (seconds * kFramesASecond) : double(n);
    at_ = std::min(at_ + per_frame * double(steps), double(n - 1));
    if (at_ >= double(n - 1)) running_ = false;
    return true;
  }
  bool running() const { return running_; }
  bool played() const { return played_; }  // started since the last reset (the milling's end starts it once)
  size_t position() const { return size_t(at_); }

 private:
  double at_ = 0;
  bool running_ = false, played_ = false;
};
