#version 460
// The water seen from above: the picture water_top.comp shaded, copied pixel for pixel.
#extension GL_GOOGLE_include_directive : require
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(binding = 0, rgba8) uniform readonly image2D picture_img;
#define PUSH_WaterTopPush
#include "render_push.h"

void main() {
  ivec2 i = clamp(ivec2(gl_FragCoord.xy) - origin, ivec2(0), picture - 1);
  color = imageLoad(picture_img, i);
}
