#version 460
// One fused step of conjugate gradient (seed 000, §3.4.2 lines 9-13):
// alpha = S[rho]/S[dad]; x += alpha·d; r -= alpha·q; S[rho_next] = r·r (and its history);
// in a gated solve, the stop test too (common/gate.glsl), by the invocation that finished r·r.
#extension GL_GOOGLE_include_directive : require
#include "quads.glsl"
#define SCALARS_BINDING 4
#include "scalars.glsl"
#define REDUCE_BINDING 5
#define GATE_BINDING 6
#include "gate.glsl"
layout(local_size_x = 256) in;
VEC_RW(0, X);
VEC_RW(1, R);
VEC_IN(2, D);
VEC_IN(3, Q);
#include "reduce.glsl"
#define PUSH_CgPush
#include "linalg_push.h"

void main() {
  float alpha = coef(1.0, rho, dad);
  float sum = 0.0;
  FOR_EACH_QUAD(q, quads) {
    STOREQ(X, q, LOADQ(X, q) + alpha * LOADQ(D, q));
    vec4 r = LOADQ(R, q) - alpha * LOADQ(Q, q);
    STOREQ(R, q, r);
    sum += dot(r, r);
  }
  if (reduce_to_scalar(sum, rho_next, 0u, hist) && gate_on != 0u)
    gate_update(S[rho_next], S[bb], tol2, hist, out_slot, groups_full, groups_reduce);
}
