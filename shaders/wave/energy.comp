#version 460
// Discrete wave energy of the pair (h, h⁻) (compute/wave/wave.h):
// E = Σ (h − h⁻)² + r·Σ m·(4m − S·m),  m = (h + h⁻)/2,  summed into S[slot] in one pass.
#extension GL_GOOGLE_include_directive : require
#define SCALARS_BINDING 2
#include "scalars.glsl"
#define REDUCE_BINDING 3
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer H_block { float H[]; };
layout(std430, binding = 1) readonly buffer Prev_block { float PREV[]; };
#include "reduce.glsl"
#define PUSH_WaveEnergyPush
#include "wave_push.h"

float m_at(int x, int y) {
  if (x < 0 || y < 0 || x >= int(width) || y >= int(height)) return 0.0;
  uint i = uint(y) * width + uint(x);
  return 0.5 * (H[i] + PREV[i]);
}

void main() {
  float sum = 0.0;
  for (uint i = gl_GlobalInvocationID.x; i < width * height; i += gl_NumWorkGroups.x * gl_WorkGroupSize.x) {
    int x = int(i % width), y = int(i / width);
    float v = H[i] - PREV[i];
    float m = m_at(x, y);
    float sm = ((m_at(x - 1, y) + m_at(x + 1, y)) + m_at(x, y - 1)) + m_at(x, y + 1);
    sum += v * v + r * m * (4.0 * m - sm);
  }
  reduce_to_scalar(sum, slot, 0u, NO_SLOT);
}
