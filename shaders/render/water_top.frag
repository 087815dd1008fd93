#version 460
// The water seen from above (seed 000, figures 4.6 and 4.7).
#extension GL_GOOGLE_include_directive : require
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(std430, binding = 0) readonly buffer Heights { float H[]; };
layout(binding = 1, rgba8) uniform readonly image2D floor_img;
#define PUSH_WaterTopPush
#include "render_push.h"
#include "water.glsl"

void main() {
  vec2 c = uv * vec2(grid) - 0.5;
  vec3 n = water_normal(c);
  color = vec4(water_color(uv, n, vec3(0.0, 0.0, 1.0), normalize(light.xyz)), 1.0);
}
