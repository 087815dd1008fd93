#version 460
// Dense matrix-vector product in one dispatch, the modern way: one workgroup per quad of
// rows (4 rows), its 256 invocations stride along the rows (row-major copy of M, so every
// read is coalesced) and v, then a workgroup sum. out = M·v + vp.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "quads.glsl"
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Rows_block { vec4 ROWS[]; };  // row r at quads·r
VEC_IN(1, V);
VEC_IN(2, VP);
VEC_OUT(3, OUT);
#define PUSH_DenseRowsPush
#include "linalg_push.h"

shared vec4 partial[64];

void main() {
  uint q = gl_WorkGroupID.x;
  uint r0 = 4u * q * quads;
  vec4 acc = vec4(0.0);
  for (uint c = gl_LocalInvocationID.x; c < quads; c += gl_WorkGroupSize.x) {
    vec4 v = LOADQ(V, c);
    acc += vec4(dot(ROWS[r0 + c], v), dot(ROWS[r0 + quads + c], v), dot(ROWS[r0 + 2u * quads + c], v),
                dot(ROWS[r0 + 3u * quads + c], v));
  }
  acc = subgroupAdd(acc);
  if (subgroupElect()) partial[gl_SubgroupID] = acc;
  barrier();
  if (gl_LocalInvocationIndex == 0u) {
    vec4 total = vec4(0.0);
    for (uint i = 0u; i < gl_NumSubgroups; ++i) total += partial[i];
    STOREQ(OUT, q, add_vp != 0u ? total + LOADQ(VP, q) : total);
  }
}
