#version 460
#extension GL_GOOGLE_include_directive : require
// The tool mesh at one position: rotated, moved to the tip, in the stock view's frame; the
// tool keeps its true shape over the exaggerated relief.
layout(std430, binding = 0) readonly buffer Tris { vec4 TRI[]; };
#define PUSH_ToolPush
#include "stock_view_push.h"
layout(location = 0) out vec3 normal_src;

void main() {
  // True scale: only the tip's height is exaggerated (view.y), as the stock's relief is.
  vec3 v = TRI[gl_VertexIndex].xyz;
  vec3 r = vec3(dot(r0.xyz, v), dot(r1.xyz, v), dot(r2.xyz, v));
  vec3 world = vec3(r.x + r0.w - view.z, r.z + r2.w * view.y, r.y + r1.w - view.w) * view.x;
  normal_src = world;
  gl_Position = mvp * vec4(world, 1.0);
}
