// A scalar field through a 256-entry colour table (render/colormap.cpp computes the same
// colours on the CPU). The includer declares the field and defines float cell(ivec2 p)
// for p within size; the push block and the table are declared here.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(std430, binding = 1) readonly buffer Lut { vec4 lut[256]; };
#define PUSH_HeatmapPush
#include "render_push.h"

float cell(ivec2 p);

float clamped_cell(ivec2 p) { return cell(clamp(p, ivec2(0), size - 1)); }

vec3 colormap(float v) {
  if (isnan(v) || isinf(v)) return vec3(1.0, 0.0, 1.0);
  float t = clamp((v - lo) / (hi - lo), 0.0, 1.0) * 255.0;
  int i = min(int(t), 254);
  return mix(lut[i].rgb, lut[i + 1].rgb, t - float(i));
}

void main() {
  vec2 c = clamp(uv, 0.0, 1.0) * vec2(size);
  float v;
  if (smooth_cells != 0) {
    vec2 q = c - 0.5;
    ivec2 i = ivec2(floor(q));
    vec2 f = q - vec2(i);
    v = mix(mix(clamped_cell(i), clamped_cell(i + ivec2(1, 0)), f.x),
            mix(clamped_cell(i + ivec2(0, 1)), clamped_cell(i + ivec2(1, 1)), f.x), f.y);
  } else {
    v = clamped_cell(ivec2(floor(c)));
  }
  color = vec4(colormap(v), 1.0);
}
