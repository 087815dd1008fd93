// The linear algebra operators' push constants (compute/linalg/ops.cpp, shaders/linalg/).
#ifndef VKLAB_SHADERS_LINALG_LINALG_PUSH_H  // C++ sees each block once (GLSL includes a header once a shader)
#define VKLAB_SHADERS_LINALG_LINALG_PUSH_H
#include "shaders/common/push.h"
// The fields of a CG pass that can stop a gated solve (common/gate.glsl; Ops::gate_fields).
#define GATE_FIELDS                                  \
  uint gate_on, bb, out_slot, groups_full, groups_reduce; \
  float tol2
PUSH_BEGIN
#if defined(__cplusplus) || defined(PUSH_AxpbyPush)
PUSH_BLOCK(AxpbyPush) {
  uint quads, side, product;  // product: out = x·y (element-wise), else a·x + b·y
  float a, b;
  uint a_num, a_den, b_num, b_den;  // GPU scalar slots scaling a and b (scalars.glsl)
};
#endif
#if defined(__cplusplus) || defined(PUSH_DotOnePush)
PUSH_BLOCK(DotOnePush) { uint quads, side, slot, mode, hist, same; };
#endif
#if defined(__cplusplus) || defined(PUSH_DotThesisPush)
PUSH_BLOCK(DotThesisPush) {
  uint mode;                 // 0 partial dot, 1 reduce, 2 final dot, 3 final sum
  uint in_count, in_side;    // quads and texture side of the input level
  uint out_count, out_side;  // same for the output level
  uint slot, root, hist;
};
#endif
#if defined(__cplusplus) || defined(PUSH_ExtremeThesisPush)
PUSH_BLOCK(ExtremeThesisPush) {
  uint first;                // the input is the vector itself: its elements from n on are padding
  uint last;                 // the one texel left: its 4 channels into S[slot]
  uint n;                    // the vector's elements
  uint in_count, in_side;    // quads and texture side of the input level
  uint out_count, out_side;  // same for the output level
  uint slot, is_min;         // is_min: min, else max
  uint zero_pad;             // padding counts as 0 (the thesis's zeros), else as the identity (-inf for max)
};
#endif
#if defined(__cplusplus) || defined(PUSH_ExtremeOnePush)
PUSH_BLOCK(ExtremeOnePush) { uint n, quads, side, slot, is_min, zero_pad; };
#endif
#if defined(__cplusplus) || defined(PUSH_DotFfPush)
PUSH_BLOCK(DotFfPush) { uint quads, side, slot; };
#endif
#if defined(__cplusplus) || defined(PUSH_FfPush)
PUSH_BLOCK(FfPush) { uint n, quads, side, op, count, num, den, slot; float sign; };
#endif
#if defined(__cplusplus) || defined(PUSH_BandedPush)
PUSH_BLOCK(BandedPush) {
  uint n, quads, side;
  uint first, count;   // diagonals of this pass
  uint accumulate;     // add acc (earlier passes)
  uint add_vp;         // last pass: add b·vp
  uint reduce_slot;    // NO_SLOT, or S[slot] = dot(v, result)
  float a, b;
  uint frac_index;     // texture layout: V's quads addressed by the thesis's float formulas 3.1-3.4
};
#endif
#if defined(__cplusplus) || defined(PUSH_DenseThesisPush)
PUSH_BLOCK(DenseThesisPush) { uint quads, side, pass_index, add_vp; };
#endif
#if defined(__cplusplus) || defined(PUSH_DenseRowsPush)
PUSH_BLOCK(DenseRowsPush) { uint quads, side, add_vp; };
#endif
#if defined(__cplusplus) || defined(PUSH_CgPush)
PUSH_BLOCK(CgPush) {
  uint quads, side, rho, dad, rho_next, hist;
  GATE_FIELDS;
};
#endif
#if defined(__cplusplus) || defined(PUSH_StencilPush)
PUSH_BLOCK(StencilPush) {
  uint width, height, quads, side;
  float diag, off;
  uint reduce_slot;
};
#endif
#if defined(__cplusplus) || defined(PUSH_CgStencilPush)
PUSH_BLOCK(CgStencilPush) {
  uint width, height, quads, side;
  float diag, off;
  uint first;                          // iteration 0: beta = 0, p and s not read
  uint gamma, gamma_prev, gamma_next;  // scalar slots: r·r of this, the last and the next iteration
  uint delta, delta_next;              // w·r of this and the next iteration
  uint alpha_prev, alpha_slot;         // the last iteration's alpha, and where this one's goes
  uint hist;
  GATE_FIELDS;
};
#endif
#if defined(__cplusplus) || defined(PUSH_CgPipelinedPush)
PUSH_BLOCK(CgPipelinedPush) {
  uint width, height, side;
  float diag, off;
  uint first;                          // iteration 0: beta = 0, the old p not read
  uint strip_rows;                     // grid rows an invocation walks down
  uint gamma, gamma_prev, gamma_next;  // scalar slots: r·r of this, the last and the next iteration
  uint delta, delta_next;              // (A·r)·r of this and the next iteration
  uint alpha_prev, alpha_slot;         // the last iteration's alpha, and where this one's goes
  uint hist;
  GATE_FIELDS;
};
#endif
#if defined(__cplusplus) || defined(PUSH_GatePush)
PUSH_BLOCK(GatePush) {
  uint rho, bb, iteration, out_slot;
  float tol2;
  uint groups_full, groups_reduce;
};
#endif
#if defined(__cplusplus) || defined(PUSH_FracSweepPush)
PUSH_BLOCK(FracSweepPush) {
  uint quads, side, slot, count;  // the vector's quads, its texture side, the output slot, offsets used
  ivec4 offsets_lo, offsets_hi;   // up to 8 quad offsets, any sign
};
#endif
#if defined(__cplusplus) || defined(PUSH_UnpackPush)
PUSH_BLOCK(UnpackPush) { uint n, side, width, height; };
#endif
PUSH_END
#endif
