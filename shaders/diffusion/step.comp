#version 460
// One explicit diffusion step T' = T + k·∇²T, k = Cd/4, 5-point Laplacian (seed 000, §4.4.2),
// on the field as a row-major buffer of floats (ping-ponged by the caller).
// `precise` keeps the operation order of the CPU reference (no fused multiply-add).
//
// Grids whose width is a multiple of 4 run step_quads.comp instead (98.5 % of the H100's
// saxpy bandwidth there, this kernel 60 %). On an R32F storage image the step ran at 42–53 %
// whatever the reads: five image loads a cell, or the block copied to shared memory first
// (docs/PERF.md).
#extension GL_GOOGLE_include_directive : require
#include "grid.glsl"
layout(local_size_x = 32, local_size_y = 8) in;
layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
#define PUSH_DiffusionStepPush
#include "diffusion_push.h"

// Outside the grid: the cell's own value (zero flux) or zero (fixed boundary).
float neighbour(ivec2 p, float self) {
  if (outside(p, size)) return insulated != 0 ? self : 0.0;
  return src[p.y * size.x + p.x];
}

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (outside(p, size)) return;
  float t = src[p.y * size.x + p.x];
  precise float lap = (neighbour(p + ivec2(-1, 0), t) + neighbour(p + ivec2(1, 0), t)) +
                      (neighbour(p + ivec2(0, -1), t) + neighbour(p + ivec2(0, 1), t)) - 4.0 * t;
  precise float next = t + k * lap;
  dst[p.y * size.x + p.x] = next;
}
