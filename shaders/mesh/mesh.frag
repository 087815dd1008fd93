#version 460
#extension GL_GOOGLE_include_directive : require
// Coloured by the field through the colour table (grey without one), two-sided light from
// the face normal, edges darkened where a barycentric coordinate nears 0 (only the edges the
// record asks for: a split quadrilateral hides its diagonal).
layout(location = 0) in vec3 world;
layout(location = 1) in vec3 bary;
layout(location = 2) in float value;
layout(location = 3) flat in uint edges;
layout(location = 0) out vec4 color;
layout(std430, binding = 4) readonly buffer Lut { vec4 lut[256]; };
#define PUSH_MeshPush
#include "mesh_view_push.h"

void main() {
  vec3 base = vec3(0.7);
  if ((flags & 3u) != 0u) {
    float t = clamp((value - range.x) / (range.y - range.x), 0.0, 1.0) * 255.0;
    int i = min(int(t), 254);
    base = mix(lut[i].rgb, lut[i + 1].rgb, t - float(i));
  }
  vec3 n = normalize(cross(dFdx(world), dFdy(world)));
  float light = 0.6 + 0.4 * abs(dot(n, normalize(vec3(0.3, 0.5, 0.8))));  // bright: a lit part, not a silhouette
  vec3 c = base * light;
  if ((flags & 16u) != 0u) {
    vec3 e = smoothstep(vec3(0.0), 1.5 * fwidth(bary), bary);
    float d = 1.0;
    for (int k = 0; k < 3; ++k)
      if ((edges & (1u << k)) != 0u) d = min(d, e[k]);
    c = mix(0.45 * c, c, d);  // edges a darker shade of their face
  }
  color = vec4(c, 1.0);
}
