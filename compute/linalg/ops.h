// The linear algebra operators of seed 000, chapter 3, as Vulkan compute: each in the
// thesis's multi-pass form and in a modern form, on either vector layout. Every call
// records into a command buffer (with the barrier it needs first); scalars such as dot
// products stay on the GPU in a small buffer (Scalars) that later passes read.
#pragma once
#include "compute/linalg/extreme.h"
#include "compute/linalg/matrix.h"

#include <map>
#include <memory>

namespace linalg {

constexpr uint32_t kNoSlot = 0xffffffffu;

// S[0..15]: scalar slots; S[16 + i]: a history (CG's residual per iteration).
class Scalars {
 public:
  static constexpr uint32_t kSlots = 16;
  Scalars(gpu::Context& ctx, uint32_t history);
  float get(uint32_t slot) const;
  std::vector<float> history(uint32_t count) const;
  gpu::Bind bind() const { return gpu::storage_buffer(buffer_); }
  const gpu::Buffer& buffer() const { return buffer_; }
  uint32_t history_capacity() const { return capacity_; }

 private:
  gpu::Buffer buffer_;
  uint32_t capacity_;
};

// A coefficient c, optionally scaled by GPU scalars: c · S[num] / S[den].
struct Coef {
  float c = 1.0f;
  uint32_t num = kNoSlot, den = kNoSlot;
};

class Ops {
 public:
  Ops(gpu::Context& ctx, Layout layout, uint32_t history = 4096);
  Layout layout() const { return layout_; }
  Scalars& scalars() { return scalars_; }
  // For kernels outside Ops that reduce into a scalar slot (reduce.glsl).
  gpu::Bind reduce_bind() const { return gpu::storage_buffer(reduce_); }
  gpu::Context& ctx() { return ctx_; }

  // gpuVecAdd: out = a·x + b·y (out may be x or y).
  void axpby(VkCommandBuffer cmd, Coef a, const Vec& x, Coef b, const Vec& y, const Vec& out);
  // out = x ∘ y, element by element.
  void mul(VkCommandBuffer cmd, const Vec& x, const Vec& y, const Vec& out);
  // gpuVecScal: S[slot] = x·y (or its square root); thesis = partial dot then 4:1 passes.
  void dot(VkCommandBuffer cmd, Variant v, const Vec& x, const Vec& y, uint32_t slot, bool root = false,
           uint32_t hist = kNoSlot);
  // S[slot] = the max (min) of x. Thesis: the 4:1 passes of extreme_passes(), one dispatch each,
  // ping-pong between two scratch vectors; modern: one dispatch. Padding counts as the identity
  // (-inf for max), or with zero_pad as 0: the thesis's zero padding (thesis: the texture's
  // padding; modern: every invocation starts from 0 instead of -inf). Returns the dispatches.
  uint32_t extreme(VkCommandBuffer cmd, Variant v, Extreme e, const Vec& x, uint32_t slot, bool zero_pad = false);
  // Float-float dot (modern, one pass): S[slot] + S[slot + 1] = x·y with 44+ correct bits.
  void dot_ff(VkCommandBuffer cmd, const Vec& x, const Vec& y, uint32_t slot);
  // Float-float vectors (hi, lo pairs) for CG in float-float; float-float scalars take two
  // slots (S[k] + S[k+1]).
  void ff_banded(VkCommandBuffer cmd, const GpuBanded& m, const Vec& vh, const Vec& vl, const Vec& oh, const Vec& ol);
  // out = x + sign·(S[num]/S[den])·y (out may be x or y)
  void ff_axpy(VkCommandBuffer cmd, const Vec& xh, const Vec& xl, uint32_t num, uint32_t den, float sign, const Vec& yh,
               const Vec& yl, const Vec& oh, const Vec& ol);
  void ff_dot(VkCommandBuffer cmd, const Vec& xh, const Vec& xl, const Vec& yh, const Vec& yl, uint32_t slot);
  // out = a·(M·v) + b·vp (vp may be null). Thesis: passes of at most 12 diagonals;
  // modern: one pass for any count, and with reduce_slot S[slot] = v·(M·v).
  void banded(VkCommandBuffer cmd, Variant variant, const GpuBanded& m, const Vec& v, const Vec* vp, const Vec& out,
              float a = 1.0f, float b = 1.0f, uint32_t reduce_slot = kNoSlot);
  // Texture layout: banded() finds V's quads by the thesis's float formulas 3.1-3.4
  // (frac_index.h), wrong quads and all, instead of integer arithmetic. Needs n % 4 == 0.
  void set_frac_index(bool on);
  bool frac_index() const { return frac_index_; }
  // gpuMatOp: out = M·v + vp (vp may be null). Thesis: N/4 passes of 4 columns; modern:
  // one dispatch, a workgroup per 4 rows over a row-major copy.
  void dense(VkCommandBuffer cmd, Variant variant, const GpuDense& m, const Vec& v, const Vec* vp, const Vec& out);
  // Matrix-free out = A·v for a Stencil5 A; with reduce_slot, S[slot] = v·(A·v).
  void stencil(VkCommandBuffer cmd, const Stencil5& a, const Vec& v, const Vec& out, uint32_t reduce_slot = kNoSlot);
  // A whole CG iteration for a Stencil5 A in one dispatch (Chronopoulos-Gear form, see
  // shaders/linalg/cg_stencil.vec.comp): reads x, r, w = A·r, p, s = A·p and the scalars;
  // writes x and p in place, r', w', s' to vectors of their own.
  // The scalar slots (S[...]) one iteration of the stencil forms reads and writes: gamma = r·r
  // of this, the last and the next iteration, delta = w·r of this and the next, alpha of the
  // last and this one.
  struct CgSlots {
    uint32_t gamma, gamma_prev, gamma_next, delta, delta_next, alpha_prev, alpha;
  };
  struct CgStencilStep {
    const Vec *x, *r, *w, *p, *s, *r_next, *w_next, *s_next;
    CgSlots slots;
    uint32_t hist;  // the iteration number (history entry, stop test)
    bool first;     // iteration 0: p = r, s = w
  };
  void cg_stencil(VkCommandBuffer cmd, const Stencil5& a, const CgStencilStep& step);
  // The same iteration in one pass over x, r and p only (the "pipelined" form, see
  // shaders/linalg/cg_pipelined.vec.comp): A·p and A·r' are recomputed, not stored. Reads x, r
  // and the last p; writes x in place, p and r' to vectors of their own. Same scalar slots.
  struct CgPipelinedStep {
    const Vec *x, *r, *p, *r_next, *p_next;
    CgSlots slots;
    uint32_t hist;            // the iteration number (history entry, stop test)
    bool first;               // iteration 0: p = r
    uint32_t strip_rows = 0;  // grid rows an invocation walks down; 0: cg_strip_rows(a)
  };
  void cg_pipelined(VkCommandBuffer cmd, const Stencil5& a, const CgPipelinedStep& step);
  // The pipelined pass's strip height for a grid: strips for a quarter of its dispatch's
  // invocations, 4 to 64 rows. Taller strips read fewer rows twice (a strip reads 4 beyond its
  // own); on the H100 a quarter of a full dispatch still keeps the memory busy: this choice is
  // the fastest or within 10 % of it at every size the bench sweeps (reference.strip_rows_sweep).
  uint32_t cg_strip_rows(const Stencil5& a) const;
  // CG lines 9-13 fused: x += a·d, r -= a·q with a = S[rho]/S[dad]; S[rho_next] = r·r.
  void cg_update(VkCommandBuffer cmd, const Vec& x, const Vec& r, const Vec& d, const Vec& q, uint32_t rho,
                 uint32_t dad, uint32_t rho_next, uint32_t hist);
  // Element i of x into img at (i % width, i / width), for drawing.
  void unpack(VkCommandBuffer cmd, const Vec& x, const gpu::Image& img);

