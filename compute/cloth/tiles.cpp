#include "compute/cloth/tiles.h"

#include "shaders/cloth/cloth_push.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace cloth {

uint32_t reach_per_relaxation(const Config& c) {
  uint32_t along_x = 0, along_y = 0;
  for (auto& f : families(c))
    along_x += f.stride * uint32_t(std::abs(f.dx)), along_y += f.stride * uint32_t(std::abs(f.dy));
  return std::max(along_x, along_y);
}

TilePlan plan_tiles(const Config& c, uint32_t capacity, uint32_t min_groups) {
  if (c.tile_relaxations > kMaxTileRelaxations)
    throw std::invalid_argument("cloth: at most " + std::to_string(kMaxTileRelaxations) +
                                " relaxations a tile dispatch");
  TilePlan p;
  bool one_tile = c.tile == 0 ? c.n() <= capacity : c.tile >= c.width && c.tile >= c.height;
  if (one_tile) {
    if (c.n() > capacity)
      throw std::invalid_argument("cloth: " + std::to_string(c.width) + " x " + std::to_string(c.height) +
                                  " particles do not fit in one workgroup's shared memory (" +
                                  std::to_string(capacity) + " particles): set a smaller tile (0: automatic)");
    p.tile_w = c.width, p.tile_h = c.height, p.groups_x = p.groups_y = 1;
    p.relaxations = std::min(c.iterations, c.tile_relaxations ? c.tile_relaxations : kMaxTileRelaxations);
    return p;
  }
  uint32_t side = uint32_t(std::sqrt(double(capacity)));  // the largest square region that fits
  while ((side + 1) * (side + 1) <= capacity) ++side;
  while (side * side > capacity) --side;
  uint32_t reach = reach_per_relaxation(c);
  auto groups = [&](uint32_t t) { return ((c.width + t - 1) / t) * ((c.height + t - 1) / t); };
  // Automatic: the largest tiles, as little work done twice as can be, unless they leave fewer
  // than min_groups workgroups; then 2 relaxations a dispatch (half the launches) where a tile
  // fits beside that halo, and tiles as large as still give min_groups, if not kMinAutoTile.
  uint32_t k = c.tile_relaxations ? c.tile_relaxations : 1;
  bool automatic = c.tile == 0;
  if (automatic && c.tile_relaxations == 0 && side > 2 * reach && groups(side - 2 * reach) < min_groups &&
      side >= 4 * reach + kMinAutoTile)
    k = 2;
  p.relaxations = std::min(c.iterations, k);
  p.halo = p.relaxations * reach;
  uint32_t tile = c.tile ? c.tile : (side > 2 * k * reach ? side - 2 * k * reach : 0);
  if (automatic)
    while (tile > kMinAutoTile && groups(tile) < min_groups) --tile;
  uint32_t region = tile + 2 * p.halo;
  if (tile == 0 || region * region > capacity)
    throw std::invalid_argument("cloth: a tile of " + std::to_string(tile) + " cells a side with its halo of " +
                                std::to_string(p.halo) + " (" + std::to_string(p.relaxations) +
                                " relaxations a dispatch) needs " + std::to_string(region) +
                                "² particles, more than "
                                "the " +
                                std::to_string(capacity) +
                                " one workgroup's shared memory holds: set a smaller tile or fewer relaxations a tile "
                                "dispatch (0: automatic)");
  p.tile_w = p.tile_h = tile;
  p.groups_x = (c.width + tile - 1) / tile, p.groups_y = (c.height + tile - 1) / tile;
  return p;
}

namespace {
constexpr uint32_t kBytesPerParticle = 28;  // tiles.comp's shared arrays: x, y, z, w and x0's x, y, z
constexpr uint32_t kCornerBytes = 64;       // and its 4 corners

// Each tile dispatch reads what the previous one wrote, halos included.
void tile_barrier(VkCommandBuffer cmd) {
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
               VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}
}  // namespace

uint32_t TilePath::shared_capacity(const gpu::Context& ctx) {
  uint32_t bytes = ctx.props.limits.maxComputeSharedMemorySize;
  return std::min<uint32_t>((bytes - kCornerBytes) / kBytesPerParticle, 4096);  // tiles.comp's quotient()
}

uint32_t TilePath::spread_groups(const gpu::Context& ctx) {
  return ctx.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? 1 : kSpreadGroups;
}

TilePath::TilePath(gpu::Context& ctx) : ctx_(ctx), capacity_(shared_capacity(ctx)), groups_(spread_groups(ctx)) {
  const auto& limits = ctx.props.limits;
  max_rows_ = std::min({32u, limits.maxComputeWorkGroupInvocations / 32, limits.maxComputeWorkGroupSize[1]});
  per_invocation_ = ctx.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? 8 : 2;
}

uint32_t TilePath::invocations(const Config& c, const TilePlan& plan) const {
  uint32_t rows = 1;
  while (rows < max_rows_ && 32 * rows * per_invocation_ < plan.held(c.width, c.height)) rows *= 2;
  return 32 * rows;
}

int TilePath::record_substep(VkCommandBuffer cmd, const Config& c, float phase, const gpu::Buffer& x,
                             const gpu::Buffer& prev, const gpu::Buffer& normals, const gpu::Buffer* const work[2]) {
  TilePlan plan = this->plan(c);
  uint32_t rows = invocations(c, plan) / 32;
  auto& pipeline = pipelines_[rows];
  if (!pipeline)
    pipeline =
        gpu::make_compute(ctx_, "cloth/tiles.comp", sizeof(push::ClothTilesPush), {int32_t(capacity_), int32_t(rows)});
  float h = c.substep_dt(), dt2 = h * h;
  push::ClothTilesPush p{};
  for (int i = 0; i < 3; ++i) p.gravity_dt2[i] = c.gravity[i] * dt2, p.wind_dt2[i] = c.wind[i] * dt2;
  p.gravity_dt2[3] = c.substep_damping();
  p.wind_dt2[3] = phase;
  p.sphere = glm::vec4(glm::vec3(c.sphere), c.sphere_on ? c.sphere.w : 0.0f);
  p.width = c.width, p.height = c.height;
  p.rest = c.rest(), p.stiffness = c.stiffness;
  p.thickness = c.thickness, p.friction = c.friction, p.ground = c.ground_on ? c.ground : kNoGround;
  p.tile_w = plan.tile_w, p.tile_h = plan.tile_h, p.halo = plan.halo;
  p.rows = rows;
  uint32_t springs = (c.shear ? 2u : 0u) | (c.bend ? 4u : 0u) | (c.attachments ? 8u : 0u);
  int out = 0;
  const gpu::Buffer* in = &x;
  for (uint32_t done = 0; done < c.iterations; done += p.relaxations) {
    p.relaxations = std::min(plan.relaxations, c.iterations - done);
    p.flags = springs | (done == 0 ? 1u : 0u);
    tile_barrier(cmd);
    pipeline.bind(cmd,
                  {gpu::storage_buffer(x), gpu::storage_buffer(prev), gpu::storage_buffer(normals),
                   gpu::storage_buffer(*in), gpu::storage_buffer(*work[out])},
                  p);
    vkCmdDispatch(cmd, plan.groups_x, plan.groups_y, 1);
    in = work[out];
    out ^= 1;
  }
  return out ^ 1;
}

}  // namespace cloth
