#version 460
// The water seen from above (seed 000, figures 4.6 and 4.7), shaded by a compute pass into
// a picture of the frame's water rectangle; water_top.frag then only copies it into the
// frame. On the H100 only 2 of 66 texture processor clusters run fragment shaders: shading
// there cost 0.28 ms a 1024x768 frame, against 0.012 ms on all of them here.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer Heights { float H[]; };
layout(binding = 1, rgba8) uniform readonly image2D floor_img;
layout(binding = 2, rgba8) uniform writeonly image2D picture_img;
#define PUSH_WaterTopPush
#include "water_view_push.h"
#include "water.glsl"

void main() {
  ivec2 i = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(i, picture))) return;
  // uv as the fragment at this pixel's centre would see it across the water rectangle
  vec2 uv = (vec2(i) + 0.5 + offset) / extent;
  vec2 c = uv * vec2(grid) - 0.5;
  vec3 n = water_normal(c);
  imageStore(picture_img, i, vec4(water_color(uv, n, vec3(0.0, 0.0, 1.0), normalize(light.xyz)), 1.0));
}
