#include "compute/linalg/ops.h"

#include "shaders/linalg/linalg_push.h"

#include <algorithm>

namespace linalg {

namespace {

// Grid-stride kernels: enough workgroups to keep every memory channel busy (the device's
// saxpy reference uses the same cap); reductions fewer, as their last workgroup adds one
// partial per workgroup.
constexpr uint32_t kMaxGroups = 65535;
constexpr uint32_t kMaxReduceGroups = 4096;

using namespace push;  // the blocks: shaders/linalg/linalg_push.h

}  // namespace

// Device-local: every invocation of the next pass reads these; host-visible memory would
// put each read across PCIe on a discrete GPU. Reading them back is a staged copy.
Scalars::Scalars(gpu::Context& ctx, uint32_t history)
    : buffer_(ctx, (kSlots + history) * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT), capacity_(history) {
  std::vector<float> zero(kSlots + history, 0.0f);
  buffer_.upload(zero);
}

float Scalars::get(uint32_t slot) const {
  float v;
  buffer_.download(&v, sizeof v, slot * sizeof(float));
  return v;
}

std::vector<float> Scalars::history(uint32_t count) const {
  std::vector<float> h(std::min(count, capacity_));
  if (!h.empty()) buffer_.download(h.data(), h.size() * sizeof(float), kSlots * sizeof(float));
  return h;
}

Ops::Ops(gpu::Context& ctx, Layout layout, uint32_t history)
    : ctx_(ctx),
      layout_(layout),
      scalars_(ctx, history),
      reduce_(ctx, (4 + 2 * kMaxReduceGroups) * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT),
      gate_(ctx, 48, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT) {
  axpby_ = load("axpby", sizeof(AxpbyPush));
  dot_onepass_ = load("dot_onepass", sizeof(DotOnePush));
  dot_thesis_ = load("dot_thesis", sizeof(DotThesisPush));
  dot_ff_ = load("dot_ff", sizeof(DotFfPush));
  extreme_thesis_ = load("extreme_thesis", sizeof(ExtremeThesisPush));
  extreme_onepass_ = load("extreme_onepass", sizeof(ExtremeOnePush));
  ff_ops_ = load("ff_ops", sizeof(FfPush));
  if (layout == Layout::Texture)
    no_diagonals_ =
        gpu::Image(ctx, 1, 1, VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_USAGE_STORAGE_BIT, VK_IMAGE_LAYOUT_GENERAL, 1);
  banded_ = load("banded", sizeof(BandedPush));
  dense_thesis_ = load("dense_thesis", sizeof(DenseThesisPush));
  dense_rows_ = load("dense_rows", sizeof(DenseRowsPush));
  cg_update_ = load("cg_update", sizeof(CgPush));
  stencil_ = load("stencil", sizeof(StencilPush));
  cg_stencil_ = load("cg_stencil", sizeof(CgStencilPush));
  cg_pipelined_ = load("cg_pipelined", sizeof(CgPipelinedPush));
  cg_gate_ = gpu::make_compute(ctx, "linalg/cg_gate.comp", sizeof(GatePush));
  unpack_ = load("unpack", sizeof(UnpackPush));
  // One count serves every vector kernel (groups(), and the gate's indirect arguments for all
  // the gated ones): they must share one workgroup width.
  group_width_ = axpby_.local_size().x;
  for (auto* p : {&dot_onepass_, &dot_thesis_, &extreme_thesis_, &extreme_onepass_, &dot_ff_, &ff_ops_, &banded_,
                  &dense_thesis_, &cg_update_, &stencil_, &cg_stencil_, &cg_pipelined_})
    if (!(p->local_size() == gpu::Dim3{group_width_, 1, 1}))
      throw std::logic_error("linalg: the vector kernels' workgroup sizes differ");
  ctx.submit_now([&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, reduce_.handle(), 0, VK_WHOLE_SIZE, 0);
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  });
}

gpu::Pipeline Ops::load(const std::string& name, uint32_t push) {
  std::string file = "linalg/" + name + (layout_ == Layout::Texture ? ".tex" : ".buf");
  return gpu::make_compute(ctx_, file, push);
}

