#include "compute/wave/wave.h"

#include "shaders/wave/wave_push.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace wave {

namespace {
constexpr uint32_t kEnergySlot = linalg::Cg::kOutcomeSlot + 3;  // right after CG's outcome: one copy takes all 4

using RhsPush = push::WaveRhsPush;  // the blocks: shaders/wave/wave_push.h
using EnergyPush = push::WaveEnergyPush;
using DisturbPush = push::WaveDisturbPush;

// Every earlier write (compute, copies, uploads) visible to the next compute pass.
void sync(VkCommandBuffer cmd) {
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
               VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

linalg::Layout layout_of(const Config& c) {
  return c.solver == Solver::Thesis ? linalg::Layout::Texture : linalg::Layout::Buffer;
}

// The banded form of x0·I + x1·(γ-weighted S): M[i][j] = x0·w(i) on the diagonal and
// x1·w(j) towards each neighbour j inside the grid.
linalg::BandedMatrix weighted_band(const Config& c, float x0, float x1, float (*w)(const Config&, uint32_t, uint32_t)) {
  linalg::BandedMatrix m;
  m.n = c.n();
  int W = int(c.width);
  for (int o : {0, 1, -1, W, -W}) m.diagonals[o].assign(m.n, 0.0f);
  for (uint32_t y = 0; y < c.height; ++y)
    for (uint32_t x = 0; x < c.width; ++x) {
      uint32_t i = y * c.width + x;
      m.diagonals[0][i] = x0 * w(c, x, y);
      if (x + 1 < c.width) m.diagonals[1][i] = x1 * w(c, x + 1, y);
      if (x > 0) m.diagonals[-1][i] = x1 * w(c, x - 1, y);
      if (y + 1 < c.height) m.diagonals[W][i] = x1 * w(c, x, y + 1);
      if (y > 0) m.diagonals[-W][i] = x1 * w(c, x, y - 1);
    }
  return m;
}
float one(const Config&, uint32_t, uint32_t) { return 1.0f; }
float keep(const Config& c, uint32_t x, uint32_t y) { return 1.0f - damping_at(c, x, y); }

// x0·I + x1·S applied to f, zero outside.
template <class T>
void apply(const Config& c, double x0, double x1, const std::vector<T>& f, std::vector<T>& out) {
  uint32_t w = c.width, h = c.height;
  out.resize(f.size());
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      size_t i = size_t(y) * w + x;
      T s = (x > 0 ? f[i - 1] : T(0)) + (x + 1 < w ? f[i + 1] : T(0)) + (y > 0 ? f[i - w] : T(0)) +
            (y + 1 < h ? f[i + w] : T(0));
      out[i] = T(x0) * f[i] + T(x1) * s;
    }
}
}  // namespace

void check(const Config& c) {
  if (c.width < 4 || c.height < 2 || c.width % 4 != 0)
    throw std::invalid_argument("wave: the grid must be at least 4 x 2 cells with a width that is a multiple of 4");
  if (!(c.c > 0) || !(c.dt > 0) || !(c.dx > 0) || !std::isfinite(c.r()))
    throw std::invalid_argument("wave: c, dt and dx must be positive and finite");
  if (!(c.tolerance > 0) || c.max_iterations < 1)
    throw std::invalid_argument("wave: CG needs a positive tolerance and at least one iteration");
  if (!(c.damping >= 0 && c.damping <= 1) || !(c.sponge_damping >= 0 && c.sponge_damping <= 1))
    throw std::invalid_argument("wave: damping must lie in [0, 1]");
}

const char* scheme_name(Scheme s) {
  switch (s) {
    case Scheme::Seed:
      return "seed";
    case Scheme::PrintedA:
      return "printed-a";
    case Scheme::PrintedB:
      return "printed-b";
    case Scheme::PrintedM:
      return "printed-m";
    default:
      return "newmark";
  }
}

Scheme scheme_from_name(const std::string& name) {
  for (Scheme s : {Scheme::Newmark, Scheme::Seed, Scheme::PrintedA, Scheme::PrintedB, Scheme::PrintedM})
    if (name == scheme_name(s)) return s;
  throw std::invalid_argument("wave: unknown scheme '" + name + "' (newmark, seed, printed-a, printed-b or printed-m)");
}

