#version 460
// Folds the hardware rasterizer's depth image (copied to a buffer) into the heights:
// where a tool triangle covered the pixel (depth < 1), h = min(h, zlo + depth·(zhi − zlo)).
#extension GL_GOOGLE_include_directive : require
#include "keys.glsl"
layout(local_size_x = 256) in;
layout(std430, binding = 0) buffer Heights { uint H[]; };
layout(std430, binding = 1) readonly buffer Depth { float DEPTH[]; };
#define PUSH_HwPush
#include "machining_push.h"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= nx * ny) return;
  float depth = DEPTH[i];
  if (depth < 1.0) atomicMin(H[i], height_key(zlo + depth * (zhi - zlo)));
}
