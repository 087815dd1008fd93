#version 460
// A whole conjugate gradient iteration in one dispatch for the matrix-free 5-point operator
// A = diag·I + off·(left + right + up + down) (linalg::Stencil5), in Chronopoulos and Gear's
// form (1989): both dot products of an iteration come from one reduction, so nothing
// inside the iteration waits for a global result.
//   beta = gamma / gamma_prev, alpha = gamma / (delta - beta·gamma / alpha_prev)
//   p = r + beta·p, s = w + beta·s (s = A·p), x += alpha·p, r' = r - alpha·s,
//   w' = A·r', gamma' = r'·r', delta' = w'·r'
// with gamma = r·r, delta = w·r from the previous dispatch. The product A·r' needs r' at the
// neighbours too: each invocation recomputes it there from r, w and s, so r, w and s are
// ping-ponged (R/W/S_OLD in, R_NEW/W_NEW/S_NEW out) while x and p are updated in place.
// In a gated solve, the stop test rides on the reduction (common/gate.glsl).
#extension GL_GOOGLE_include_directive : require
#include "quads.glsl"
#define SCALARS_BINDING 8
#include "scalars.glsl"
#define REDUCE_BINDING 9
#define GATE_BINDING 10
#include "gate.glsl"
layout(local_size_x = 256) in;
VEC_RW(0, X);
VEC_IN(1, R);
VEC_IN(2, W);
VEC_RW(3, P);
VEC_IN(4, S_OLD);
VEC_OUT(5, S_NEW);
VEC_OUT(6, R_NEW);
VEC_OUT(7, W_NEW);
#include "reduce.glsl"
#define PUSH_CgStencilPush
#include "linalg_push.h"

float alpha = 0.0, beta = 0.0;

// r' at quad q; at iteration 0 s = w.
vec4 next_residual(uint q) {
  vec4 s = LOADQ(W, q);
  if (first == 0u) s += beta * LOADQ(S_OLD, q);
  return LOADQ(R, q) - alpha * s;
}

void main() {
  float g = S[gamma];
  if (first != 0u) {
    alpha = S[delta] != 0.0 ? g / S[delta] : 0.0;
  } else if (g != 0.0) {  // r = 0 exactly: alpha = beta = 0, nothing moves
    beta = g / S[gamma_prev];
    float den = S[delta] - beta * g / S[alpha_prev];
    alpha = den != 0.0 ? g / den : 0.0;
  }
  if (gl_GlobalInvocationID.x == 0u) S[alpha_slot] = alpha;
  uint row = width / 4u;  // quads a row
  vec2 sums = vec2(0.0);
  FOR_EACH_QUAD(q, quads) {
    uint y = q / row, xq = q - y * row;
    vec4 r = LOADQ(R, q), p = r, s = LOADQ(W, q);
    if (first == 0u) {
      p += beta * LOADQ(P, q);
      s += beta * LOADQ(S_OLD, q);
    }
    STOREQ(P, q, p);
    STOREQ(S_NEW, q, s);
    STOREQ(X, q, LOADQ(X, q) + alpha * p);
    vec4 c = r - alpha * s;
    vec4 left = vec4(xq > 0u ? next_residual(q - 1u).w : 0.0, c.xyz);
    vec4 right = vec4(c.yzw, xq + 1u < row ? next_residual(q + 1u).x : 0.0);
    vec4 up = y > 0u ? next_residual(q - row) : vec4(0.0);
    vec4 down = y + 1u < height ? next_residual(q + row) : vec4(0.0);
    vec4 w = diag * c + off * (((left + right) + up) + down);
    STOREQ(R_NEW, q, c);
    STOREQ(W_NEW, q, w);
    sums += vec2(dot(c, c), dot(w, c));
  }
  if (reduce2_to_scalars(sums, gamma_next, delta_next, hist) && gate_on != 0u)
    gate_update(S[gamma_next], S[bb], tol2, hist, out_slot, groups_full, groups_reduce);
}
