#version 460
// The Verlet step of the method `kernels` (verlet.glsl), a particle an invocation.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer X_block { vec4 X[]; };
layout(std430, binding = 1) readonly buffer Prev_block { vec4 XP[]; };
layout(std430, binding = 2) readonly buffer N_block { vec4 N[]; };
layout(std430, binding = 3) writeonly buffer Out_block { vec4 OUT[]; };
#define PUSH_ClothStepPush
#include "cloth_push.h"
#include "verlet.glsl"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= width * height) return;
  vec4 p = X[i];
  OUT[i] = vec4(verlet(i, p), p.w);
}