  // GPU-side stopping (cg_gate.comp). gate_open() writes the indirect arguments from
  // S[rho] <= tol²·S[bb] and turns gating on: until gate_close(), every single-pass operator
  // (axpby, modern dot, single-pass banded, stencil, cg_update) on vectors of `quads` quads
  // launches indirectly and does nothing once the test passed; cg_update re-tests in its
  // r·r reduction. The outcome goes to S[out .. out+2] (shaders/common/gate.glsl).
  void gate_open(VkCommandBuffer cmd, uint32_t quads, uint32_t rho, uint32_t bb, float tol, uint32_t out);
  void gate_close() { gated_ = false; }

  uint32_t groups(uint32_t quads, bool reduces = false) const;
  static constexpr uint32_t kThesisDiagonalsPerPass = 12;

 private:
  // The GATE_FIELDS of a CG pass's push constants (linalg_push.h), from the open gate.
  template <class Push>
  void gate_fields(Push& p) const {
    p.gate_on = gated_ ? 1u : 0u, p.bb = gate_bb_, p.out_slot = gate_out_;
    p.groups_full = groups(gate_quads_), p.groups_reduce = groups(gate_quads_, true), p.tol2 = gate_tol2_;
  }
  gpu::Pipeline load(const std::string& name, uint32_t push);
  const Vec& scratch(uint32_t n, int which);  // ping-pong vectors for multi-pass operators
  const std::vector<Vec>& pyramid(const Vec& x);
  void ready(VkCommandBuffer cmd) const;
  void launch(VkCommandBuffer cmd, uint32_t quads, bool reduces) const;  // direct or gated
  void direct(VkCommandBuffer cmd, uint32_t groups_x) const;             // never gated

  gpu::Context& ctx_;
  Layout layout_;
  Scalars scalars_;
  gpu::Buffer reduce_;  // finished counter + per-workgroup partials (float-float: two floats each)
  gpu::Buffer gate_;    // 3 indirect dispatch commands (16-byte strides), see cg_gate.comp
  bool gated_ = false, frac_index_ = false;
  uint32_t gate_quads_ = 0, gate_bb_ = 0, gate_out_ = 0;
  uint32_t group_width_ = 0;  // the vector kernels' workgroup size
  float gate_tol2_ = 0;
  gpu::Pipeline stencil_, cg_stencil_, cg_pipelined_, cg_gate_;
  gpu::Pipeline extreme_thesis_, extreme_onepass_;
  gpu::Pipeline axpby_, dot_onepass_, dot_thesis_, dot_ff_, ff_ops_, banded_, dense_thesis_, dense_rows_, cg_update_,
      unpack_;
  std::map<std::pair<uint32_t, int>, Vec> scratch_;
  std::map<uint32_t, std::vector<Vec>> pyramids_;
  gpu::Image no_diagonals_;  // texture layout: a valid, unread binding for ff_ops without a matrix
  void ff_dispatch(VkCommandBuffer cmd, uint32_t op, const GpuBanded* m, const Vec& xh, const Vec& xl, const Vec& yh,
                   const Vec& yl, const Vec& oh, const Vec& ol, uint32_t num, uint32_t den, uint32_t slot, float sign);
};

}  // namespace linalg
