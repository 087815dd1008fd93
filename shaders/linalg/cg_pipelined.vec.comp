#version 460
// A whole conjugate gradient iteration in one pass over x, r and p for the matrix-free 5-point
// operator A = diag·I + off·(left + right + up + down) (linalg::Stencil5), zero outside the grid:
// linalg::Cg's "pipelined" form. The scalars follow Chronopoulos and Gear (1989), as in
// cg_stencil.vec.comp, so one reduction an iteration yields both dot products the next one needs:
//   beta = gamma / gamma_prev, alpha = gamma / (delta - beta·gamma / alpha_prev)
//   p = r + beta·p, x += alpha·p, r' = r - alpha·(A·p), gamma' = r'·r', delta' = (A·r')·r'
// with gamma = r·r and delta = (A·r)·r from the previous pass. Unlike cg_stencil, neither
// s = A·p nor w = A·r is stored: both products are recomputed here, so w' = A·r' at a cell
// depends on r and the old p up to two cells away. Per unknown 24 bytes cross memory: x read and written,
// r and the old p read, the new p and r' written (cg_stencil: 40; the banded iteration: 64).
//
// An invocation walks down a strip of `strip_rows` rows of one quad column and keeps in
// registers the rows it still needs: at row t it loads r and the old p (its quad and the cells
// beside it), forms p there, then r' at row t - 1 and w' = A·r' at row t - 2. A strip also reads
// the 2 rows above and below it, which the strips there read too (from cache). Every cell's p,
// A·p and r' are computed with the same operations in the same order by each invocation that
// needs them, so that a neighbour's copy matches the owner's. In a gated solve, the stop test rides
// on the reduction (common/gate.glsl).
#extension GL_GOOGLE_include_directive : require
#include "quads.glsl"
#define SCALARS_BINDING 5
#include "scalars.glsl"
#define REDUCE_BINDING 6
#define GATE_BINDING 7
#include "gate.glsl"
layout(local_size_x = 256) in;
VEC_RW(0, X);
VEC_IN(1, R);
VEC_IN(2, P_OLD);
VEC_OUT(3, P_NEW);
VEC_OUT(4, R_NEW);
#include "reduce.glsl"
#define PUSH_CgPipelinedPush
#include "linalg_push.h"

float alpha = 0.0, beta = 0.0;
uint row_quads;  // quads a grid row

// A vector on one grid row around a quad: the two cells left of it, the quad, the two right.
struct Near {
  vec2 l;
  vec4 c;
  vec2 r;
};
const Near kZero = Near(vec2(0.0), vec4(0.0), vec2(0.0));

// p = r + beta·p_old on the quad at (xq, y) (first pass: p = r); r itself into `r`.
vec4 direction(uint q, out vec4 r) {
  r = LOADQ(R, q);
  return first != 0u ? r : r + beta * LOADQ(P_OLD, q);
}

// r and p on row y around quad column xq, zero outside the grid (Dirichlet).
void load_row(int y, uint xq, out Near r, out Near p) {
  r = kZero;
  p = kZero;
  if (y < 0 || y >= int(height)) return;
  uint q = uint(y) * row_quads + xq;
  vec4 rq;
  p.c = direction(q, rq);
  r.c = rq;
  if (xq > 0u) {
    p.l = direction(q - 1u, rq).zw;
    r.l = rq.zw;
  }
  if (xq + 1u < row_quads) {
    p.r = direction(q + 1u, rq).xy;
    r.r = rq.xy;
  }
}

// r' = r - alpha·(A·p) on row y's quad and the cell each side of it, from p on rows y - 1 (u),
// y (m) and y + 1 (d); zero outside the grid. Each sum is (left + right) + up + down.
Near next_residual(int y, uint xq, Near r, Near u, Near m, Near d) {
  Near n = kZero;
  if (y < 0 || y >= int(height)) return n;
  vec4 ap = diag * m.c + off * (((vec4(m.l.y, m.c.xyz) + vec4(m.c.yzw, m.r.x)) + u.c) + d.c);
  n.c = r.c - alpha * ap;
  if (xq > 0u) {
    float apl = diag * m.l.y + off * (((m.l.x + m.c.x) + u.l.y) + d.l.y);
    n.l.y = r.l.y - alpha * apl;
  }
  if (xq + 1u < row_quads) {
    float apr = diag * m.r.x + off * (((m.c.w + m.r.y) + u.r.x) + d.r.x);
    n.r.x = r.r.x - alpha * apr;
  }
  return n;
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
  row_quads = width / 4u;
  uint strips = (height + strip_rows - 1u) / strip_rows;
  vec2 sums = vec2(0.0);  // r'·r', (A·r')·r'
  for (uint item = gl_GlobalInvocationID.x; item < strips * row_quads;
       item += gl_NumWorkGroups.x * gl_WorkGroupSize.x) {
    uint strip = item / row_quads, xq = item - strip * row_quads;
    int y0 = int(strip * strip_rows), y1 = min(y0 + int(strip_rows), int(height));
    // The window, rows before t: p at t-2, t-1, t; r at t-1, t; r' at t-3, t-2, t-1.
    Near p0 = kZero, p1 = kZero, p2 = kZero, r1 = kZero, r2 = kZero, n0 = kZero, n1 = kZero, n2 = kZero;
    for (int t = y0 - 2; t <= y1 + 1; ++t) {
      p0 = p1;
      p1 = p2;
      r1 = r2;
      load_row(t, xq, r2, p2);
      if (t >= y0 && t < y1) STOREQ(P_NEW, uint(t) * row_quads + xq, p2.c);
      n0 = n1;
      n1 = n2;
      n2 = next_residual(t - 1, xq, r1, p0, p1, p2);  // wrong before t = y0 (p0 not loaded yet), unused there
      if (t - 1 >= y0 && t - 1 < y1) {
        uint q = uint(t - 1) * row_quads + xq;
        STOREQ(R_NEW, q, n2.c);
        STOREQ(X, q, LOADQ(X, q) + alpha * p1.c);
      }
      if (t - 2 >= y0) {  // w' = A·r' on row t - 2, from r' on rows y0 - 1 and later
        vec4 w = diag * n1.c + off * (((vec4(n1.l.y, n1.c.xyz) + vec4(n1.c.yzw, n1.r.x)) + n0.c) + n2.c);
        sums += vec2(dot(n1.c, n1.c), dot(w, n1.c));
      }
    }
  }
  if (reduce2_to_scalars(sums, gamma_next, delta_next, hist) && gate_on != 0u)
    gate_update(S[gamma_next], S[bb], tol2, hist, out_slot, groups_full, groups_reduce);
}