Coefficients coefficients(const Config& c) {
  float r = c.r(), a = r / 2;
  switch (c.scheme) {
    case Scheme::Seed:
      return {1 + 4 * a, -a, 2 - 4 * a, a, -1.0f, 0.0f};
    case Scheme::PrintedA:
      return {1 + 8 * a, -a, 2 - 4 * a, a, -1.0f, 0.0f};  // (8α+1)I − αS
    case Scheme::PrintedB:
      return {1 + 4 * a, -a, 1 - 4 * a, a, -1.0f, 0.0f};  // b with (1−4α)h
    case Scheme::PrintedM:
      return {1 + 4 * a, -a, 2.0f, a, -1.0f, 0.0f};  // M = 2I + αS
    default:
      return {1 + r, -r / 4, 2 - 2 * r, r / 2, -(1 + r), r / 4};
  }
}

float damping_at(const Config& c, uint32_t x, uint32_t y) {
  float g = c.damping;
  if (c.sponge > 0) {
    uint32_t d = std::min(std::min(x, y), std::min(c.width - 1 - x, c.height - 1 - y));
    if (d < c.sponge) {
      float t = float(c.sponge - d) / float(c.sponge);
      g += c.sponge_damping * t * t;
    }
  }
  return std::min(g, 1.0f);
}

double mode_eigenvalue(const Config& c, uint32_t kx, uint32_t ky) {
  double sx = std::sin(M_PI * kx / (2.0 * (c.width + 1))), sy = std::sin(M_PI * ky / (2.0 * (c.height + 1)));
  return 4 * sx * sx + 4 * sy * sy;
}

std::vector<float> mode_field(const Config& c, uint32_t kx, uint32_t ky, float amplitude) {
  std::vector<float> f(c.n());
  for (uint32_t y = 0; y < c.height; ++y)
    for (uint32_t x = 0; x < c.width; ++x)
      f[size_t(y) * c.width + x] = float(amplitude * std::sin(M_PI * kx * (x + 1.0) / (c.width + 1)) *
                                         std::sin(M_PI * ky * (y + 1.0) / (c.height + 1)));
  return f;
}

double energy_cpu(const Config& c, const std::vector<float>& h, const std::vector<float>& prev) {
  std::vector<double> m(c.n()), km;
  double kinetic = 0;
  for (size_t i = 0; i < m.size(); ++i) {
    m[i] = 0.5 * (double(h[i]) + prev[i]);
    kinetic += (double(h[i]) - prev[i]) * (double(h[i]) - prev[i]);
  }
  apply(c, 4.0, -1.0, m, km);  // −L·m
  double potential = 0;
  for (size_t i = 0; i < m.size(); ++i) potential += m[i] * km[i];
  return kinetic + double(c.r()) * potential;
}

template <class T>
uint32_t step_cpu(const Config& c, std::vector<T>& h, std::vector<T>& prev) {
  auto k = coefficients(c);
  size_t n = c.n();
  std::vector<T> damped(n), b, q, x(n), r(n), d(n), ad;
  for (uint32_t y = 0; y < c.height; ++y)
    for (uint32_t xx = 0; xx < c.width; ++xx) {
      size_t i = size_t(y) * c.width + xx;
      damped[i] = prev[i] + T(damping_at(c, xx, y)) * (h[i] - prev[i]);
    }
  apply(c, k.p0, k.p1, h, b);
  apply(c, k.q0, k.q1, damped, q);
  T bb = 0;
  for (size_t i = 0; i < n; ++i) b[i] += q[i], bb += b[i] * b[i], x[i] = 2 * h[i] - prev[i];
  apply(c, k.a0, k.a1, x, ad);
  T rho = 0;
  for (size_t i = 0; i < n; ++i) r[i] = b[i] - ad[i], d[i] = r[i], rho += r[i] * r[i];
  T tol2 = T(c.tolerance) * T(c.tolerance) * bb;
  uint32_t it = 0;
  while (it < c.max_iterations && rho > tol2) {
    apply(c, k.a0, k.a1, d, ad);
    T dad = 0;
    for (size_t i = 0; i < n; ++i) dad += d[i] * ad[i];
    T alpha = rho / dad, rho_next = 0;
    for (size_t i = 0; i < n; ++i) x[i] += alpha * d[i], r[i] -= alpha * ad[i], rho_next += r[i] * r[i];
    for (size_t i = 0; i < n; ++i) d[i] = r[i] + (rho_next / rho) * d[i];
    rho = rho_next;
    ++it;
  }
  prev.swap(h);
  h.swap(x);
  return it;
}
template uint32_t step_cpu<float>(const Config&, std::vector<float>&, std::vector<float>&);
template uint32_t step_cpu<double>(const Config&, std::vector<double>&, std::vector<double>&);

