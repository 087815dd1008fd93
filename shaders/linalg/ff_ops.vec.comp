#version 460
// Float-float vector kernels for conjugate gradient in float-float (seed 002 put to use):
// a vector is two quad vectors, hi and lo. op 0: out = A·v (banded, float diagonals);
// op 1: out = x + c·y with c = S[num]/S[den] (float-float scalars in S[k], S[k+1]);
// op 2: S[slot] (+ S[slot+1]) = x·y, one pass, last workgroup finishes.
#extension GL_GOOGLE_include_directive : require
#include "quads.glsl"
#include "floatfloat.glsl"
#define SCALARS_BINDING 8
#include "scalars.glsl"
layout(local_size_x = 256) in;
#if TEXTURE_LAYOUT
layout(binding = 0, rgba32f) uniform readonly image2DArray DIAGS;
#define LOAD_DIAG(d, q) imageLoad(DIAGS, ivec3(QUAD_AT(q, side), int(d)))
#else
layout(std430, binding = 0) readonly buffer Diags_block { vec4 DIAGS[]; };
#define LOAD_DIAG(d, q) DIAGS[(d) * quads + (q)]
#endif
VEC_IN(1, XH);
VEC_IN(2, XL);
VEC_IN(3, YH);
VEC_IN(4, YL);
VEC_OUT(5, OH);
VEC_OUT(6, OL);
layout(std430, binding = 7) readonly buffer Offsets_block { int offsets[]; };
layout(std430, binding = 9) coherent buffer Reduce_block {
  uint finished;
  uint pad[3];
  vec2 partial[];
} red;
#define PUSH_FfPush
#include "linalg_push.h"

shared vec2 tree[256];
shared bool is_last;

vec2 element(uint i, bool y) {  // (hi, lo) of element i of x or y
  return y ? vec2(LOADE(YH, i), LOADE(YL, i)) : vec2(LOADE(XH, i), LOADE(XL, i));
}

vec2 ff_scalar(uint k) { return vec2(S[k], S[k + 1u]); }

vec2 workgroup_sum(vec2 v) {
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
  vec2 c = vec2(0.0);
  if (op == 1u) {
    vec2 d = ff_scalar(den);
    c = d.x == 0.0 ? vec2(0.0) : div22(ff_scalar(num), d);
    c *= sign;
  }
  FOR_EACH_QUAD(q, quads) {
    vec4 oh, ol;
    for (uint k = 0u; k < 4u; ++k) {
      uint i = 4u * q + k;
      vec2 r = vec2(0.0);
      if (i < n) {
        if (op == 0u) {
          for (uint d = 0u; d < count; ++d) {
            r = add22(r, mul22(vec2(LOAD_DIAG(d, q)[k], 0.0), element(wrap_index(int(i) + offsets[d], n), false)));
          }
        } else if (op == 1u) {
          r = add22(element(i, false), mul22(c, element(i, true)));
        } else {
          acc = add22(acc, mul22(element(i, false), element(i, true)));
        }
      }
      oh[k] = r.x;
      ol[k] = r.y;
    }
    if (op != 2u) {
      STOREQ(OH, q, oh);
      STOREQ(OL, q, ol);
    }
  }
  if (op != 2u) return;
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
