#version 460
// The hardware rasterizer as a Z-buffer engine (beyond the seed, which could not reach it
// from CUDA, §8.3): the tool mesh drawn once per position (instancing) with an orthographic
// projection along the z axis into a 32-bit float depth image whose
// pixel centres are the brins; depth = (z − zlo)/(zhi − zlo), the depth test keeps the lowest.
#extension GL_GOOGLE_include_directive : require
#include "pos.glsl"
layout(std430, binding = 0) readonly buffer Tris { vec4 TRI[]; };
layout(std430, binding = 1) readonly buffer Positions { Pos POS[]; };
#define PUSH_HwPush
#include "machining_push.h"

void main() {
  Pos P = POS[pos_first + gl_InstanceIndex];
  vec3 v = TRI[gl_VertexIndex].xyz;
  vec3 w = vec3(dot(P.r0.xyz, v), dot(P.r1.xyz, v), dot(P.r2.xyz, v)) + P.t.xyz;
  vec2 px = (w.xy - vec2(x0, y0)) / d + 0.5;  // brin i sits at pixel centre i + 0.5
  gl_Position = vec4(px / vec2(nx, ny) * 2.0 - 1.0, (w.z - zlo) / (zhi - zlo), 1.0);
}
