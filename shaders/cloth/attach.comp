#version 460
// Long-range attachments (Kim, Chentanez and Müller 2012): a particle may be no farther from
// a pinned corner than its rest distance across the flat cloth, |ij|·rest. Unilateral: a
// particle closer is left alone, one farther is pulled back onto that sphere; then it
// leaves the sphere and the ground as in every relaxation. Holding the cloth's weight this
// way, a pinned cloth needs no more relaxations to stop stretching near its pins. In place:
// an invocation writes only its own particle and reads the pinned corners (w = 0), which
// no one moves.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
layout(std430, binding = 0) buffer X_block { vec4 X[]; };
layout(std430, binding = 1) readonly buffer Start_block { vec4 START[]; };
#define PUSH_ClothStepPush
#include "cloth_push.h"
#include "collide.glsl"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= width * height) return;
  vec4 p = X[i];
  if (p.w == 0.0) return;
  ivec2 c = ivec2(i % width, i / width);
  precise vec3 x = p.xyz;
  for (int k = 0; k < 4; ++k) {
    ivec2 g = ivec2((k & 1) * int(width - 1u), (k >> 1) * int(height - 1u));
    vec4 q = X[uint(g.y) * width + uint(g.x)];
    if (q.w != 0.0) continue;
    precise float reach = rest * length(vec2(c - g));
    precise vec3 r = x - q.xyz;
    precise float d = length(r);
    if (d > reach) x = q.xyz + r * (reach / d);
  }
  X[i] = vec4(collide(x, START[i].xyz), p.w);
}