void disturb_cpu(const Config& c, std::vector<float>& f, Shape s, float cx, float cy, float radius, float amplitude) {
  for (uint32_t y = 0; y < c.height; ++y)
    for (uint32_t x = 0; x < c.width; ++x) {
      float dx = float(x) - cx, dy = float(y) - cy;
      float d2 = s == Shape::Drop ? dx * dx + dy * dy : (s == Shape::LineX ? dx * dx : dy * dy);
      f[size_t(y) * c.width + x] += amplitude * std::exp(-d2 / (radius * radius));
    }
}

Simulation::Simulation(gpu::Context& ctx, const Config& config)
    : ctx_(ctx),
      config_((check(config), config)),
      k_(coefficients(config)),
      ops_(ctx, layout_of(config)),
      fields_{linalg::Vec(ctx, config.n(), layout_of(config)), linalg::Vec(ctx, config.n(), layout_of(config)),
              linalg::Vec(ctx, config.n(), layout_of(config))},
      b_(ctx, config.n(), layout_of(config)),
      tmp_(ctx, config.n(), layout_of(config)),
      ring_(ctx, kRing * 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true) {
  const auto& c = config_;
  const auto layout = layout_of(c);
  linalg::Stencil5 a{c.width, c.height, k_.a0, k_.a1};
  if (c.storage == Storage::Banded || thesis()) {
    a_ = std::make_unique<linalg::GpuBanded>(ctx, a.banded(), layout);
    // b = P'·h + Q'·h⁻ with the damping folded in: h⁻' = (1−γ)·h⁻ + γ·h.
    auto gamma = [](const Config& c, uint32_t x, uint32_t y) { return damping_at(c, x, y); };
    auto p = weighted_band(c, k_.p0, k_.p1, one), pg = weighted_band(c, k_.q0, k_.q1, gamma);
    for (auto& [o, d] : p.diagonals)
      for (size_t i = 0; i < d.size(); ++i) d[i] += pg.diagonals[o][i];
    p_ = std::make_unique<linalg::GpuBanded>(ctx, p, layout);
    q_ = std::make_unique<linalg::GpuBanded>(ctx, weighted_band(c, k_.q0, k_.q1, keep), layout);
    cg_ = std::make_unique<linalg::Cg>(ops_, *a_);
  } else {
    cg_ = std::make_unique<linalg::Cg>(ops_, a);
  }
  rhs_ = gpu::make_compute(ctx, "wave/rhs.comp", sizeof(RhsPush));
  energy_ = gpu::make_compute(ctx, "wave/energy.comp", sizeof(EnergyPush));
  disturb_ = gpu::make_compute(ctx, "wave/disturb.comp", sizeof(DisturbPush));
  if (thesis())
    for (auto& b : shown_) b = gpu::Buffer(ctx, 4ull * c.n(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  std::vector<float> zero(c.n(), 0.0f);
  set_state(zero, zero);
}

uint32_t Simulation::observe() {
  uint32_t most = 0, short_of_budget = 0;
  bool any = false;
  for (uint64_t k = std::max(observed_ + 1, steps_ >= kRing ? steps_ - kRing + 1 : 1); k <= steps_; ++k) {
    auto s = stats(k);
    any = true;
    most = std::max(most, s.iterations);
    if (!s.converged && s.iterations < config_.max_iterations) ++short_of_budget;
  }
  observed_ = steps_;
  // The counts are not monotonic (reflections off the walls) and their rounding differs
  // across devices, hence the margin: half again and 8. Each budgeted iteration past the
  // solve costs a dispatch and a barrier (~4 us on an H100); going from 2x + 8 to this (and
  // dropping a copy) saved 0.065 ms a step at 1024², Courant 5 (docs/PERF.md).
  if (short_of_budget)
    budget_ = std::min(config_.max_iterations, 2 * budget_);
  else if (any)
    budget_ = std::min(config_.max_iterations, std::max(most, last_most_) * 3 / 2 + 8);
  if (any) last_most_ = most;
  return short_of_budget;
}

void Simulation::set_state(const std::vector<float>& h, const std::vector<float>& prev) {
  if (h.size() != config_.n() || prev.size() != config_.n()) throw std::invalid_argument("wave: state size mismatch");
  fields_[cur_].upload(h);
  fields_[(cur_ + 2) % 3].upload(prev);
  if (thesis()) shown_[0].upload(h), shown_[1].upload(prev);
  budget_ = config_.max_iterations, last_most_ = 0;
}

std::vector<float> Simulation::height() const { return fields_[cur_].download(); }
std::vector<float> Simulation::previous() const { return fields_[(cur_ + 2) % 3].download(); }
const gpu::Buffer& Simulation::height_buffer() const { return thesis() ? shown_[0] : fields_[cur_].buffer(); }
const gpu::Buffer& Simulation::previous_buffer() const {
  return thesis() ? shown_[1] : fields_[(cur_ + 2) % 3].buffer();
}

void Simulation::record_rhs(VkCommandBuffer cmd, linalg::Variant v) {
  const auto &h = fields_[cur_], &prev = fields_[(cur_ + 2) % 3];
  const auto& c = config_;
  if (thesis() && k_.q1 == 0 && c.damping == 0 && c.sponge == 0) {  // b = M·h − h⁻, as printed (lines 2-3)
    ops_.banded(cmd, v, *p_, h, nullptr, b_);
    ops_.axpby(cmd, {1.0f}, b_, {k_.q0}, prev, b_);
    return;
  }
  if (a_) {
    ops_.banded(cmd, v, *q_, prev, nullptr, tmp_);
    ops_.banded(cmd, v, *p_, h, &tmp_, b_, 1.0f, 1.0f);
    return;
  }
  sync(cmd);
  RhsPush p{.width = c.width,
            .height = c.height,
            .p0 = k_.p0,
            .p1 = k_.p1,
            .q0 = k_.q0,
            .q1 = k_.q1,
            .damping = c.damping,
            .sponge_damping = c.sponge_damping,
            .sponge = c.sponge};
  if (user_rhs_) {  // the user's kernel (use_rhs)
    user_rhs_->bind(cmd, {h.bind(), prev.bind(), b_.bind()}, &p, sizeof p);
    user_rhs_->dispatch(cmd, c.width, c.height);
    return;
  }
  rhs_.bind(cmd, {h.bind(), prev.bind(), b_.bind()}, p);
  rhs_.dispatch(cmd, c.width, c.height);
}

void Simulation::record_energy(VkCommandBuffer cmd, const gpu::Buffer& h, const gpu::Buffer& prev) {
  sync(cmd);
  const auto& c = config_;
  EnergyPush p{.width = c.width, .height = c.height, .r = c.r(), .slot = kEnergySlot};
  energy_.bind(cmd, {gpu::storage_buffer(h), gpu::storage_buffer(prev), ops_.scalars().bind(), ops_.reduce_bind()}, p);
  vkCmdDispatch(cmd, ops_.groups(fields_[cur_].quads(), true), 1, 1);
}

void Simulation::record_steps(VkCommandBuffer cmd, gpu::Profiler* prof, uint32_t n) {
  if (thesis()) {
    for (uint32_t s = 0; s < n; ++s) step_thesis();
    return;
  }
  auto scope = [&](const char* name, double bytes, double flops) {
    return prof ? prof->begin(cmd, name, bytes, flops) : 0u;
  };
  auto end = [&](uint32_t s) {
    if (prof) prof->end(cmd, s);
  };
  const double field = 4.0 * config_.n();
  for (uint32_t s = 0; s < n; ++s) {
    const auto &h = fields_[cur_], &prev = fields_[(cur_ + 2) % 3], &next = fields_[(cur_ + 1) % 3];
    uint32_t t = scope("wave.rhs", config_.storage == Storage::Banded ? 16 * field : 3 * field, 12.0 * config_.n());
    record_rhs(cmd, linalg::Variant::Modern);
    end(t);
    // The warm start, the solve's start and the iterations the GPU ran (known once it has).
    t = prof ? prof->begin(cmd, "wave.cg",
                           [this, k = steps_ + 1] {
                             double it = stats(k).iterations;
                             return std::pair{12.0 * config_.n() + cg_->setup_bytes() + it * bytes_per_iteration(),
                                              3.0 * config_.n() + cg_->setup_flops() + it * flops_per_iteration()};
                           })
             : 0u;
    ops_.axpby(cmd, {2.0f}, h, {-1.0f}, prev, next);  // warm start: h + (h − h⁻)
    cg_->record_solve(cmd, b_, next, config_.tolerance, budget_);
    end(t);
    cur_ = (cur_ + 1) % 3;
    t = scope("wave.energy", 2 * field, 14.0 * config_.n());
    record_energy(cmd, fields_[cur_].buffer(), fields_[(cur_ + 2) % 3].buffer());
    end(t);
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferCopy region{linalg::Cg::kOutcomeSlot * sizeof(float), (steps_ % kRing) * 16, 16};
    vkCmdCopyBuffer(cmd, ops_.scalars().buffer().handle(), ring_.handle(), 1, &region);
    ++steps_;
  }
  // The new heights to drawing (and the ring to the host).
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_2_HOST_BIT,
               VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_HOST_READ_BIT);
}

void Simulation::record_disturb(VkCommandBuffer cmd, Shape s, float x, float y, float radius, float amplitude) {
  budget_ = config_.max_iterations, last_most_ = 0;
  if (thesis()) {  // the thesis's vectors live in textures: disturbed on the host, at once
    auto h = height(), prev = previous();
    disturb_cpu(config_, h, s, x, y, std::max(radius, 0.5f), amplitude);
    disturb_cpu(config_, prev, s, x, y, std::max(radius, 0.5f), amplitude);
    set_state(h, prev);
    return;
  }
  sync(cmd);
  const auto& c = config_;
  DisturbPush p{.width = c.width,
                .height = c.height,
                .shape = uint32_t(s),
                .cx = x,
                .cy = y,
                .radius = std::max(radius, 0.5f),
                .amplitude = amplitude};
  disturb_.bind(cmd, {fields_[cur_].bind(), fields_[(cur_ + 2) % 3].bind()}, p);
  disturb_.dispatch(cmd, c.width, c.height);
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT);
}