void Ops::ready(VkCommandBuffer cmd) const {
  // Whatever wrote before (an operator, an upload) completes before the next one reads;
  // while gated, that includes the indirect arguments cg_gate wrote.
  VkPipelineStageFlags2 stages = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
  VkAccessFlags2 access = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
  if (gated_) {
    stages |= VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT;
    access |= VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT;
  }
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, stages, access);
}

void Ops::launch(VkCommandBuffer cmd, uint32_t quads, bool reduces) const {
  if (!gated_) return vkCmdDispatch(cmd, groups(quads, reduces), 1, 1);
  if (quads != gate_quads_) throw std::logic_error("gated operator on a vector of another size");
  vkCmdDispatchIndirect(cmd, gate_.handle(), reduces ? 16 : 0);
}

void Ops::direct(VkCommandBuffer cmd, uint32_t groups_x) const {
  if (gated_) throw std::logic_error("a multi-pass operator cannot run gated");
  vkCmdDispatch(cmd, groups_x, 1, 1);
}

void Ops::gate_open(VkCommandBuffer cmd, uint32_t quads, uint32_t rho, uint32_t bb, float tol, uint32_t out) {
  if (out + 2 >= Scalars::kSlots) throw std::invalid_argument("gate: the outcome needs three scalar slots");
  gated_ = false;
  gate_quads_ = quads, gate_bb_ = bb, gate_out_ = out, gate_tol2_ = tol * tol;
  ready(cmd);
  GatePush p{.rho = rho,
             .bb = bb,
             .iteration = 0,
             .out_slot = out,
             .tol2 = gate_tol2_,
             .groups_full = groups(quads),
             .groups_reduce = groups(quads, true)};
  cg_gate_.bind(cmd, {scalars_.bind(), gpu::storage_buffer(gate_)}, p);
  vkCmdDispatch(cmd, 1, 1, 1);
  gated_ = true;
}

void Ops::stencil(VkCommandBuffer cmd, const Stencil5& a, const Vec& v, const Vec& out, uint32_t reduce_slot) {
  if (a.w % 4 != 0 || a.n() != v.n() || v.n() != out.n())
    throw std::invalid_argument("stencil: the grid width must be a multiple of 4 and match the vectors");
  ready(cmd);
  StencilPush p{.width = a.w,
                .height = a.h,
                .quads = v.quads(),
                .side = v.side(),
                .diag = a.diag,
                .off = a.off,
                .reduce_slot = reduce_slot};
  stencil_.bind(cmd, {v.bind(), out.bind(), scalars_.bind(), gpu::storage_buffer(reduce_)}, p);
  launch(cmd, v.quads(), reduce_slot != kNoSlot);
}

void Ops::cg_stencil(VkCommandBuffer cmd, const Stencil5& a, const CgStencilStep& t) {
  const Vec* all[] = {t.x, t.r, t.w, t.p, t.s, t.r_next, t.w_next, t.s_next};
  for (const Vec* v : all)
    if (a.w % 4 != 0 || v->n() != a.n())
      throw std::invalid_argument("CG stencil: the grid width must be a multiple of 4 and match the vectors");
  if (t.r_next == t.r || t.w_next == t.w || t.s_next == t.s)
    throw std::invalid_argument(
        "CG stencil: r, w and s are read at the neighbours: their next values need vectors of their own");
  if (gated_ && t.hist == kNoSlot) throw std::logic_error("a gated CG iteration needs the iteration in hist");
  ready(cmd);
  const CgSlots& k = t.slots;
  CgStencilPush p{.width = a.w,
                  .height = a.h,
                  .quads = t.x->quads(),
                  .side = t.x->side(),
                  .diag = a.diag,
                  .off = a.off,
                  .first = t.first,
                  .gamma = k.gamma,
                  .gamma_prev = k.gamma_prev,
                  .gamma_next = k.gamma_next,
                  .delta = k.delta,
                  .delta_next = k.delta_next,
                  .alpha_prev = k.alpha_prev,
                  .alpha_slot = k.alpha,
                  .hist = t.hist};
  gate_fields(p);
  cg_stencil_.bind(cmd,
                   {t.x->bind(), t.r->bind(), t.w->bind(), t.p->bind(), t.s->bind(), t.s_next->bind(), t.r_next->bind(),
                    t.w_next->bind(), scalars_.bind(), gpu::storage_buffer(reduce_), gpu::storage_buffer(gate_)},
                   p);
  launch(cmd, t.x->quads(), true);
}

