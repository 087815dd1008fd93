#version 460
// Shaded by the normal from neighbouring brins and lit from `light`, then coloured by what the
// display asks for (render/machining/stock_view.h, StockDisplay): depth of cut (the colour map from 0 to
// max_cut; uncut stock stays steel grey), steel only, a signed per-brin field (an error in
// ulps, a Laplacian) from −range to range, or the depth of cut read from the field (a curved
// stock's, an N-buffer's along the normals).
#extension GL_GOOGLE_include_directive : require
layout(location = 0) in vec2 brin;
layout(location = 0) out vec4 color;
layout(std430, binding = 1) readonly buffer Lut { vec4 lut[256]; };
layout(std430, binding = 2) readonly buffer Field { float F[]; };
#define PUSH_StockPush
#include "stock_view_push.h"
#include "stock_relief.glsl"

vec3 mapped(float t) {  // t in [0, 1]
  float s = clamp(t, 0.0, 1.0) * 255.0;
  int i = min(int(s), 254);
  return mix(lut[i].rgb, lut[i + 1].rgb, s - float(i));
}

void main() {
  ivec2 p = ivec2(round(brin));
  float h = h_at(p);
  float dx = (relief_at(p + ivec2(1, 0)) - relief_at(p - ivec2(1, 0))) / (2.0 * grid.z);
  float dy = (relief_at(p + ivec2(0, 1)) - relief_at(p - ivec2(0, 1))) / (2.0 * grid.z);
  vec3 n = normalize(vec3(-dx, 1.0, -dy));
  int display = int(view.w);
  vec3 base = vec3(0.62, 0.64, 0.68);
  float f = F[brin_index(p)];
  float cut = display == 3 ? f : grid.w - h;
  if ((display == 0 || display == 3) && cut > 1e-6 * max(1.0, abs(grid.w)))
    base = mix(vec3(0.55), mapped(cut / view.z), 0.8);
  else if (display == 2)
    base = mapped(0.5 + 0.5 * f / light.w);
  float diffuse = max(dot(n, normalize(light.xyz)), 0.0);
  color = vec4(base * (0.3 + 0.7 * diffuse), 1.0);
}
