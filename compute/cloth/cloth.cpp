#include "compute/cloth/cloth.h"

#include "compute/cloth/shift.h"  // and cloth_push.h
#include "compute/cloth/tiles.h"
#include "compute/exercise/user_kernel.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

namespace cloth {

namespace {
constexpr uint32_t kStatsGroups = 128;

using StepPush = push::ClothStepPush;  // the blocks: shaders/cloth/cloth_push.h
using ProjectPush = push::ClothProjectPush;
using NormalsPush = push::ClothNormalsPush;
using StatsPush = push::ClothStatsPush;
struct Part {
  float max_stretch, sum_sq, kinetic, min_y, min_gap;
  uint32_t bad;
  float sum_abs, max_y;
};

void sync(VkCommandBuffer cmd) {
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
               VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

}  // namespace

void check(const Config& c) {
  if (c.width < 8 || c.height < 8) throw std::invalid_argument("cloth: at least 8 x 8 particles");
  if (!(c.size > 0) || !(c.dt > 0) || !std::isfinite(c.dt))
    throw std::invalid_argument("cloth: size and dt must be positive");
  if (!(c.damping >= 0 && c.damping <= 1)) throw std::invalid_argument("cloth: damping d must lie in [0, 1]");
  if (!(c.stiffness > 0 && c.stiffness <= 1)) throw std::invalid_argument("cloth: stiffness must lie in (0, 1]");
  if (c.iterations < 1 || c.iterations > 1000) throw std::invalid_argument("cloth: 1 to 1000 relaxations a step");
  if (c.substeps < 1 || c.substeps > 64) throw std::invalid_argument("cloth: 1 to 64 substeps a step");
  if (!(c.thickness >= 0 && c.thickness < 1)) throw std::invalid_argument("cloth: thickness must lie in [0, 1) m");
  if (!(c.friction >= 0 && c.friction <= 10)) throw std::invalid_argument("cloth: friction must lie in [0, 10]");
  if (c.tile > 4096) throw std::invalid_argument("cloth: a tile of at most 4096 cells a side (0: automatic)");
  if (c.tile_relaxations > kMaxTileRelaxations)
    throw std::invalid_argument("cloth: at most " + std::to_string(kMaxTileRelaxations) +
                                " relaxations a tile dispatch (0: automatic)");
  if (c.method == Method::ShiftMatrices) ShiftPath::check(c);
}

// Bend springs' neighbours lie two cells away: their borders are 2 wide.
std::vector<Region> regions(const Config& c) {
  if (c.branching == Branching::Branching) return {{0, 0, c.width, c.height, 15}};
  uint32_t m = c.bend ? 2 : 1, W = c.width, H = c.height;
  return {
      {m, m, W - 2 * m, H - 2 * m, 0}, {0, m, m, H - 2 * m, 1}, {W - m, m, m, H - 2 * m, 2}, {m, 0, W - 2 * m, m, 4},
      {m, H - m, W - 2 * m, m, 8},     {0, 0, m, m, 5},         {W - m, 0, m, m, 6},         {0, H - m, m, m, 9},
      {W - m, H - m, m, m, 10}};
}

Config Config::thesis() {
  Config c;
  c.iterations = 3;
  c.substeps = 1;
  c.shear = false;
  c.thickness = 0.0f;
  c.friction = 0.0f;
  c.attachments = false;
  c.order = Order::Jacobi;
  c.method = Method::Kernels;
  c.correction = Correction::Thesis;
  c.stiffness = 0.5f;  // the thesis prints none; from 0.6 its correction blows up on the sphere (help.md)
  return c;
}

float Config::substep_damping() const { return substeps == 1 ? damping : std::pow(damping, 1.0f / float(substeps)); }

std::vector<Family> families(const Config& c) {
  std::vector<Family> f = {{1, 0, 1.0f, 2, false}, {0, 1, 1.0f, 2, true}};
  if (c.shear) f.push_back({1, 1, 1.41421356f, 2, false}), f.push_back({-1, 1, 1.41421356f, 2, false});
  if (c.bend) f.push_back({2, 0, 2.0f, 4, false}), f.push_back({0, 2, 2.0f, 4, true});
  return f;
}

uint32_t corner_index(const Config& c, int k) {
  return uint32_t(k & 1) * (c.width - 1) + uint32_t(k >> 1) * (c.height - 1) * c.width;
}

std::vector<glm::vec4> initial_positions(const Config& c, const std::string& pose) {
  std::vector<glm::vec4> p(c.n());
  float r = c.rest();
  for (uint32_t y = 0; y < c.height; ++y)
    for (uint32_t x = 0; x < c.width; ++x) {
      float u = float(x) * r - 0.5f * c.size, v = float(y) * r;
      p[size_t(y) * c.width + x] =
          pose == "drape" ? glm::vec4(u, 0.9f, v - 0.5f * c.size, 1.0f) : glm::vec4(u, 1.0f - v, 0.6f, 1.0f);
    }
  if (pose != "drape" && pose != "hang") throw std::invalid_argument("cloth: unknown pose '" + pose + "'");
  return p;
}

Simulation::Simulation(gpu::Context& ctx, const Config& cfg) : config(cfg), ctx_(ctx) {
  check(cfg);
  std::string what = "cloth of " + std::to_string(cfg.width) + " x " + std::to_string(cfg.height) + " particles";
  gpu::require_buffer(ctx, 16ull * cfg.n(), what);
  gpu::require_memory(ctx, 6 * 16ull * cfg.n(), what);
  VkBufferUsageFlags usage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  for (auto& b : x_) b = gpu::Buffer(ctx, 16ull * cfg.n(), usage);
  normals_ = gpu::Buffer(ctx, 16ull * cfg.n(), usage);
  stats_ = gpu::Buffer(ctx, 64 + sizeof(Part) * (kStatsGroups + 1), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
  verlet_ = gpu::make_compute(ctx, "cloth/verlet.comp", sizeof(StepPush));
  normals_pipe_ = gpu::make_compute(ctx, "cloth/normals.comp", sizeof(NormalsPush));
  stats_pipe_ = gpu::make_compute(ctx, "cloth/stats.comp", sizeof(StatsPush));
  project_ = gpu::make_compute(ctx, "cloth/project.comp", sizeof(ProjectPush));
  attach_ = gpu::make_compute(ctx, "cloth/attach.comp", sizeof(StepPush));
  for (int sides : {0, 1, 2, 4, 8, 5, 6, 9, 10, 15})
    relax_[sides] = gpu::make_compute(ctx, "cloth/relax.comp", sizeof(StepPush), {sides});
  tile_capacity_ = TilePath::shared_capacity(ctx);
  tile_groups_ = TilePath::spread_groups(ctx);
  validate(cfg);
  std::vector<glm::vec4> zero(cfg.n(), glm::vec4(0.0f));
  ctx.submit_now([&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, normals_.handle(), 0, VK_WHOLE_SIZE, 0); });
  auto p = initial_positions(cfg, "hang");
  set_state(p, p);
}

void Simulation::set_state(const std::vector<glm::vec4>& x, const std::vector<glm::vec4>& prev) {
  if (x.size() != config.n() || prev.size() != config.n()) throw std::invalid_argument("cloth: state size mismatch");
  if (!start_x_) {
    VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    start_x_ = gpu::Buffer(ctx_, 16ull * config.n(), usage);
    start_prev_ = gpu::Buffer(ctx_, 16ull * config.n(), usage);
  }
  start_x_.upload(x);
  start_prev_.upload(prev);
  inverse_mass_.resize(x.size());
  start_mass_.resize(x.size());
  for (size_t i = 0; i < x.size(); ++i) inverse_mass_[i] = start_mass_[i] = x[i].w;
  ++mass_version_;
  ctx_.submit_now([&](VkCommandBuffer cmd) {
    record_restart(cmd);
    record_stats(cmd);
  });
}

void Simulation::restore(const std::vector<glm::vec4>& x, const std::vector<glm::vec4>& prev) {
  if (x.size() != config.n() || prev.size() != config.n()) throw std::invalid_argument("cloth: state size mismatch");
  x_[cur_].upload(x);
  x_[prev_].upload(prev);
  for (size_t i = 0; i < x.size(); ++i) inverse_mass_[i] = x[i].w;
  ++mass_version_;
  ctx_.submit_now([&](VkCommandBuffer cmd) { record_stats(cmd); });
}

Simulation::~Simulation() = default;

void Simulation::set_inverse_mass(uint32_t i, float w) {
  if (inverse_mass_[i] != w) inverse_mass_[i] = w, ++mass_version_;
}

void Simulation::record_restart(VkCommandBuffer cmd) {
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  VkBufferCopy all{0, 0, 16ull * config.n()};
  vkCmdCopyBuffer(cmd, start_x_.handle(), x_[cur_].handle(), 1, &all);
  vkCmdCopyBuffer(cmd, start_prev_.handle(), x_[prev_].handle(), 1, &all);
  for (size_t i = 0; i < start_mass_.size(); ++i) set_inverse_mass(uint32_t(i), start_mass_[i]);  // and its pins
}

std::vector<glm::vec4> Simulation::positions() const { return x_[cur_].download<glm::vec4>(); }
std::vector<glm::vec4> Simulation::previous() const { return x_[prev_].download<glm::vec4>(); }

double Simulation::flops_per_step() const {
  double per_constraint = 14, constraints = 4 + (config.shear ? 4 : 0) + (config.bend ? 4 : 0);
  double attach = config.attachments ? 4 * 12 + 12 : 0;                     // 4 corners, then the contacts
  if (config.method == Method::ShiftMatrices) per_constraint += 2 * 2 * 4;  // its vector: 2 diagonals on 4 floats
  return config.n() * config.substeps * (8.0 + config.iterations * (per_constraint * constraints + 12 + attach));
}

// One push block for verlet, relax and attach (and the shift path's relaxation).
StepPush step_push(const Config& c) {
  StepPush p{};
  p.sphere[0] = c.sphere.x, p.sphere[1] = c.sphere.y, p.sphere[2] = c.sphere.z,
  p.sphere[3] = c.sphere_on ? c.sphere.w : 0.0f;
  p.width = c.width, p.height = c.height;
  p.rest = c.rest(), p.stiffness = c.relaxation_scale();
  p.springs = (c.shear ? 1u : 0u) | (c.bend ? 2u : 0u) | (c.correction == Correction::Thesis ? 4u : 0u);
  p.thickness = c.thickness, p.friction = c.friction;
  p.ground = c.ground_on ? c.ground : kNoGround;
  p.region[2] = c.width, p.region[3] = c.height;
  return p;
}

void Simulation::validate(const Config& c) const {
  check(c);
  if (c.width != config.width || c.height != config.height)
    throw std::invalid_argument("cloth: the size changes only by building the simulation again");
  if (c.tiled()) plan_tiles(c, tile_capacity_, tile_groups_);
}

TilePlan Simulation::tile_plan() const { return plan_tiles(config, tile_capacity_, tile_groups_); }

uint32_t Simulation::tile_invocations() const { return tiles_ ? tiles_->invocations(config, tile_plan()) : 0; }

double Simulation::tile_bytes_per_step() const {
  TilePlan t = tile_plan();
  double held = double(t.groups_x) * t.groups_y * t.held(config.width, config.height);
  double dispatches = t.dispatches_per_substep(config.iterations);
  return 16.0 * config.substeps * (held * (2 * dispatches + 1) + double(config.n()) * dispatches);
}

uint32_t Simulation::dispatches_per_step() const {
  if (config.tiled()) return config.substeps * tile_plan().dispatches_per_substep(config.iterations) + 1;
  uint32_t verlet = config.method == Method::ShiftMatrices ? 6 : 1;  // shift: 2 copies and 3 axpbys, a copy after
  uint32_t relax = dispatches_per_relaxation() + (config.attachments && config.method != Method::ShiftMatrices);
  return config.substeps * (verlet + config.iterations * relax) + 1;
}

uint32_t Simulation::dispatches_per_relaxation() const {
  if (config.tiled()) {
    uint32_t d = tile_plan().dispatches_per_substep(config.iterations);
    return (d + config.iterations - 1) / config.iterations;
  }
  if (config.method == Method::ShiftMatrices) return 4 + (config.branching == Branching::Branching ? 1 : 9);
  if (config.order == Order::Jacobi) return config.branching == Branching::Branching ? 1 : 9;
  uint32_t n = 0;
  for (auto& f : families(config)) n += f.stride;
  return user_colours_ && (config.sphere_on || config.ground_on) ? 2 * n : n;  // the user's, then the contacts
}

// The relaxations read the step's start (x_[cur_], untouched until the step ends) for friction.
void Simulation::record_relax(VkCommandBuffer cmd, const gpu::Buffer& in, const gpu::Buffer& out) {
  StepPush p = step_push(config);
  for (auto& r : regions(config)) {
    if (r.w == 0 || r.h == 0) continue;
    sync(cmd);  // each sub-stream is its own pass: Vulkan orders writes to one buffer only through barriers
    p.region[0] = r.x0, p.region[1] = r.y0, p.region[2] = r.w, p.region[3] = r.h;
    relax_[r.sides].bind(cmd, {gpu::storage_buffer(in), gpu::storage_buffer(out), gpu::storage_buffer(x_[cur_])}, p);
    relax_[r.sides].dispatch(cmd, r.w, r.h);
  }
}

void Simulation::record_project(VkCommandBuffer cmd, const gpu::Buffer& x) {
  const auto& c = config;
  for (auto& f : families(c))
    for (uint32_t phase = 0; phase < f.stride; ++phase) {
      sync(cmd);
      ProjectPush p{.sphere = {c.sphere.x, c.sphere.y, c.sphere.z, c.sphere_on ? c.sphere.w : 0.0f},
                    .width = c.width,
                    .height = c.height,
                    .len = f.factor * c.rest(),
                    .stiffness = c.stiffness,
                    .dx = f.dx,
                    .dy = f.dy,
                    .stride = f.stride,
                    .phase = phase,
                    .along_y = f.along_y ? 1u : 0u,
                    .ground = c.ground_on ? c.ground : kNoGround,
                    .thickness = c.thickness,
                    .friction = c.friction};
      std::vector<gpu::Bind> binds = {gpu::storage_buffer(x), gpu::storage_buffer(x_[cur_])};
      uint32_t nx = f.along_y ? c.width : (c.width - phase + f.stride - 1) / f.stride;
      uint32_t ny = f.along_y ? (c.height - phase + f.stride - 1) / f.stride : c.height;
      if (user_colours_) {  // the user's springs, then project.comp's contacts alone (use_colours())
        user_colours_->bind(cmd, binds, &p, sizeof p);
        user_colours_->dispatch(cmd, nx, ny);
        if (!c.sphere_on && !c.ground_on) continue;
        sync(cmd);
        p.stiffness = 0.0f;
      }
      project_.bind(cmd, binds, p);
      project_.dispatch(cmd, nx, ny);
    }
}

void Simulation::record_attach(VkCommandBuffer cmd, const gpu::Buffer& x) {
  sync(cmd);
  attach_.bind(cmd, {gpu::storage_buffer(x), gpu::storage_buffer(x_[cur_])}, step_push(config));
  attach_.dispatch(cmd, config.n());
}

void Simulation::record_steps(VkCommandBuffer cmd, gpu::Profiler* prof, uint32_t n) {
  const auto& c = config;
  float h = c.substep_dt(), dt2 = h * h;
  for (uint32_t s = 0; s < n; ++s) {
    uint32_t scope = prof ? prof->begin(cmd, "cloth.step", bytes_per_step(), flops_per_step()) : 0;
    for (uint32_t sub = 0; sub < c.substeps; ++sub) {
      int work[2], k = 0;
      for (int i = 0; i < 4; ++i)
        if (i != cur_ && i != prev_) work[k++] = i;
      if (c.tiled()) {
        if (!tiles_) tiles_ = std::make_unique<TilePath>(ctx_);
        phase_ += h * 3.0f;
        const gpu::Buffer* work_buffers[2] = {&x_[work[0]], &x_[work[1]]};
        int result = tiles_->record_substep(cmd, c, phase_, x_[cur_], x_[prev_], normals_, work_buffers);
        prev_ = cur_;
        cur_ = work[result];
        continue;
      }
      if (c.method == Method::ShiftMatrices) {
        if (!shift_) shift_ = std::make_unique<ShiftPath>(ctx_, c);
        shift_->record_substep(cmd, c, x_[cur_], x_[prev_], x_[work[0]], inverse_mass_, mass_version_);
        prev_ = cur_;
        cur_ = work[0];
        continue;
      }
      sync(cmd);
      phase_ += h * 3.0f;
      StepPush p = step_push(c);
      for (int i = 0; i < 3; ++i) p.gravity_dt2[i] = c.gravity[i] * dt2, p.wind_dt2[i] = c.wind[i] * dt2;
      p.gravity_dt2[3] = c.substep_damping();
      p.wind_dt2[3] = phase_;
      verlet_.bind(cmd,
                   {gpu::storage_buffer(x_[cur_]), gpu::storage_buffer(x_[prev_]), gpu::storage_buffer(normals_),
                    gpu::storage_buffer(x_[work[0]])},
                   p);
      verlet_.dispatch(cmd, c.n());
      int result = work[0];
      for (uint32_t it = 0; it < c.iterations; ++it) {
        if (c.order == Order::GaussSeidel) {
          record_project(cmd, x_[result]);
        } else {
          int other = result == work[0] ? work[1] : work[0];
          record_relax(cmd, x_[result], x_[other]);
          result = other;
        }
        if (c.attachments) record_attach(cmd, x_[result]);
      }
      prev_ = cur_;
      cur_ = result;
    }
    sync(cmd);
    normals_pipe_.bind(cmd, {gpu::storage_buffer(x_[cur_]), gpu::storage_buffer(normals_)},
                       NormalsPush{.width = c.width, .height = c.height});
    normals_pipe_.dispatch(cmd, c.n());
    if (prof) prof->end(cmd, scope);
    ++steps_;
  }
  record_stats(cmd);
}

void Simulation::record_stats(VkCommandBuffer cmd) {
  const auto& c = config;
  for (uint32_t pass = 0; pass < 2; ++pass) {
    sync(cmd);
    StatsPush p{.sphere = {c.sphere.x, c.sphere.y, c.sphere.z, c.sphere_on ? c.sphere.w : 0.0f},
                .width = c.width,
                .height = c.height,
                .rest = c.rest(),
                .inv_dt2 = 1.0f / (c.substep_dt() * c.substep_dt()),
                .pass_index = pass,
                .groups = kStatsGroups};
    stats_pipe_.bind(cmd, {gpu::storage_buffer(x_[cur_]), gpu::storage_buffer(x_[prev_]), gpu::storage_buffer(stats_)},
                     p);
    vkCmdDispatch(cmd, pass == 0 ? kStatsGroups : 1, 1, 1);
  }
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_2_HOST_BIT,
               VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_HOST_READ_BIT);
}

void Simulation::record_hold(VkCommandBuffer cmd, uint32_t i, glm::vec3 p) {
  sync(cmd);
  glm::vec4 v(p, 0.0f);
  set_inverse_mass(i, 0.0f);
  vkCmdUpdateBuffer(cmd, x_[cur_].handle(), 16ull * i, 16, &v);
  vkCmdUpdateBuffer(cmd, x_[prev_].handle(), 16ull * i, 16, &v);  // held still: no velocity
}

void Simulation::record_pin(VkCommandBuffer cmd, uint32_t i, bool pinned) {
  sync(cmd);
  float w = pinned ? 0.0f : 1.0f;
  set_inverse_mass(i, w);
  if (pinned) {  // held where it is, still: x* = x (the shift path's Verlet then keeps it in place)
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                 VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
    VkBufferCopy one{16ull * i, 16ull * i, 16};
    vkCmdCopyBuffer(cmd, x_[cur_].handle(), x_[prev_].handle(), 1, &one);
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                 VK_ACCESS_2_TRANSFER_WRITE_BIT);
  }
  vkCmdUpdateBuffer(cmd, x_[cur_].handle(), 16ull * i + 12, 4, &w);
  vkCmdUpdateBuffer(cmd, x_[prev_].handle(), 16ull * i + 12, 4, &w);  // x* too: the shift path's Verlet keeps w
}

Stats Simulation::last_stats() const {
  Stats s;
  auto* base = static_cast<const char*>(stats_.mapped());
  std::memcpy(s.corners.data(), base, 64);
  Part part;
  std::memcpy(&part, base + 64 + sizeof(Part) * kStatsGroups, sizeof part);
  s.max_stretch = part.max_stretch;
  float edges = float(2 * config.n() - config.width - config.height);
  s.rms_stretch = std::sqrt(part.sum_sq / edges);
  s.mean_stretch = part.sum_abs / edges;
  s.max_y = part.max_y;
  s.kinetic = part.kinetic;
  s.min_y = part.min_y;
  s.min_sphere_gap = part.min_gap;
  s.non_finite = part.bad;
  return s;
}

Stats Simulation::stats() {
  ctx_.submit_now([&](VkCommandBuffer cmd) { record_stats(cmd); });
  return last_stats();
}

}  // namespace cloth
