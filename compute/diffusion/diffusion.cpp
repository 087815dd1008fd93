#include "compute/diffusion/diffusion.h"

#include "compute/linalg/fields.h"
#include "shaders/diffusion/diffusion_push.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace diffusion {

namespace {

using StepPush = push::DiffusionStepPush;  // the blocks: shaders/diffusion/diffusion_push.h
using PaintPush = push::DiffusionPaintPush;
using StatsPush = push::DiffusionStatsPush;

constexpr uint32_t kStatsGroups = 256;  // first pass: this many partial results

// Paint touches cells within 3 radii (exp(-9) of the peak is below float noise for heat).
constexpr float kPaintReach = 3.0f;

}  // namespace

void step_cpu(const Config& c, const std::vector<float>& in, std::vector<float>& out) {
  const int w = int(c.width), h = int(c.height);
  const float k = c.cd / 4.0f;
  const bool insulated = c.boundary == Boundary::Insulated;
  out.resize(in.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float t = in[size_t(y) * w + x];
      auto at = [&](int xx, int yy) {
        if (xx < 0 || yy < 0 || xx >= w || yy >= h) return insulated ? t : 0.0f;
        return in[size_t(yy) * w + xx];
      };
      float lap = (at(x - 1, y) + at(x + 1, y)) + (at(x, y - 1) + at(x, y + 1)) - 4.0f * t;
      out[size_t(y) * w + x] = t + k * lap;
    }
}

void steps_cpu(const Config& c, std::vector<float>& field, uint32_t n) {
  std::vector<float> tmp(field.size());
  for (uint32_t i = 0; i < n; ++i) {
    step_cpu(c, field, tmp);
    field.swap(tmp);
  }
}

void paint_cpu(const Config& c, std::vector<float>& field, float cx, float cy, float radius, float amount) {
  for (uint32_t y = 0; y < c.height; ++y)
    for (uint32_t x = 0; x < c.width; ++x) {
      float dx = float(x) + 0.5f - cx, dy = float(y) + 0.5f - cy;
      float d2 = dx * dx + dy * dy;
      if (d2 > kPaintReach * kPaintReach * radius * radius) continue;
      float& v = field[size_t(y) * c.width + x];
      float nv = v + amount * std::exp(-d2 / (radius * radius));
      v = amount < 0.0f ? std::max(nv, std::min(v, 0.0f)) : nv;
    }
}

Stats stats_cpu(const std::vector<float>& field) {
  Stats s;
  s.min = INFINITY;
  s.max = -INFINITY;
  double sum = 0;
  for (float v : field) {
    if (!std::isfinite(v)) {
      s.non_finite++;
      continue;
    }
    sum += v;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
  }
  s.sum = float(sum);
  return s;
}

const std::vector<std::string>& presets() { return linalg::grid_field_names(); }

std::vector<float> initial_field(const Config& c, const std::string& preset, uint32_t seed) {
  return linalg::grid_field(c.width, c.height, preset, seed);
}

