// Bindings and push constants shared by the compute engines.
#extension GL_GOOGLE_include_directive : require
#include "pos.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Heights { uint H[]; };
layout(std430, binding = 1) readonly buffer Tris { vec4 TRI[]; };
layout(std430, binding = 2) readonly buffer Positions { Pos POS[]; };
layout(std430, binding = 3) buffer Queue { uint next; } queue;  // persistent threads' work counter
layout(push_constant) uniform Push {
  uint nx, ny;
  float x0, y0, d;
  uint triangles, pos_first, pos_count;
};
#define STRIDE (gl_NumWorkGroups.x * gl_WorkGroupSize.x)
#include "zbuffer.glsl"
