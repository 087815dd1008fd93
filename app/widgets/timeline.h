// The Timings tab's timeline of the last frame's passes (gpu::Profiler::spans()).
#pragma once
#include "compute/gpu/profiler.h"

#include <vector>

void frame_timeline(const std::vector<gpu::PassSpan>& spans);