void Ops::cg_pipelined(VkCommandBuffer cmd, const Stencil5& a, const CgPipelinedStep& t) {
  for (const Vec* v : {t.x, t.r, t.p, t.r_next, t.p_next})
    if (a.w % 4 != 0 || v->n() != a.n())
      throw std::invalid_argument("CG pipelined: the grid width must be a multiple of 4 and match the vectors");
  if (t.r_next == t.r || t.p_next == t.p)
    throw std::invalid_argument(
        "CG pipelined: r and p are read at the neighbours: their next values need vectors of their own");
  if (gated_ && t.hist == kNoSlot) throw std::logic_error("a gated CG iteration needs the iteration in hist");
  ready(cmd);
  CgPipelinedPush p{.width = a.w,
                    .height = a.h,
                    .side = t.x->side(),
                    .diag = a.diag,
                    .off = a.off,
                    .first = t.first,
                    .strip_rows = t.strip_rows ? t.strip_rows : cg_strip_rows(a),
                    .gamma = t.slots.gamma,
                    .gamma_prev = t.slots.gamma_prev,
                    .gamma_next = t.slots.gamma_next,
                    .delta = t.slots.delta,
                    .delta_next = t.slots.delta_next,
                    .alpha_prev = t.slots.alpha_prev,
                    .alpha_slot = t.slots.alpha,
                    .hist = t.hist};
  gate_fields(p);
  cg_pipelined_.bind(cmd,
                     {t.x->bind(), t.r->bind(), t.p->bind(), t.p_next->bind(), t.r_next->bind(), scalars_.bind(),
                      gpu::storage_buffer(reduce_), gpu::storage_buffer(gate_)},
                     p);
  launch(cmd, t.x->quads(), true);
}

uint32_t Ops::cg_strip_rows(const Stencil5& a) const {
  uint64_t invocations = uint64_t(groups(a.n() / 4, true)) * group_width_, row = std::max(a.w / 4, 1u);
  uint64_t strips = std::max<uint64_t>(invocations / 4 / row, 1);  // a strip for a quarter of the invocations
  return uint32_t(std::clamp<uint64_t>((a.h + strips - 1) / strips, 4, 64));
}

uint32_t Ops::groups(uint32_t quads, bool reduces) const {
  return std::clamp<uint32_t>(gpu::groups(quads, group_width_), 1, reduces ? kMaxReduceGroups : kMaxGroups);
}

const Vec& Ops::scratch(uint32_t n, int which) {
  auto key = std::make_pair(n, which);
  auto it = scratch_.find(key);
  if (it == scratch_.end()) it = scratch_.emplace(key, Vec(ctx_, n, layout_)).first;
  return it->second;
}

const std::vector<Vec>& Ops::pyramid(const Vec& x) {
  auto& levels = pyramids_[x.quads()];
  if (levels.empty()) {
    if (layout_ == Layout::Texture)
      for (uint32_t s = x.side() / 2; s >= 1; s /= 2) levels.emplace_back(ctx_, 4 * s * s, layout_);
    else
      for (uint32_t c = (x.quads() + 3) / 4;; c = (c + 3) / 4) {
        levels.emplace_back(ctx_, 4 * c, layout_);
        if (c == 1) break;
      }
  }
  return levels;
}

void Ops::axpby(VkCommandBuffer cmd, Coef a, const Vec& x, Coef b, const Vec& y, const Vec& out) {
  ready(cmd);
  AxpbyPush p{.quads = out.quads(),
              .side = out.side(),
              .product = 0,
              .a = a.c,
              .b = b.c,
              .a_num = a.num,
              .a_den = a.den,
              .b_num = b.num,
              .b_den = b.den};
  axpby_.bind(cmd, {x.bind(), y.bind(), out.bind(), scalars_.bind()}, p);
  launch(cmd, out.quads(), false);
}

