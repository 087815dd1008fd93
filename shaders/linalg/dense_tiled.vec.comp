#version 460
// Dense matrix-vector product in one dispatch: each invocation owns one quad of rows and
// walks all columns; v comes through shared memory in tiles of 1024 values, the column
// reads are coalesced (column-major storage). out = M·v + vp.
#extension GL_GOOGLE_include_directive : require
#include "quads.glsl"
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer M_block { vec4 M[]; };
VEC_IN(1, V);
VEC_IN(2, VP);
VEC_OUT(3, OUT);
layout(push_constant) uniform Push { uint quads, side, add_vp; };

shared vec4 tile[256];

void main() {
  uint q = gl_GlobalInvocationID.x;
  vec4 r = vec4(0.0);
  for (uint base = 0u; base < quads; base += 256u) {  // tiles of 256 quads of v
    uint t = base + gl_LocalInvocationID.x;
    tile[gl_LocalInvocationID.x] = t < quads ? LOADQ(V, t) : vec4(0.0);
    barrier();
    if (q < quads) {
      uint last = min(256u, quads - base);
      for (uint i = 0u; i < last; ++i) {
        vec4 w = tile[i];
        uint c = 4u * (base + i);
        r += M[c * quads + q] * w.x + M[(c + 1u) * quads + q] * w.y +
             M[(c + 2u) * quads + q] * w.z + M[(c + 3u) * quads + q] * w.w;
      }
    }
    barrier();
  }
  if (q < quads) STOREQ(OUT, q, add_vp != 0u ? r + LOADQ(VP, q) : r);
}
