#version 460
#extension GL_GOOGLE_include_directive : require
// Two-sided cloth: a woven tartan on the front, a plain lining on the back; the normal
// flips with the side seen.
layout(location = 0) in vec3 normal;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 color;
#define PUSH_ClothPush
#include "cloth_view_push.h"

// One thread colour across the sett: red ground, green and navy bands, a thin yellow line.
vec3 sett(float t) {
  t = fract(t);
  if (abs(t - 0.5) < 0.012) return vec3(0.95, 0.8, 0.2);
  if (t < 0.18) return vec3(0.07, 0.3, 0.16);
  if (t > 0.72 && t < 0.86) return vec3(0.08, 0.1, 0.32);
  return vec3(0.62, 0.08, 0.1);
}

vec3 tartan(vec2 uv) {
  vec2 t = uv * 6.0;
  // twill: warp or weft on top, alternating along diagonals of the thread lattice
  vec2 thread = floor(uv * vec2(mesh.xy) * 2.0);
  bool warp = mod(thread.x + thread.y, 4.0) < 2.0;
  return mix(sett(t.x), sett(t.y), warp ? 0.35 : 0.65);
}

void main() {
  vec3 n = normalize(normal);
  if (gl_FrontFacing) n = -n;
  bool front = !gl_FrontFacing;  // the side the grid normals point to (clip y is flipped)
  vec3 base = front ? tartan(uv) : vec3(0.78, 0.74, 0.66);
  float diffuse = abs(dot(n, normalize(light.xyz)));  // thin cloth: lit through from either side
  color = vec4(base * (0.3 + 0.7 * diffuse), 1.0);
}
