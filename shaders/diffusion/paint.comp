#version 460
// Paints heat: amount·exp(-d²/r²) around a point, over the box the dispatch covers.
#extension GL_GOOGLE_include_directive : require
#include "grid.glsl"
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) buffer Field { float field[]; };  // row-major, size.x a row
#define PUSH_DiffusionPaintPush
#include "diffusion_push.h"

void main() {
  ivec2 p = origin + ivec2(gl_GlobalInvocationID.xy);
  if (outside(p, size)) return;
  vec2 d = vec2(p) + 0.5 - center;
  float d2 = dot(d, d);
  if (d2 > 9.0 * radius * radius) return;
  float v = field[p.y * size.x + p.x];
  float nv = v + amount * exp(-d2 / (radius * radius));
  if (amount < 0.0) nv = max(nv, min(v, 0.0));  // cooling stops at zero
  field[p.y * size.x + p.x] = nv;
}
