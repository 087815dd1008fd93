// The Timings tab's roofline: the device's roofs (saxpy bandwidth rising to the fp32 peak, the
// fp64 peak beside) on log-log axes, and each pass of the current lab at its arithmetic
// intensity and measured GFLOP/s; hover a point for its numbers.
#pragma once
#include "compute/gpu/profiler.h"
#include "compute/measure/roofline.h"

#include <vector>

void roofline_plot(const gpu::Peaks& peaks, const std::vector<gpu::PassTiming>& passes);
