#version 460
#extension GL_GOOGLE_include_directive : require
// A disturbance added to h and h⁻ alike (the water starts at rest there):
// amplitude·exp(−d²/radius²), d the distance to (cx, cy) (drop) or to the line x = cx
// (shape 1) or y = cy (shape 2), in cells.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) buffer H_block { float H[]; };
layout(std430, binding = 1) buffer Prev_block { float PREV[]; };
#define PUSH_WaveDisturbPush
#include "wave_push.h"

void main() {
  uvec2 p = gl_GlobalInvocationID.xy;
  if (p.x >= width || p.y >= height) return;
  vec2 d = vec2(p) - vec2(cx, cy);
  float d2 = shape == 0u ? dot(d, d) : (shape == 1u ? d.x * d.x : d.y * d.y);
  float add = amplitude * exp(-d2 / (radius * radius));
  uint i = p.y * width + p.x;
  H[i] += add;
  PREV[i] += add;
}
