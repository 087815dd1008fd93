#version 460
#extension GL_GOOGLE_include_directive : require
layout(location = 0) in vec3 normal;
layout(location = 1) in vec3 world;
layout(location = 0) out vec4 color;
#define PUSH_PropsPush
#include "cloth_view_push.h"

void main() {
  vec3 n = normalize(normal);
  float diffuse = max(dot(n, normalize(light.xyz)), 0.0);
  vec3 base;
  if (mode == 1) {
    vec2 cell = floor(world.xz * 2.0);
    base = mod(cell.x + cell.y, 2.0) < 1.0 ? vec3(0.42, 0.44, 0.47) : vec3(0.33, 0.35, 0.38);
    base *= 1.0 - smoothstep(2.5, 4.0, length(world.xz)) * 0.6;  // fades towards the edge
  } else {
    base = vec3(0.55, 0.62, 0.72);
  }
  color = vec4(base * (0.35 + 0.65 * diffuse), 1.0);
}
