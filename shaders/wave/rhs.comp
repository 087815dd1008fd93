#version 460
// Right-hand side of one implicit wave step (compute/wave/wave.h), matrix-free:
// b = P·h + Q·h⁻'  with  h⁻' = h⁻ + γ·(h − h⁻)  and  P, Q = x0·I + x1·S
// (S: the sum of the 4 neighbours, zero outside the grid).
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer H_block { float H[]; };
layout(std430, binding = 1) readonly buffer Prev_block { float PREV[]; };
layout(std430, binding = 2) writeonly buffer B_block { float B[]; };
#define PUSH_WaveRhsPush
#include "wave_push.h"
#include "damping.glsl"

float h_at(int x, int y) {
  return x < 0 || y < 0 || x >= int(width) || y >= int(height) ? 0.0 : H[uint(y) * width + uint(x)];
}
float prev_at(int x, int y) {
  if (x < 0 || y < 0 || x >= int(width) || y >= int(height)) return 0.0;
  uint i = uint(y) * width + uint(x);
  return PREV[i] + damping_at(uint(x), uint(y)) * (H[i] - PREV[i]);
}

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= int(width) || p.y >= int(height)) return;
  float sh = ((h_at(p.x - 1, p.y) + h_at(p.x + 1, p.y)) + h_at(p.x, p.y - 1)) + h_at(p.x, p.y + 1);
  float sq = ((prev_at(p.x - 1, p.y) + prev_at(p.x + 1, p.y)) + prev_at(p.x, p.y - 1)) + prev_at(p.x, p.y + 1);
  B[uint(p.y) * width + uint(p.x)] = (p0 * h_at(p.x, p.y) + p1 * sh) + (q0 * prev_at(p.x, p.y) + q1 * sq);
}
