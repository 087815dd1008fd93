#version 460
// The 3D water surface: normal from the heights per fragment, the floor refracted through
// it, a Fresnel mix with the sky, diffuse and specular light.
#extension GL_GOOGLE_include_directive : require
layout(location = 0) in vec2 cell;
layout(location = 1) in vec3 world;
layout(location = 0) out vec4 color;
layout(std430, binding = 0) readonly buffer Heights { float H[]; };
layout(binding = 1, rgba8) uniform readonly image2D floor_img;
#define PUSH_WaterSurfacePush
#include "water_view_push.h"
#include "water.glsl"

void main() {
  vec3 n = water_normal(cell);
  vec3 v = normalize(eye.xyz - world);
  vec3 vg = vec3(v.x, v.z, v.y), lg = normalize(vec3(light.x, light.z, light.y));  // world (y up) -> grid frame
  vec3 lit = water_color((cell + 0.5) / vec2(grid), n, vg, lg);
  vec3 sky = mix(vec3(0.75, 0.85, 0.95), vec3(0.35, 0.55, 0.85), clamp(v.y, 0.0, 1.0));
  float fresnel = 0.02 + 0.98 * pow(1.0 - max(dot(n, vg), 0.0), 5.0);
  color = vec4(mix(lit, sky, fresnel * 0.6), 1.0);
}
