#version 460
// The water seen from above: the picture water_top.comp shaded, copied pixel for pixel
// where the pixel's centre lies on the water (as a fragment shader drawing it would).
#extension GL_GOOGLE_include_directive : require
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(binding = 0, rgba8) uniform readonly image2D picture_img;
#define PUSH_WaterTopPush
#include "water_view_push.h"

void main() {
  vec2 in_rect = gl_FragCoord.xy - vec2(origin) + offset;  // from the water rectangle's corner
  if (any(lessThan(in_rect, vec2(0.0))) || any(greaterThan(in_rect, extent))) discard;  // the edge pixels' rest
  ivec2 i = clamp(ivec2(gl_FragCoord.xy) - origin, ivec2(0), picture - 1);
  color = imageLoad(picture_img, i);
}
