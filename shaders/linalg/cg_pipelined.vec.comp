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
//
// The window holds only the floats a row still needs, in plain variables: of the quads beside
// this one, p two cells each side on the middle row, one cell on the others, r and r' one cell;
// the neighbours' loads read only those cells. The H100 compiles it to 64 registers an
// invocation (50 % occupancy) where a window of whole rows (8 floats each) took 80 (38 %), and the
// pass went from 82.8 to 86.7 % of saxpy at 8192² (docs/PERF.md, 2026-11-26), bit for bit alike.
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

// Components i and i + 1 of quad q (i = 0: x, y; 2: z, w): two floats, not the whole quad, in
// the buffer layout.
#if TEXTURE_LAYOUT
#define LOADC2(name, q, i) (i == 0 ? LOADQ(name, q).xy : LOADQ(name, q).zw)
#else
#define LOADC2(name, q, i) vec2(name[q][i], name[q][i + 1])
#endif

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
    bool has_l = xq > 0u, has_r = xq + 1u < row_quads;
    int y0 = int(strip * strip_rows), y1 = min(y0 + int(strip_rows), int(height));
    // p(t-2) as "up": ul, uc, ur. p(t-1) whole: ml (l.x, l.y), mc, mr (r.x, r.y).
    // r(t-1): rl, rc, rr. r'(t-2): n1l, n1c, n1r. r'(t-3): n0c.
    float ul = 0.0, ur = 0.0, rl = 0.0, rr = 0.0, n1l = 0.0, n1r = 0.0;
    vec4 uc = vec4(0.0), mc = vec4(0.0), rc = vec4(0.0), n1c = vec4(0.0), n0c = vec4(0.0);
    vec2 ml = vec2(0.0), mr = vec2(0.0);
    for (int t = y0 - 2; t <= y1 + 1; ++t) {
      // Row t: p whole (dl, dc, dr), r trimmed (sl, sc, sr).
      vec2 dl = vec2(0.0), dr = vec2(0.0);
      vec4 dc = vec4(0.0), sc = vec4(0.0);
      float sl = 0.0, sr = 0.0;
      bool in_t = t >= 0 && t < int(height);
      if (in_t) {
        uint q = uint(t) * row_quads + xq;
        sc = LOADQ(R, q);
        dc = first != 0u ? sc : sc + beta * LOADQ(P_OLD, q);
        if (has_l) {
          vec2 rz = LOADC2(R, q - 1u, 2);
          dl = first != 0u ? rz : rz + beta * LOADC2(P_OLD, q - 1u, 2);
          sl = rz.y;
        }
        if (has_r) {
          vec2 rx = LOADC2(R, q + 1u, 0);
          dr = first != 0u ? rx : rx + beta * LOADC2(P_OLD, q + 1u, 0);
          sr = rx.x;
        }
        if (t >= y0 && t < y1) STOREQ(P_NEW, q, dc);
      }
      // r' on row t - 1 from r(t-1), p(t-2) up, p(t-1) middle, p(t) down.
      float n2l = 0.0, n2r = 0.0;
      vec4 n2c = vec4(0.0);
      if (t - 1 >= 0 && t - 1 < int(height)) {
        vec4 ap = diag * mc + off * (((vec4(ml.y, mc.xyz) + vec4(mc.yzw, mr.x)) + uc) + dc);
        n2c = rc - alpha * ap;
        if (has_l) {
          float apl = diag * ml.y + off * (((ml.x + mc.x) + ul) + dl.y);
          n2l = rl - alpha * apl;
        }
        if (has_r) {
          float apr = diag * mr.x + off * (((mc.w + mr.y) + ur) + dr.x);
          n2r = rr - alpha * apr;
        }
      }
      if (t - 1 >= y0 && t - 1 < y1) {
        uint q = uint(t - 1) * row_quads + xq;
        STOREQ(R_NEW, q, n2c);
        STOREQ(X, q, LOADQ(X, q) + alpha * mc);
      }
      if (t - 2 >= y0) {  // w' = A·r' on row t - 2, from r' on rows y0 - 1 and later
        vec4 w = diag * n1c + off * (((vec4(n1l, n1c.xyz) + vec4(n1c.yzw, n1r)) + n0c) + n2c);
        sums += vec2(dot(n1c, n1c), dot(w, n1c));
      }
      n0c = n1c;
      n1l = n2l, n1c = n2c, n1r = n2r;
      ul = ml.y, uc = mc, ur = mr.x;
      ml = dl, mc = dc, mr = dr;
      rl = sl, rc = sc, rr = sr;
    }
  }
  if (reduce2_to_scalars(sums, gamma_next, delta_next, hist) && gate_on != 0u)
    gate_update(S[gamma_next], S[bb], tol2, hist, out_slot, groups_full, groups_reduce);
}
