#version 460
// Banded matrix-vector product (seed 000, §3.3.4): out = a·(M·v) + b·vp, M given by its
// diagonals: M[i][(i + offset_d) mod n] = diag_d[i] (the thesis's index formula 3.2, with
// the integer modulo a modern GPU has instead of frac(a/b)·b). Each invocation makes one
// quad of the result from diagonals [first, first + count):
//  - thesis variant: at most 12 diagonals a pass, passes accumulate through `acc`;
//  - modern variant: every diagonal in one pass, optionally fused with dot(v, M·v) (CG).
#extension GL_GOOGLE_include_directive : require
#include "quads.glsl"
#define SCALARS_BINDING 6
#include "scalars.glsl"
#define REDUCE_BINDING 7
layout(local_size_x = 256) in;
#if TEXTURE_LAYOUT
layout(binding = 0, rgba32f) uniform readonly image2DArray DIAGS;
#define LOAD_DIAG(d, q) imageLoad(DIAGS, ivec3(QUAD_AT(q, side), int(d)))
#else
layout(std430, binding = 0) readonly buffer Diags_block { vec4 DIAGS[]; };
#define LOAD_DIAG(d, q) DIAGS[(d) * quads + (q)]
#endif
VEC_IN(1, V);
VEC_IN(2, ACC);
VEC_IN(3, VP);
VEC_OUT(4, OUT);
layout(std430, binding = 5) readonly buffer Offsets_block { int offsets[]; };
#include "reduce.glsl"
#define PUSH_BandedPush
#include "linalg_push.h"
#include "thesis_index.glsl"

// v[(4q + k + o) mod n] for k = 0..3 (formula 3.2). Away from the ends the four values
// are two neighbouring quads shifted by o mod 4 — the same shift for the whole dispatch,
// so the switch does not diverge; at the ends each lane wraps on its own.
vec4 shifted_quad(uint q, int o) {
#if TEXTURE_LAYOUT
  if (frac_index != 0u) {  // the thesis's quads: (q + floor(o/4)) mod N by formulas 3.1-3.4, the next
    uint base = thesis_quad_index(q, wrap_index(o >> 2, quads), quads, side);  // one exact (its offset texture)
    vec4 a = LOADQ(V, base), b = LOADQ(V, thesis_next_quad(base, quads, side));
    switch (o & 3) {
      case 0: return a;
      case 1: return vec4(a.yzw, b.x);
      case 2: return vec4(a.zw, b.xy);
      default: return vec4(a.w, b.xyz);
    }
  }
#endif
  int j0 = int(4u * q) + o;
  if (j0 < 0 || j0 + 3 >= int(n)) {
    vec4 v;
    for (int k = 0; k < 4; ++k) v[k] = LOADE(V, wrap_index(j0 + k, n));
    return v;
  }
  uint base = uint(j0) >> 2u;
  vec4 a = LOADQ(V, base);
  switch (j0 & 3) {
    case 0: return a;
    case 1: return vec4(a.yzw, LOADQ(V, base + 1u).x);
    case 2: return vec4(a.zw, LOADQ(V, base + 1u).xy);
    default: return vec4(a.w, LOADQ(V, base + 1u).xyz);
  }
}

void main() {
  float sum = 0.0;
  FOR_EACH_QUAD(q, quads) {
    vec4 r = accumulate != 0u ? LOADQ(ACC, q) : vec4(0.0);
    for (uint d = first; d < first + count; ++d) r += LOAD_DIAG(d, q) * shifted_quad(q, offsets[d]);
    if (add_vp != 0u) r = a * r + b * LOADQ(VP, q);
    STOREQ(OUT, q, r);
    if (reduce_slot != NO_SLOT) sum += dot(LOADQ(V, q), r);
  }
  if (reduce_slot != NO_SLOT) reduce_to_scalar(sum, reduce_slot, 0u, NO_SLOT);
}