void Ops::mul(VkCommandBuffer cmd, const Vec& x, const Vec& y, const Vec& out) {
  ready(cmd);
  AxpbyPush p{.quads = out.quads(),
              .side = out.side(),
              .product = 1,
              .a = 1,
              .b = 1,
              .a_num = kNoSlot,
              .a_den = kNoSlot,
              .b_num = kNoSlot,
              .b_den = kNoSlot};
  axpby_.bind(cmd, {x.bind(), y.bind(), out.bind(), scalars_.bind()}, p);
  launch(cmd, out.quads(), false);
}

void Ops::dot(VkCommandBuffer cmd, Variant v, const Vec& x, const Vec& y, uint32_t slot, bool root, uint32_t hist) {
  if (v == Variant::Modern) {
    ready(cmd);
    DotOnePush p{.quads = x.quads(),
                 .side = x.side(),
                 .slot = slot,
                 .mode = root ? 1u : 0u,
                 .hist = hist,
                 .same = &x == &y ? 1u : 0u};
    dot_onepass_.bind(cmd, {x.bind(), y.bind(), scalars_.bind(), gpu::storage_buffer(reduce_)}, p);
    launch(cmd, x.quads(), true);
    return;
  }
  // Thesis: partial dot (4 quads -> 1), 4:1 reductions down to one quad, a last sum.
  auto pass = [&](uint32_t mode, const Vec& in, const Vec& in2, const Vec& out, uint32_t in_count) {
    ready(cmd);
    DotThesisPush p{.mode = mode,
                    .in_count = in_count,
                    .in_side = in.side(),
                    .out_count = out.quads(),
                    .out_side = out.side(),
                    .slot = slot,
                    .root = root ? 1u : 0u,
                    .hist = hist};
    dot_thesis_.bind(cmd, {in.bind(), in2.bind(), out.bind(), scalars_.bind()}, p);
    direct(cmd, mode >= 2 ? 1 : groups(out.quads()));
  };
  if (x.quads() == 1) return pass(2, x, y, x, 1);
  auto& levels = pyramid(x);
  pass(0, x, y, levels[0], x.quads());
  for (size_t l = 1; l < levels.size(); ++l) pass(1, levels[l - 1], levels[l - 1], levels[l], levels[l - 1].quads());
  pass(3, levels.back(), levels.back(), levels.back(), 1);
}

uint32_t Ops::extreme(VkCommandBuffer cmd, Variant v, Extreme e, const Vec& x, uint32_t slot, bool zero_pad) {
  if (slot >= Scalars::kSlots) throw std::invalid_argument("extreme: no such scalar slot");
  uint32_t is_min = e == Extreme::Min ? 1u : 0u, pad = zero_pad ? 1u : 0u;
  if (v == Variant::Modern) {
    ready(cmd);
    ExtremeOnePush p{.n = x.n(), .quads = x.quads(), .side = x.side(), .slot = slot, .is_min = is_min, .zero_pad = pad};
    extreme_onepass_.bind(cmd, {x.bind(), scalars_.bind(), gpu::storage_buffer(reduce_)}, p);
    direct(cmd, groups(x.quads(), true));
    return 1;
  }
  // Thesis: level after level into two scratch vectors in turn, each as large as the first
  // level (a smaller level uses its first quads: the top-left corner of a texture).
  auto passes = extreme_passes(layout_, x.n());
  uint32_t scratch_n = 4 * std::max(passes[0].out_quads, 1u);
  const Vec* in = &x;
  for (size_t i = 0; i < passes.size(); ++i) {
    const ExtremePass& pass = passes[i];
    bool last = pass.out_quads == 0;
    const Vec& out = last ? x : scratch(scratch_n, 2 + int(i % 2));  // x: a valid, unwritten placeholder
    ready(cmd);
    ExtremeThesisPush p{.first = in == &x ? 1u : 0u,
                        .last = last ? 1u : 0u,
                        .n = x.n(),
                        .in_count = pass.in_quads,
                        .in_side = pass.in_side,
                        .out_count = pass.out_quads,
                        .out_side = pass.out_side,
                        .slot = slot,
                        .is_min = is_min,
                        .zero_pad = pad};
    extreme_thesis_.bind(cmd, {in->bind(), out.bind(), scalars_.bind()}, p);
    direct(cmd, last ? 1 : groups(pass.out_quads));
    in = &out;
  }
  return uint32_t(passes.size());
}

