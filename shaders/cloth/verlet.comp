#version 460
// Verlet integration as the thesis's 'VERLET SUR GPU' lines 1-3 (seed 000, §4.1.2.2):
// x' = (1+d)·x − d·x* + a·Δt², d <= 1 the damping factor that replaces 2 (d = 1: none).
// a = gravity + wind along the normal (with gusts). Pinned particles (w = 0) stay put.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer X_block { vec4 X[]; };
layout(std430, binding = 1) readonly buffer Prev_block { vec4 XP[]; };
layout(std430, binding = 2) readonly buffer N_block { vec4 N[]; };
layout(std430, binding = 3) writeonly buffer Out_block { vec4 OUT[]; };
#define PUSH_ClothStepPush
#include "cloth_push.h"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= width * height) return;
  vec4 p = X[i];
  if (p.w == 0.0) {
    OUT[i] = p;
    return;
  }
  vec3 a = gravity_dt2.xyz;
  if (dot(wind_dt2.xyz, wind_dt2.xyz) > 0.0) {
    vec3 n = N[i].xyz;
    float gust = 1.0 + 0.5 * sin(wind_dt2.w + 0.11 * float(i % width) + 0.07 * float(i / width));
    a += gust * dot(n, wind_dt2.xyz) * n;
  }
  float d = gravity_dt2.w;
  OUT[i] = vec4((1.0 + d) * p.xyz - d * XP[i].xyz + a, p.w);
}
