#version 460
// One explicit diffusion step T' = T + k·∇²T, k = Cd/4, 5-point Laplacian (seed 000, §4.4.2).
// `precise` keeps the operation order of the CPU reference (no fused multiply-add).
#extension GL_GOOGLE_include_directive : require
#include "grid.glsl"
layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0, r32f) uniform readonly image2D src;
layout(binding = 1, r32f) uniform writeonly image2D dst;
#define PUSH_DiffusionStepPush
#include "diffusion_push.h"

// Outside the grid: the cell's own value (zero flux) or zero (fixed boundary).
float neighbour(ivec2 p, float self) {
  if (outside(p, size)) return insulated != 0 ? self : 0.0;
  return imageLoad(src, p).r;
}

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (outside(p, size)) return;
  float t = imageLoad(src, p).r;
  precise float lap = (neighbour(p + ivec2(-1, 0), t) + neighbour(p + ivec2(1, 0), t)) +
                      (neighbour(p + ivec2(0, -1), t) + neighbour(p + ivec2(0, 1), t)) - 4.0 * t;
  precise float next = t + k * lap;
  imageStore(dst, p, vec4(next));
}