void Ops::dot_ff(VkCommandBuffer cmd, const Vec& x, const Vec& y, uint32_t slot) {
  if (slot + 1 >= Scalars::kSlots) throw std::invalid_argument("dot_ff needs two scalar slots");
  ready(cmd);
  dot_ff_.bind(cmd, {x.bind(), y.bind(), scalars_.bind(), gpu::storage_buffer(reduce_)},
               DotFfPush{.quads = x.quads(), .side = x.side(), .slot = slot});
  direct(cmd, groups(x.quads(), true));
}

void Ops::ff_dispatch(VkCommandBuffer cmd, uint32_t op, const GpuBanded* m, const Vec& xh, const Vec& xl, const Vec& yh,
                      const Vec& yl, const Vec& oh, const Vec& ol, uint32_t num, uint32_t den, uint32_t slot,
                      float sign) {
  ready(cmd);
  gpu::Bind diags =
      m ? m->bind_diagonals() : (layout_ == Layout::Texture ? gpu::storage_image(no_diagonals_) : scalars_.bind());
  gpu::Bind offsets = m ? gpu::storage_buffer(m->offset_buffer) : scalars_.bind();
  FfPush p{.n = xh.n(),
           .quads = xh.quads(),
           .side = xh.side(),
           .op = op,
           .count = m ? m->count : 0,
           .num = num,
           .den = den,
           .slot = slot,
           .sign = sign};
  ff_ops_.bind(cmd,
               {diags, xh.bind(), xl.bind(), yh.bind(), yl.bind(), oh.bind(), ol.bind(), offsets, scalars_.bind(),
                gpu::storage_buffer(reduce_)},
               p);
  direct(cmd, groups(xh.quads(), op == 2));
}

void Ops::ff_banded(VkCommandBuffer cmd, const GpuBanded& m, const Vec& vh, const Vec& vl, const Vec& oh,
                    const Vec& ol) {
  ff_dispatch(cmd, 0, &m, vh, vl, vh, vl, oh, ol, kNoSlot, kNoSlot, 0, 1.0f);
}

void Ops::ff_axpy(VkCommandBuffer cmd, const Vec& xh, const Vec& xl, uint32_t num, uint32_t den, float sign,
                  const Vec& yh, const Vec& yl, const Vec& oh, const Vec& ol) {
  ff_dispatch(cmd, 1, nullptr, xh, xl, yh, yl, oh, ol, num, den, 0, sign);
}

void Ops::ff_dot(VkCommandBuffer cmd, const Vec& xh, const Vec& xl, const Vec& yh, const Vec& yl, uint32_t slot) {
  ff_dispatch(cmd, 2, nullptr, xh, xl, yh, yl, xh, xl, kNoSlot, kNoSlot, slot, 1.0f);
}

