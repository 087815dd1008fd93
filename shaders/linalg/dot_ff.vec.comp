#version 460
// Dot product accumulated in float-float (seed 002, ch. 4, put to use): each product is
// split exactly by Mul12 and summed with Add22, per invocation, then across the workgroup
// (tree in shared memory) and across workgroups (the last one to finish adds the partials).
// S[slot] + S[slot + 1] is the result as an unevaluated sum (44+ correct bits).
#extension GL_GOOGLE_include_directive : require
#include "quads.glsl"
#include "floatfloat.glsl"
#define SCALARS_BINDING 2
#include "scalars.glsl"
layout(local_size_x = 256) in;
VEC_IN(0, X);
VEC_IN(1, Y);
layout(std430, binding = 3) coherent buffer Reduce_block {
  uint finished;
  uint pad[3];
  vec2 partial[];
} red;
#define PUSH_DotFfPush
#include "linalg_push.h"

shared vec2 tree[256];
shared bool is_last;

vec2 workgroup_sum(vec2 v) {  // valid in invocation 0
  uint t = gl_LocalInvocationIndex;
  tree[t] = v;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1u) {
    if (t < s) tree[t] = add22(tree[t], tree[t + s]);
    barrier();
  }
  vec2 total = tree[0];
  barrier();
  return total;
}

void main() {
  vec2 acc = vec2(0.0);
  FOR_EACH_QUAD(q, quads) {
    vec4 x = LOADQ(X, q), y = LOADQ(Y, q);
    for (int k = 0; k < 4; ++k) acc = add22(acc, mul12(x[k], y[k]));
  }
  vec2 group = workgroup_sum(acc);
  if (gl_LocalInvocationIndex == 0u) {
    red.partial[gl_WorkGroupID.x] = group;
    memoryBarrierBuffer();
    is_last = atomicAdd(red.finished, 1u) == gl_NumWorkGroups.x - 1u;
  }
  barrier();
  if (!is_last) return;
  memoryBarrierBuffer();
  vec2 s = vec2(0.0);
  for (uint i = gl_LocalInvocationIndex; i < gl_NumWorkGroups.x; i += gl_WorkGroupSize.x) s = add22(s, red.partial[i]);
  vec2 total = workgroup_sum(s);
  if (gl_LocalInvocationIndex == 0u) {
    S[slot] = total.x;
    S[slot + 1u] = total.y;
    red.finished = 0u;
  }
}
