#version 460
#extension GL_GOOGLE_include_directive : require
// The cloth lab's props without vertex buffers: a latitude-longitude sphere (mode 0) or a
// ground square (mode 1).
#define PUSH_PropsPush
#include "cloth_view_push.h"
layout(location = 0) out vec3 normal;
layout(location = 1) out vec3 world;
const int kSlices = 48, kStacks = 24;

void main() {
  const ivec2 corner[6] = ivec2[](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1), ivec2(1, 0), ivec2(1, 1), ivec2(0, 1));
  ivec2 c = corner[gl_VertexIndex % 6];
  if (mode == 1) {
    world = vec3((vec2(c) * 2.0 - 1.0) * 4.0, 0.0).xzy + vec3(0.0, ground - 0.004, 0.0);  // under cloth lying on it
    normal = vec3(0.0, 1.0, 0.0);
  } else {
    int quad = gl_VertexIndex / 6;
    ivec2 q = ivec2(quad % kSlices, quad / kSlices) + c;
    float phi = 6.2831853 * float(q.x) / float(kSlices), theta = 3.14159265 * float(q.y) / float(kStacks);
    normal = vec3(sin(theta) * cos(phi), cos(theta), sin(theta) * sin(phi));
    world = sphere.xyz + sphere.w * normal;
  }
  gl_Position = mvp * vec4(world, 1.0);
}
