#version 460
#extension GL_GOOGLE_include_directive : require
// The clock probe: one workgroup runs a fixed chain of dependent multiply-adds, so its time
// is a fixed number of cycles divided by the GPU's clock. time_gpu() warms a workload up until
// this time is back at the fastest the device has shown (its clocks at their maximum).
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { float result[]; };
#define PUSH_ClockProbePush
#include "gpu_push.h"

void main() {
  float v = float(gl_LocalInvocationID.x) * 1e-3;
  for (uint i = 0; i < iterations; ++i) v = v * 0.999 + 1e-3;
  result[gl_LocalInvocationID.x] = v;
}
