// The window's soak (vklab --soak SECONDS, under Xvfb in tests and CI): every lab at its
// defaults and with each of its shipped presets, in turn, three times over. What a long class session
// does to the app, in minutes: host and GPU memory and the frame time are measured on each
// visit, and the last round must match the one before (a leak grows them; the step-back ring is
// emptied at each switch, so it cannot hide one).
#pragma once
#include "app/core/presets.h"

#include <chrono>
#include <string>
#include <vector>

class Session;

class Soak {
 public:
  // The first round fills the caches (the driver's, the allocator's, the C library's); the
  // last must then match the one before it.
  static constexpr size_t kRounds = 3;
  explicit Soak(double seconds);
  // Called once a frame, after the frame's timings are in: switches to the next visit when
  // this one's time is up. False once both rounds are done.
  bool frame(Session& s, double frame_ms);
  // The verdict: one line a visit that grew, then the totals. Non-zero on a leak or a message.
  int report(const Session& s) const;

 private:
  struct Visit {
    Preset preset;  // params empty: the lab's defaults
    double host_mib[kRounds] = {}, heap_mib[kRounds] = {}, gpu_mib[kRounds] = {};
    std::vector<double> frame_ms[kRounds];
    std::string error[kRounds];  // what the session said on loading it
  };
  void start(Session& s, size_t visit);
  void measure(const Session& s);
  std::vector<Visit> visits_;
  double slice_s_;
  size_t at_ = 0;  // visits_.size() * round + visit
  std::chrono::steady_clock::time_point since_;
};