// 'SIMULATION D'ONDES 2D' (§4.2.2.2) as Annex III runs it: b = M·h − h⁻ (lines 2-3), h' by
// 'MGC SUR GPU' from x0 = b (line 4 of §3.4.2), h⁻ ← h. The copies of lines 1 and 5 are the
// fields' rotation here.
void Simulation::step_thesis() {
  auto t0 = std::chrono::steady_clock::now();
  auto& next = fields_[(cur_ + 1) % 3];
  ctx_.submit_now([&](VkCommandBuffer cmd) {
    sync(cmd);
    record_rhs(cmd, linalg::Variant::Thesis);
  });
  linalg::CgOptions o;
  o.variant = linalg::Variant::Thesis;
  o.start = linalg::CgStart::RightHandSide;
  o.tolerance = config_.tolerance;
  o.max_iterations = config_.max_iterations;
  o.check_every = 1;  // the thesis reads ||r|| back each iteration
  auto res = cg_->solve(b_, next, o);
  thesis_readbacks_ = res.iterations + 1;
  cur_ = (cur_ + 1) % 3;
  ctx_.submit_now([&](VkCommandBuffer cmd) {
    record_show(cmd);
    record_energy(cmd, shown_[0], shown_[1]);
  });
  float energy = ops_.scalars().get(kEnergySlot);
  float row[4] = {float(res.iterations), res.converged ? 1.0f : 0.0f, res.relative_residual, energy};
  if (!res.problem.empty()) row[2] = std::numeric_limits<float>::quiet_NaN(), row[3] = row[2];
  ring_.upload(row, sizeof row, (steps_ % kRing) * 16);
  ++steps_;
  thesis_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The texture holds quad q at texel (q % side, q / side): its first n/4 texels, row by row,
// are the vector in order.
void Simulation::record_show(VkCommandBuffer cmd) {
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT | VK_ACCESS_2_MEMORY_READ_BIT,
               VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
  const linalg::Vec* from[2] = {&fields_[cur_], &fields_[(cur_ + 2) % 3]};
  for (int k = 0; k < 2; ++k) {
    uint32_t side = from[k]->side(), quads = from[k]->quads(), rows = quads / side, rest = quads % side;
    VkBufferImageCopy regions[2]{};
    uint32_t count = 0;
    for (uint32_t part = 0; part < 2; ++part) {
      uint32_t w = part == 0 ? side : rest, h = part == 0 ? rows : 1;
      if (w == 0 || h == 0) continue;
      auto& r = regions[count++];
      r.bufferOffset = part == 0 ? 0 : 16ull * rows * side;
      r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      r.imageOffset = {0, int32_t(part == 0 ? 0 : rows), 0};
      r.imageExtent = {w, h, 1};
    }
    VkImage image = from[k]->image().handle();
    gpu::transition(cmd, image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_GENERAL,
                    VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, shown_[k].handle(), count, regions);
    gpu::transition(cmd, image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                    VK_IMAGE_LAYOUT_GENERAL);
  }
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
               VK_ACCESS_2_MEMORY_READ_BIT);
}

StepStats Simulation::stats(uint64_t k) const {
  if (k == 0 || k > steps_ || steps_ - k >= kRing) throw std::out_of_range("wave: no stats for that step");
  float v[4];
  ring_.download(v, sizeof v, ((k - 1) % kRing) * 16);
  return {uint32_t(v[0]), v[1] != 0.0f, v[2], v[3]};
}

}  // namespace wave
