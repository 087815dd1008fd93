// The lab's fast Gauss–Seidel (method = tiles, shaders/cloth/tiles.comp): at its defaults a
// step of the kernels path is some 550 dispatches of a few microseconds each (8 colours and
// the attachments, 10 relaxations, 6 substeps), each waiting for the last: launches, not work.
// Here a workgroup holds a tile of the cloth in shared memory and relaxes it colour after
// colour with a barrier between colours, the same colours in the same order, so the positions
// are the kernels' within float rounding.
//
// A workgroup holds its particles' positions, inverse masses and positions at the substep's
// start, 28 bytes a particle, so that a colour reads nothing else: 41² particles in the 48 KiB
// of an NVIDIA GPU, 34² in lavapipe's 32 KiB. A cloth that fits is one tile: a dispatch a
// substep, every relaxation in it. A bigger one is cut into tiles, each relaxed with a halo of
// cells around it that its workgroup relaxes too and throws away: a colour moves a particle by
// its partner only, at most one cell along an axis (two for bend springs), so a halo as wide as
// the colours of the dispatch's relaxations can carry a correction keeps the tile exact. A
// dispatch then does a few relaxations (two by default) and the workgroups exchange their
// tiles through memory.
#pragma once
#include "compute/cloth/cloth.h"

#include <algorithm>
#include <map>

namespace cloth {

constexpr uint32_t kMinAutoTile = 8;          // cells a side: no smaller when the tile is chosen for you
constexpr uint32_t kSpreadGroups = 64;        // workgroups the automatic tiles aim at on a GPU (an H100 has
                                              // 132 multiprocessors; measured best at 64² and 256², PERF.md)
constexpr uint32_t kMaxTileRelaxations = 32;  // a dispatch: keeps an invocation's loops short (lavapipe ends
                                              // loops after 65 535 iterations, all loops together)

struct TilePlan {
  uint32_t tile_w = 0, tile_h = 0;  // cells a workgroup writes
  uint32_t halo = 0;                // cells relaxed around its tile on each side, not written (0: one tile)
  uint32_t relaxations = 0;         // a dispatch; the last of a substep does the rest
  uint32_t groups_x = 0, groups_y = 0;
  uint32_t held(uint32_t width, uint32_t height) const {  // the most particles a workgroup holds
    return std::min(width, tile_w + 2 * halo) * std::min(height, tile_h + 2 * halo);
  }
  bool whole() const { return groups_x == 1 && groups_y == 1; }
  uint32_t dispatches_per_substep(uint32_t iterations) const { return (iterations + relaxations - 1) / relaxations; }
};

// Cells a relaxation's colours may carry a correction along x or y: Σ stride·|d| over the
// families, the larger of the two axes (6 with shear springs, 14 with bend springs too).
uint32_t reach_per_relaxation(const Config& c);
// The tiles for c when shared memory holds `capacity` particles: one tile if the cloth fits
// and c.tile does not ask for smaller ones; else tiles of side c.tile, c.tile_relaxations
// relaxations a dispatch (0: one). Chosen for you (0, 0): the largest tiles that fit beside a
// halo of one relaxation, unless those make fewer than `min_groups` workgroups (a GPU's
// multiprocessors left idle): then two relaxations a dispatch where they fit (half the
// launches) and smaller tiles, down to kMinAutoTile cells, until there are min_groups. Throws
// std::invalid_argument, saying why, when the asked tile and its halo do not fit.
TilePlan plan_tiles(const Config& c, uint32_t capacity, uint32_t min_groups = 1);

class TilePath {
 public:
  explicit TilePath(gpu::Context& ctx);
  static uint32_t shared_capacity(const gpu::Context& ctx);  // particles a workgroup holds on this device
  // Workgroups the automatic tiles aim at: kSpreadGroups on a GPU; one on a CPU (lavapipe),
  // where launches cost little and work done twice costs its time.
  static uint32_t spread_groups(const gpu::Context& ctx);
  TilePlan plan(const Config& c) const { return plan_tiles(c, capacity_, groups_); }
  // One substep: Verlet from x (the substep's start) and prev, then c.iterations relaxations,
  // a dispatch each plan().relaxations, into work[0], work[1], work[0]… (halos overlap: a
  // dispatch never writes what it reads). Returns the index in work of the result. `phase`:
  // the wind's gust phase.
  int record_substep(VkCommandBuffer cmd, const Config& c, float phase, const gpu::Buffer& x, const gpu::Buffer& prev,
                     const gpu::Buffer& normals, const gpu::Buffer* const work[2]);
  // Invocations a workgroup for a plan: about 2 particles each (32 a row, a power of two rows,
  // at most the device's limit and 1024): a small cloth does not pay for idle invocations.
  uint32_t invocations(const Config& c, const TilePlan& plan) const;

 private:
  gpu::Context& ctx_;
  uint32_t capacity_, groups_, max_rows_, per_invocation_;
  std::map<uint32_t, gpu::Pipeline> pipelines_;  // by rows of 32 invocations, made when first needed
};

}  // namespace cloth
