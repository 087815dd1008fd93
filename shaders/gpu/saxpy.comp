#version 460
#extension GL_GOOGLE_include_directive : require
// y = a*x + y over float4: the streaming kernel that measures a device's bandwidth.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer X { vec4 x[]; };
layout(std430, binding = 1) buffer Y { vec4 y[]; };
#define PUSH_SaxpyPush
#include "gpu_push.h"

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < n4; i += stride) y[i] = a * x[i] + y[i];
}
