#include "compute/linalg/cg.h"

#include "compute/exercise/user_kernel.h"

#include <cmath>
#include <memory>

namespace linalg {

namespace {
// Scalar slots: rho alternates between 0 and 1 by iteration parity (modern); the thesis
// variant recomputes rho each iteration into kRho, as its pseudo-code does.
constexpr uint32_t kDad = 2, kRhoNext = 3, kRho = 4, kBB = 5;

// Iteration i's scalar slots in the stencil forms: gamma = r·r by i mod 3 (this, the last and
// the next iteration's apart), delta = w·r and alpha by parity. Iteration 0 starts from gamma
// in slot 0 (the init's r·r) and delta in slot 2.
Ops::CgSlots stencil_slots(uint32_t i) {
  constexpr uint32_t kGamma[3] = {0, 1, 6}, kDelta[2] = {2, 3}, kAlpha[2] = {4, 7};
  return {kGamma[i % 3],       kGamma[(i + 2) % 3], kGamma[(i + 1) % 3], kDelta[i % 2],
          kDelta[(i + 1) % 2], kAlpha[(i + 1) % 2], kAlpha[i % 2]};
}
}  // namespace

Cg::Cg(Ops& ops, const GpuBanded& a)
    : ops_(ops),
      a_(&a),
      r_(ops.ctx(), a.n, ops.layout()),
      d_(ops.ctx(), a.n, ops.layout()),
      q_(ops.ctx(), a.n, ops.layout()) {}

Cg::Cg(Ops& ops, const Stencil5& a, StencilCg form)
    : ops_(ops),
      stencil_(a),
      form_(form),
      r_(ops.ctx(), a.n(), ops.layout()),
      d_(ops.ctx(), a.n(), ops.layout()),
      q_(ops.ctx(), a.n(), ops.layout()),
      pairs_(std::make_unique<Partners>()) {
  if (a.w % 4 != 0) throw std::invalid_argument("CG: a stencil grid's width must be a multiple of 4");
  auto vec = [&] { return Vec(ops.ctx(), a.n(), ops.layout()); };
  auto& o = *pairs_;
  o.r_odd = vec();
  if (form == StencilCg::Pipelined) {
    o.p_odd = vec();
  } else {
    o.w_odd = vec();
    o.s_even = vec();
    o.s_odd = vec();
  }
}

uint32_t Cg::n() const { return a_ ? a_->n : stencil_.n(); }

void Cg::apply(VkCommandBuffer cmd, Variant v, const Vec& in, const Vec& out, uint32_t slot) {
  if (a_)
    ops_.banded(cmd, v, *a_, in, nullptr, out, 1.0f, 0.0f, slot);
  else
    ops_.stencil(cmd, stencil_, in, out, slot);
}

void Cg::record_solve(VkCommandBuffer cmd, const Vec& b, const Vec& x, float tolerance, uint32_t max_iterations) {
  if (max_iterations + 1 > ops_.scalars().history_capacity())
    throw std::invalid_argument("CG: at most " + std::to_string(ops_.scalars().history_capacity() - 1) +
                                " iterations fit the residual history");
  if (user_update_)
    throw std::logic_error("CG: record_solve stops on the GPU by cg_update's gate: not with your kernel");
  const Variant v = Variant::Modern;
  recorded_ = 0;
  ops_.dot(cmd, v, b, b, kBB);
  apply(cmd, v, x, q_, kNoSlot);  // r0 = b - A·x0
  ops_.axpby(cmd, {1.0f}, b, {-1.0f}, q_, r_);
  if (a_) ops_.axpby(cmd, {1.0f}, r_, {0.0f}, r_, d_);  // d0 = r0 (the stencil's iteration 0 takes p = r)
  ops_.dot(cmd, v, r_, r_, 0, false, 0);                // rho0
  ops_.gate_open(cmd, r_.quads(), 0, kBB, tolerance, kOutcomeSlot);
  for (uint32_t i = 0; i < max_iterations; ++i) record_iteration(cmd, v, i, x);  // cg_update tests and gates
  ops_.gate_close();
}

CgOutcome Cg::outcome() const {
  auto& s = ops_.scalars();
  return {uint32_t(s.get(kOutcomeSlot)), s.get(kOutcomeSlot + 1) != 0.0f, s.get(kOutcomeSlot + 2)};
}

void Cg::record_init(VkCommandBuffer cmd, Variant v, const Vec& b, const Vec& x, CgStart start) {
  recorded_ = 0;
  ops_.dot(cmd, v, b, b, kBB);
  if (start == CgStart::Zero) {
    ops_.axpby(cmd, {0.0f}, b, {0.0f}, b, x);   // x0 = 0
    ops_.axpby(cmd, {1.0f}, b, {0.0f}, b, r_);  // r0 = b - A·x0 = b
  } else {
    if (start == CgStart::RightHandSide) ops_.axpby(cmd, {1.0f}, b, {0.0f}, b, x);  // 4  x0 = b
    apply(cmd, v, x, q_, kNoSlot);                                                  // 1  temp = A·x0
    ops_.axpby(cmd, {1.0f}, b, {-1.0f}, q_, r_);                                    // 2  r0 = b − temp
  }
  if (a_ || v != Variant::Modern) ops_.axpby(cmd, {1.0f}, r_, {0.0f}, r_, d_);  // 3  d0 = r0
  ops_.dot(cmd, v, r_, r_, 0, false, 0);                                        // rho0, history[0]
}

void Cg::record_iteration(VkCommandBuffer cmd, Variant v, uint32_t i, const Vec& x, gpu::Profiler* prof) {
  recorded_ = v == Variant::Modern && !a_ ? i + 1 : 0;
  if (recorded_) return record_stencil_iteration(cmd, i, x);
  if (v == Variant::Modern) {
    uint32_t rho = i % 2, rho_next = (i + 1) % 2;
    apply(cmd, v, d_, q_, kDad);  // q = A·d, S[dad] = d·q
    if (user_update_)
      record_user_update(cmd, x, rho, rho_next, i + 1, prof);
    else
      ops_.cg_update(cmd, x, r_, d_, q_, rho, kDad, rho_next, i + 1);  // x, r, S[rho'] = r·r
    ops_.axpby(cmd, {1.0f}, r_, {1.0f, rho_next, rho}, d_, d_);        // d = r + (rho'/rho)·d
    return;
  }
  ops_.dot(cmd, v, r_, r_, kRho);                               // 7  rho = r·r
  apply(cmd, v, d_, q_, kNoSlot);                               // 8  temp = A·d
  ops_.dot(cmd, v, d_, q_, kDad);                               // 9  alpha = d·temp
  ops_.axpby(cmd, {1.0f}, x, {1.0f, kRho, kDad}, d_, x);        // 11 x += (rho/alpha)·d
  ops_.axpby(cmd, {1.0f}, r_, {-1.0f, kRho, kDad}, q_, r_);     // 12 r -= (rho/alpha)·temp
  ops_.dot(cmd, v, r_, r_, kRhoNext, false, i + 1);             // 13 beta = r·r
  ops_.axpby(cmd, {1.0f}, r_, {1.0f, kRhoNext, kRho}, d_, d_);  // 15 d = r + (beta/rho)·d
}

void Cg::use_update(const exercise::UserKernel* k) {
  if (k && !a_) throw std::invalid_argument("CG: your update runs in the banded form's iterations, not a stencil's");
  if (k && ops_.layout() != Layout::Buffer)
    throw std::invalid_argument("CG: your update reads storage buffers, not the texture layout's images");
  if (k && !user_scalars_)
    user_scalars_ = gpu::Buffer(ops_.ctx(), 2 * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  user_update_ = k;
}

void Cg::record_user_update(VkCommandBuffer cmd, const Vec& x, uint32_t rho, uint32_t rho_next, uint32_t hist,
                            gpu::Profiler* prof) {
  const exercise::UserKernel& k = *user_update_;
  const uint32_t n = this->n();
  double vec = 16.0 * r_.quads();  // x, r read and written, d and q read
  uint32_t scope = prof ? prof->begin(cmd, "cg.update: your kernel (linalg/cg-update)", 6 * vec, 4.0 * n) : 0;
  // S = {S[rho], S[dad]}: the exercise's S[0] and S[1] (the lab keeps them in other slots).
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  VkBufferCopy regions[2] = {{rho * 4, 0, 4}, {kDad * 4, 4, 4}};
  vkCmdCopyBuffer(cmd, ops_.scalars().buffer().handle(), user_scalars_.handle(), 2, regions);
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  k.bind(cmd, {x.bind(), r_.bind(), d_.bind(), q_.bind(), gpu::storage_buffer(user_scalars_)}, &n, sizeof n);
  k.dispatch(cmd, n);
  if (prof) prof->end(cmd, scope);
  ops_.dot(cmd, Variant::Modern, r_, r_, rho_next, false, hist);  // S[rho'] = r·r, the history's entry
}

void Cg::record_stencil_iteration(VkCommandBuffer cmd, uint32_t i, const Vec& x) {
  if (form_ == StencilCg::Pipelined) return record_pipelined_iteration(cmd, i, x);
  auto& o = *pairs_;
  auto w = [&](uint32_t k) -> const Vec& { return k % 2 ? o.w_odd : q_; };
  auto s = [&](uint32_t k) -> const Vec& { return k % 2 ? o.s_odd : o.s_even; };
  if (i == 0) ops_.stencil(cmd, stencil_, r_, q_, stencil_slots(0).delta);  // w0 = A·r0, delta0 = w0·r0
  Ops::CgStencilStep t{&x,    &residual(i),     &w(i), &d_,   &s(i + 1), &residual(i + 1), &w(i + 1),
                       &s(i), stencil_slots(i), i + 1, i == 0};
  ops_.cg_stencil(cmd, stencil_, t);
}

void Cg::record_pipelined_iteration(VkCommandBuffer cmd, uint32_t i, const Vec& x) {
  // p alternates between d_ (even iterations read it) and p_odd.
  auto p = [&](uint32_t k) -> const Vec& { return k % 2 ? pairs_->p_odd : d_; };
  if (i == 0) ops_.stencil(cmd, stencil_, r_, q_, stencil_slots(0).delta);  // delta0 = (A·r0)·r0
  Ops::CgPipelinedStep t{&x,    &residual(i), &p(i),      &residual(i + 1), &p(i + 1), stencil_slots(i),
                         i + 1, i == 0,       strip_rows_};
  ops_.cg_pipelined(cmd, stencil_, t);
}

double Cg::bytes_per_iteration(Variant v) const {
  double vec = 16.0 * r_.quads();  // one pass over one vector
  if (v == Variant::Modern && !a_)
    return form_ == StencilCg::Pipelined ? 6 * vec    // x, r, p read; x, p', r' written
                                         : 10 * vec;  // x, r, w, p, s read; x, p, r', w', s' written
  double banded = a_ ? (a_->count + 2) * vec : 2 * vec;
  return v == Variant::Modern ? banded + 6 * vec + 3 * vec : banded + 3 * (2 * vec) + 3 * (3 * vec);
}

double Cg::setup_bytes() const {
  double vec = 16.0 * r_.quads(), apply = a_ ? (a_->count + 2) * vec : 2 * vec;
  return vec + apply + 3 * vec + (a_ ? 2 * vec : 0) + vec;
}

double Cg::setup_flops() const { return (2.0 * (a_ ? a_->count : 5) + 7) * n(); }

double Cg::flops_per_iteration(Variant v) const {
  double n = this->n(), count = a_ ? a_->count : 5;
  if (v == Variant::Modern && !a_ && form_ == StencilCg::Pipelined) return (4.0 * count + 10) * n;  // A·p and A·r'
  return v == Variant::Modern ? (2.0 * count + 10) * n : (2.0 * count + 15) * n;
}

CgResult Cg::solve_ff(const Vec& b, Vec& xh, Vec& xl, const CgOptions& o) {
  auto& ctx = ops_.ctx();
  if (!a_) throw std::invalid_argument("float-float CG needs a banded matrix");
  uint32_t n = a_->n;
  if (!r_lo_) {
    r_lo_ = std::make_unique<Vec>(ctx, n, ops_.layout());
    d_lo_ = std::make_unique<Vec>(ctx, n, ops_.layout());
    q_lo_ = std::make_unique<Vec>(ctx, n, ops_.layout());
  }
  std::vector<float> zeros(n, 0.0f);
  for (Vec* v : {&xh, &xl, r_lo_.get(), d_lo_.get()}) v->upload(zeros);
  // Slots: rho at 0 or 2 by parity (two floats each), d·Ad at 4.
  constexpr uint32_t kFfDad = 4;
  ctx.submit_now([&](VkCommandBuffer cmd) {
    ops_.axpby(cmd, {1.0f}, b, {0.0f}, b, r_);
    ops_.axpby(cmd, {1.0f}, b, {0.0f}, b, d_);
    ops_.ff_dot(cmd, r_, *r_lo_, r_, *r_lo_, 0);
  });
  auto rho_of = [&](uint32_t slot) { return double(ops_.scalars().get(slot)) + double(ops_.scalars().get(slot + 1)); };
  double rho0 = rho_of(0);
  CgResult res;
  res.history.push_back(1.0f);
  if (!(rho0 > 0) || !std::isfinite(rho0)) {
    res.converged = rho0 == 0;
    res.problem = res.converged ? "" : "the right-hand side is not finite";
    return res;
  }
  uint32_t done = 0;
  while (done < o.max_iterations) {
    uint32_t k = std::min(std::max(o.check_every, 1u), o.max_iterations - done);
    ctx.submit_now([&](VkCommandBuffer cmd) {
      for (uint32_t i = done; i < done + k; ++i) {
        uint32_t rho = 2 * (i % 2), rho_next = 2 * ((i + 1) % 2);
        ops_.ff_banded(cmd, *a_, d_, *d_lo_, q_, *q_lo_);                            // q = A·d
        ops_.ff_dot(cmd, d_, *d_lo_, q_, *q_lo_, kFfDad);                            // d·q
        ops_.ff_axpy(cmd, xh, xl, rho, kFfDad, 1.0f, d_, *d_lo_, xh, xl);            // x += alpha·d
        ops_.ff_axpy(cmd, r_, *r_lo_, rho, kFfDad, -1.0f, q_, *q_lo_, r_, *r_lo_);   // r -= alpha·q
        ops_.ff_dot(cmd, r_, *r_lo_, r_, *r_lo_, rho_next);                          // rho' = r·r
        ops_.ff_axpy(cmd, r_, *r_lo_, rho_next, rho, 1.0f, d_, *d_lo_, d_, *d_lo_);  // d = r + beta·d
      }
    });
    done += k;
    double rel = std::sqrt(std::max(rho_of(2 * (done % 2)), 0.0) / rho0);
    res.history.push_back(float(rel));
    res.iterations = done;
    res.relative_residual = float(rel);
    if (!std::isfinite(rel)) {
      res.problem = "float-float CG broke down (non-finite residual)";
      return res;
    }
    if (rel <= o.tolerance) {
      res.converged = true;
      return res;
    }
  }
  return res;
}

CgResult Cg::solve(const Vec& b, const Vec& x, const CgOptions& o, gpu::Profiler* prof) {
  if (o.max_iterations + 1 > ops_.scalars().history_capacity())
    throw std::invalid_argument("CG: at most " + std::to_string(ops_.scalars().history_capacity() - 1) +
                                " iterations fit the residual history");
  CgResult res;
  auto& ctx = ops_.ctx();
  ctx.submit_now([&](VkCommandBuffer cmd) { record_init(cmd, o.variant, b, x, o.start); });
  uint32_t done = 0;
  float rho0 = ops_.scalars().get(Scalars::kSlots + 0), bb = ops_.scalars().get(kBB);
  if (!std::isfinite(rho0) || !std::isfinite(bb)) {
    res.problem = "the right-hand side or the start is not finite";
    res.history = {0.0f};
    return res;
  }
  if (!(bb > 0.0f)) {  // b = 0: x = 0 is exact
    ctx.submit_now([&](VkCommandBuffer cmd) { ops_.axpby(cmd, {0.0f}, b, {0.0f}, b, x); });
    res.converged = true;
    res.history = {0.0f};
    return res;
  }
  if (std::sqrt(rho0 / bb) <= o.tolerance) {  // the start already solves it
    res.converged = true;
    res.relative_residual = std::sqrt(rho0 / bb);
    res.history = {res.relative_residual};
    return res;
  }
  while (done < o.max_iterations) {
    uint32_t k = std::min(std::max(o.check_every, 1u), o.max_iterations - done);
    ctx.submit_now([&](VkCommandBuffer cmd) {
      if (prof) prof->begin_frame(cmd);
      uint32_t scope = prof ? prof->begin(cmd, std::string("cg.") + variant_name(o.variant) + ".iteration",
                                          k * bytes_per_iteration(o.variant), k * flops_per_iteration(o.variant))
                            : 0;
      for (uint32_t i = done; i < done + k; ++i) record_iteration(cmd, o.variant, i, x);
      if (prof) prof->end(cmd, scope);
    });
    done += k;
    auto h = ops_.scalars().history(done + 1);
    for (uint32_t i = 0; i <= done; ++i) {
      float rel = std::sqrt(std::max(h[i], 0.0f) / bb);
      if (!std::isfinite(h[i])) {
        res.problem = "CG broke down at iteration " + std::to_string(i) + " (non-finite residual): is A SPD?";
        res.iterations = i;
        return res;
      }
      res.history.push_back(rel);
      if (rel <= o.tolerance) {
        res.converged = true;
        res.iterations = i;
        res.relative_residual = rel;
        return res;
      }
    }
    res.history.clear();
  }
  auto h = ops_.scalars().history(done + 1);
  for (float v : h) res.history.push_back(std::sqrt(std::max(v, 0.0f) / bb));
  res.iterations = done;
  res.relative_residual = res.history.back();
  return res;
}

}  // namespace linalg
