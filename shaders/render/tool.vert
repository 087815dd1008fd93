#version 460
#extension GL_GOOGLE_include_directive : require
// The tool mesh at one position: rotated, moved to the tip, in the stock view's frame.
layout(std430, binding = 0) readonly buffer Tris { vec4 TRI[]; };
#define PUSH_ToolPush
#include "render_push.h"
layout(location = 0) out vec3 normal_src;

void main() {
  vec3 v = TRI[gl_VertexIndex].xyz;
  vec3 w = vec3(dot(r0.xyz, v), dot(r1.xyz, v), dot(r2.xyz, v)) + vec3(r0.w, r1.w, r2.w);
  vec3 world = vec3(w.x - view.z, w.z * view.y, w.y - view.w) * view.x;
  normal_src = world;
  gl_Position = mvp * vec4(world, 1.0);
}
