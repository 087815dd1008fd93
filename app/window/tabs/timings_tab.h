// The Timings tab: frame rate, GPU memory by owner, the last frame's passes (ms, GB/s,
// GFLOP/s, their place under the roofline), the frame's timeline, the roofline, the GPU time
// of the last frames, the device's peaks (measured beside the frame loop), the kernels' registers
// and occupancy, and RenderDoc.
#pragma once
#include "app/core/session.h"
#include "app/window/bench_runner.h"
#include "app/window/tabs/occupancy_panel.h"

class TimingsTab {
 public:
  void draw(Session& s, BenchRunner& bench);

 private:
  void passes(const Session& s);
  void renderdoc(Session& s);
  int renderdoc_frames_ = 1;
  OccupancyPanel occupancy_;
};