void Ops::banded(VkCommandBuffer cmd, Variant variant, const GpuBanded& m, const Vec& v, const Vec* vp, const Vec& out,
                 float a, float b, uint32_t reduce_slot) {
  if (m.layout != layout_ || v.n() != m.n) throw std::invalid_argument("banded: matrix and vector do not match");
  if (frac_index_ && m.n % 4 != 0)
    throw std::invalid_argument("banded: the thesis's index arithmetic works on whole quads (n a multiple of 4)");
  uint32_t per_pass = variant == Variant::Thesis ? kThesisDiagonalsPerPass : m.count;
  uint32_t passes = (m.count + per_pass - 1) / per_pass;
  if (reduce_slot != kNoSlot && (passes > 1 || vp))
    throw std::invalid_argument("banded: the fused dot needs one pass and no vp");
  for (uint32_t p = 0; p < passes; ++p) {
    bool last = p + 1 == passes;
    const Vec& dst = last ? out : scratch(m.n, int(p % 2));
    const Vec& acc = p > 0 ? scratch(m.n, int((p - 1) % 2)) : v;  // v: a valid, unread placeholder
    ready(cmd);
    BandedPush push{.n = m.n,
                    .quads = m.quads,
                    .side = out.side(),
                    .first = p * per_pass,
                    .count = std::min(per_pass, m.count - p * per_pass),
                    .accumulate = p > 0 ? 1u : 0u,
                    .add_vp = last && (vp || a != 1.0f) ? 1u : 0u,
                    .reduce_slot = reduce_slot,
                    .a = a,
                    .b = vp ? b : 0.0f,
                    .frac_index = frac_index_ ? 1u : 0u};
    banded_.bind(cmd,
                 {m.bind_diagonals(), v.bind(), acc.bind(), (vp ? *vp : v).bind(), dst.bind(),
                  gpu::storage_buffer(m.offset_buffer), scalars_.bind(), gpu::storage_buffer(reduce_)},
                 push);
    if (passes == 1)
      launch(cmd, m.quads, reduce_slot != kNoSlot);
    else
      direct(cmd, groups(m.quads, reduce_slot != kNoSlot));
  }
}

void Ops::set_frac_index(bool on) {
  if (on && layout_ != Layout::Texture)
    throw std::invalid_argument("the thesis's index arithmetic addresses textures: use the texture layout");
  frac_index_ = on;
}

void Ops::dense(VkCommandBuffer cmd, Variant variant, const GpuDense& m, const Vec& v, const Vec* vp, const Vec& out) {
  if (v.n() != m.n) throw std::invalid_argument("dense: matrix and vector do not match");
  if (variant == Variant::Modern) {
    ready(cmd);
    DenseRowsPush p{.quads = m.quads, .side = out.side(), .add_vp = vp ? 1u : 0u};
    dense_rows_.bind(cmd, {gpu::storage_buffer(m.rows), v.bind(), (vp ? *vp : v).bind(), out.bind()}, p);
    direct(cmd, m.quads);  // one workgroup per quad of rows
    return;
  }
  for (uint32_t p = 0; p < m.quads; ++p) {  // N/4 passes
    bool last = p + 1 == m.quads;
    const Vec& dst = last ? out : scratch(m.n, int(p % 2));
    const Vec& acc = p > 0 ? scratch(m.n, int((p - 1) % 2)) : v;
    ready(cmd);
    DenseThesisPush push{.quads = m.quads, .side = out.side(), .pass_index = p, .add_vp = last && vp ? 1u : 0u};
    dense_thesis_.bind(cmd, {gpu::storage_buffer(m.columns), v.bind(), acc.bind(), (vp ? *vp : v).bind(), dst.bind()},
                       push);
    direct(cmd, groups(m.quads));
  }
}

void Ops::cg_update(VkCommandBuffer cmd, const Vec& x, const Vec& r, const Vec& d, const Vec& q, uint32_t rho,
                    uint32_t dad, uint32_t rho_next, uint32_t hist) {
  ready(cmd);
  // Gated: the stop test rides on the r·r reduction (hist is the iteration number).
  CgPush p{.quads = x.quads(), .side = x.side(), .rho = rho, .dad = dad, .rho_next = rho_next, .hist = hist};
  gate_fields(p);
  if (gated_ && hist == kNoSlot) throw std::logic_error("a gated cg_update needs the iteration in hist");
  cg_update_.bind(cmd,
                  {x.bind(), r.bind(), d.bind(), q.bind(), scalars_.bind(), gpu::storage_buffer(reduce_),
                   gpu::storage_buffer(gate_)},
                  p);
  launch(cmd, x.quads(), true);
}

void Ops::unpack(VkCommandBuffer cmd, const Vec& x, const gpu::Image& img) {
  ready(cmd);
  UnpackPush p{.n = x.n(), .side = x.side(), .width = img.width(), .height = img.height()};
  unpack_.bind(cmd, {x.bind(), gpu::storage_image(img)}, p);
  unpack_.dispatch(cmd, img.width(), img.height());
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT);
}

}  // namespace linalg
