#version 460
// TIMING ONLY, a record for docs/PERF.md ("CG against its own streaming floor", 2026-11-27):
// shaders/linalg/cg_pipelined.vec.comp with its strip walk replaced by a flat loop that moves the
// same bytes (main() below). Compiled by hand with -DTEXTURE_LAYOUT=0 into a copy of the SPIR-V
// folder and run through VKLAB_SHADER_DIR; it computes a wrong CG. The original header follows.
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
  // TIMING ONLY (the streaming floor of the pipelined pass): the same 24 bytes an unknown, x, r
  // and p read, x, p' and r' written, in a flat grid-stride loop, no stencil, no halo.
  uint quads = width / 4u * height;
  vec2 sums = vec2(0.0);
  for (uint q = gl_GlobalInvocationID.x; q < quads; q += gl_NumWorkGroups.x * gl_WorkGroupSize.x) {
    vec4 x = LOADQ(X, q), r = LOADQ(R, q), p = LOADQ(P_OLD, q);
    vec4 pn = r + beta * p, rn = r - alpha * p;
    STOREQ(P_NEW, q, pn);
    STOREQ(R_NEW, q, rn);
    STOREQ(X, q, x + alpha * p);
    sums += vec2(dot(rn, rn), dot(rn, pn));
  }
  if (reduce2_to_scalars(sums, gamma_next, delta_next, hist) && gate_on != 0u)
    gate_update(S[gamma_next], S[bb], tol2, hist, out_slot, groups_full, groups_reduce);
}
