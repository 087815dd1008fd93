#version 460
#extension GL_GOOGLE_include_directive : require
// Solid quads take their colour; glyphs their colour times the coverage of the signed-distance
// atlas (render/text_mesh.cpp): the distance to the outline in screen pixels, from the atlas's
// distance and how many atlas pixels a screen pixel spans here, gives a one-pixel anti-aliased
// edge at any size.
#define PUSH_LegendPush
#include "render_push.h"
layout(binding = 1) uniform sampler2D atlas;
layout(location = 0) in vec4 color;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 out_color;

void main() {
  vec2 texel = uv * vec2(textureSize(atlas, 0));
  float span = max(0.5 * (length(dFdx(texel)) + length(dFdy(texel))), 1e-3);  // atlas pixels a screen pixel
  float coverage = 1.0;
  if (uv.x >= 0.0) {
    float inside = (textureLod(atlas, uv, 0.0).r - sdf.x) * sdf.y;  // atlas pixels, > 0 inside the glyph
    coverage = clamp(inside / span + 0.5, 0.0, 1.0);
  }
  out_color = vec4(color.rgb, color.a * coverage);
}
