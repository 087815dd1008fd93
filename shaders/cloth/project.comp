#version 460
// Coloured Gauss–Seidel relaxation, constraint by constraint as Jakobsen relaxes them in
// sequence: one invocation per constraint (edge A–B) of one colour — a set of edges no two
// of which share a particle, so a dispatch needs no atomics — moves A and B by their
// inverse-mass shares of stiffness·(|AB| − l), then out of the sphere and above the
// ground, with friction (collide.glsl). Edges (x, y)–(x + dx, y + dy) of one family; colour = phase of x (or y when
// along_y) modulo stride.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) buffer X_block { vec4 X[]; };
layout(std430, binding = 1) readonly buffer Start_block { vec4 START[]; };  // positions at the step's start (friction)
#define PUSH_ClothProjectPush
#include "cloth_push.h"
#include "collide.glsl"
#include "project.glsl"

void main() {
  uvec2 g = gl_GlobalInvocationID.xy;
  ivec2 a = along_y != 0u ? ivec2(g.x, phase + stride * g.y) : ivec2(phase + stride * g.x, g.y);
  ivec2 b = a + ivec2(dx, dy);
  if (a.x >= int(width) || a.y >= int(height) || b.x < 0 || b.y < 0 || b.x >= int(width) || b.y >= int(height)) return;
  uint ia = uint(a.y) * width + uint(a.x), ib = uint(b.y) * width + uint(b.x);
  vec4 pa = X[ia], pb = X[ib];
  vec3 a_to, b_to;
  if (!projection(pa.xyz, pb.xyz, pa.w, pb.w, len, a_to, b_to)) return;
  if (pa.w > 0.0) X[ia] = vec4(collide(a_to, START[ia].xyz), pa.w);
  if (pb.w > 0.0) X[ib] = vec4(collide(b_to, START[ib].xyz), pb.w);
}
