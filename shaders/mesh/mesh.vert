#version 460
#extension GL_GOOGLE_include_directive : require
// Corner gl_VertexIndex % 3 of record gl_VertexIndex / 3 (render/mesh/mesh_view.h). A facet is
// drawn where it parts a kept element from a clipped one or from the outside; the others
// collapse to a point and rasterize nothing.
layout(std430, binding = 0) readonly buffer Crd { vec4 CRD[]; };
layout(std430, binding = 1) readonly buffer Table { uint TABLE[]; };
layout(std430, binding = 2) readonly buffer Records { uvec4 REC[]; };
layout(std430, binding = 3) readonly buffer Field { uint WORDS[]; };
#define PUSH_MeshPush
#include "mesh_view_push.h"
layout(location = 0) out vec3 world;
layout(location = 1) out vec3 bary;
layout(location = 2) out float value;
layout(location = 3) flat out uint edges;

vec3 centre(uint e) {
  vec3 s = vec3(0.0);
  for (uint c = 0u; c < nodes; ++c) s += CRD[TABLE[e * nodes + c]].xyz;
  return s / float(nodes);
}

bool kept(uint e) { return (flags & 32u) == 0u || dot(plane.xyz, centre(e)) <= plane.w; }

// One component of a float, int, double, byte or 16-bit int field as a float (a double decoded
// from its two words and the small ints from their word, so that no fp64 or int8 is needed here).
float field_value(uint entity) {
  uint b = entity * field_stride + field_offset, w = b >> 2;
  uint scalar = (flags >> 8) & 7u;
  if (scalar == 0u) return uintBitsToFloat(WORDS[w]);
  if (scalar == 1u) return float(int(WORDS[w]));
  if (scalar >= 3u) return float(bitfieldExtract(int(WORDS[w]), int(b & 3u) * 8, scalar == 3u ? 8 : 16));
  uint lo = WORDS[w], hi = WORDS[w + 1u];
  int e = int((hi >> 20) & 0x7ffu);
  if (e == 0) return 0.0;
  float m = 1.0 + float(hi & 0xfffffu) / 1048576.0 + float(lo) / 4503599627370496.0;
  return ((hi >> 31) != 0u ? -1.0 : 1.0) * ldexp(m, clamp(e - 1023, -126, 127));
}

void main() {
  uint t = uint(gl_VertexIndex) / 3u, c = uint(gl_VertexIndex) % 3u;
  uvec4 a = REC[2u * t], b = REC[2u * t + 1u];
  uint v = a[c];
  bool owner_kept = kept(a.w);
  bool visible = b.x == 0xffffffffu ? owner_kept : owner_kept != kept(b.x);
  uint shown = owner_kept ? a.w : b.x;  // the element whose face this is on screen
  world = (CRD[v].xyz - centre_scale.xyz) * centre_scale.w;
  bary = vec3(c == 0u, c == 1u, c == 2u);
  edges = b.y;
  uint mode = flags & 3u;
  value = mode == 1u ? field_value(v) : (mode == 2u && visible ? field_value(shown) : 0.0);
  gl_Position = visible ? mvp * vec4(world.x, world.z, world.y, 1.0) : vec4(0.0, 0.0, 2.0, 1.0);  // the mesh's z is up
}