Simulation::Simulation(gpu::Context& ctx, const Config& cfg) : config(cfg), ctx_(ctx) {
  std::string grid = "diffusion grid " + std::to_string(cfg.width) + "x" + std::to_string(cfg.height);
  if (cfg.width < 2 || cfg.height < 2 || cfg.width > kMaxSide || cfg.height > kMaxSide)
    throw std::invalid_argument(grid + " is outside 2.." + std::to_string(kMaxSide));
  uint64_t bytes = uint64_t(cfg.width) * cfg.height * sizeof(float);
  gpu::require_buffer(ctx, bytes, grid, true);
  gpu::require_memory(ctx, 2 * bytes, grid);
  for (auto& f : fields_)
    f = gpu::Buffer(
        ctx, bytes,
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  // Widths that are a multiple of 4: a quad an invocation (step_quads.comp).
  if (cfg.width % 4)
    step_ = gpu::make_compute(ctx, "diffusion/step.comp", sizeof(StepPush));
  else
    set_step_shape(kStepShape);
  paint_ = gpu::make_compute(ctx, "diffusion/paint.comp", sizeof(PaintPush));
  stats_ = gpu::make_compute(ctx, "diffusion/stats.comp", sizeof(StatsPush));
  partials_ = gpu::Buffer(ctx, (kStatsGroups + 1) * sizeof(Stats), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
}

void Simulation::set_step_shape(StepShape shape) {
  if (config.width % 4) throw std::logic_error("diffusion: the quad kernel's shape on a width not a multiple of 4");
  shape_ = shape;
  step_ = gpu::make_compute(ctx_, "diffusion/step_quads.comp", sizeof(StepPush),
                            {int32_t(shape.across), int32_t(shape.down), int32_t(shape.rows)});
}

void Simulation::upload(const std::vector<float>& field) {
  if (field.size() != size_t(config.width) * config.height)
    throw std::invalid_argument("diffusion: a field of " + std::to_string(field.size()) + " values for a " +
                                std::to_string(config.width) + "x" + std::to_string(config.height) + " grid");
  fields_[current_].upload(field);
}

std::vector<float> Simulation::download() const {
  std::vector<float> v(size_t(config.width) * config.height);
  fields_[current_].download(v.data(), v.size() * sizeof(float));
  return v;
}

void Simulation::record_steps(VkCommandBuffer cmd, gpu::Profiler* prof, uint32_t n) {
  if (n == 0) return;
  StepPush push{.size = glm::ivec2(config.width, config.height),
                .k = config.cd / 4.0f,
                .insulated = config.boundary == Boundary::Insulated ? 1 : 0};
  uint32_t scope =
      prof ? prof->begin(cmd, "diffusion.step", n * bytes_per_step(config), n * flops_per_step(config)) : 0;
  // Earlier readers (last frame's draw) and writers of both fields finish first.
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
               VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  for (uint32_t i = 0; i < n; ++i) {
    if (i > 0)
      gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    std::vector<gpu::Bind> binds = {gpu::storage_buffer(fields_[current_]), gpu::storage_buffer(fields_[1 - current_])};
    if (user_step_) {  // the user's kernel: a cell an invocation
      user_step_->bind(cmd, binds, &push, sizeof push);
      user_step_->dispatch(cmd, config.width, config.height);
    } else {
      step_.bind(cmd, binds, push);
      step_.dispatch(cmd, config.width % 4 ? config.width : config.width / 4,
                     config.width % 4 ? config.height : (config.height + shape_.rows - 1) / shape_.rows);
    }
    current_ = 1 - current_;
  }
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT);
  if (prof) prof->end(cmd, scope);
}

void Simulation::record_paint(VkCommandBuffer cmd, gpu::Profiler* prof, float cx, float cy, float radius,
                              float amount) {
  if (!(radius > 0.0f) || !std::isfinite(cx) || !std::isfinite(cy) || !std::isfinite(amount)) return;
  int reach = int(std::ceil(kPaintReach * radius)) + 1;
  int x0 = std::clamp(int(cx) - reach, 0, int(config.width)), x1 = std::clamp(int(cx) + reach, 0, int(config.width));
  int y0 = std::clamp(int(cy) - reach, 0, int(config.height)), y1 = std::clamp(int(cy) + reach, 0, int(config.height));
  if (x1 <= x0 || y1 <= y0) return;
  PaintPush push{.size = glm::ivec2(config.width, config.height),
                 .origin = glm::ivec2(x0, y0),
                 .center = glm::vec2(cx, cy),
                 .radius = radius,
                 .amount = amount};
  double cells = double(x1 - x0) * (y1 - y0);
  uint32_t scope = prof ? prof->begin(cmd, "diffusion.paint", 8.0 * cells, 10.0 * cells) : 0;
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
               VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  paint_.bind(cmd, {gpu::storage_buffer(fields_[current_])}, push);
  paint_.dispatch(cmd, uint32_t(x1 - x0), uint32_t(y1 - y0));
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT);
  if (prof) prof->end(cmd, scope);
}

void Simulation::record_stats(VkCommandBuffer cmd, gpu::Profiler* prof) {
  double cells = double(config.width) * config.height;
  uint32_t scope = prof ? prof->begin(cmd, "diffusion.stats", 4.0 * cells, 4.0 * cells) : 0;
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
               VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  for (uint32_t pass = 0; pass < 2; ++pass) {
    if (pass == 1)
      gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    StatsPush push{.size = glm::ivec2(config.width, config.height), .pass_index = pass, .groups = kStatsGroups};
    stats_.bind(cmd, {gpu::storage_buffer(fields_[current_]), gpu::storage_buffer(partials_)}, push);
    vkCmdDispatch(cmd, pass == 0 ? kStatsGroups : 1, 1, 1);
  }
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
               VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
  if (prof) prof->end(cmd, scope);
}

Stats Simulation::last_stats() const {
  Stats s;
  partials_.download(&s, sizeof s, kStatsGroups * sizeof(Stats));
  return s;
}

Stats Simulation::stats() {
  ctx_.submit_now([&](VkCommandBuffer cmd) { record_stats(cmd, nullptr); });
  return last_stats();
}

}  // namespace diffusion
