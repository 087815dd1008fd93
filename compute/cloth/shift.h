// The cloth as Bleton 2005 wrote it (§4.1.2): 'VERLET SUR GPU' through the linear algebra
// lab's operators. Positions are one vector of 4n floats (a particle a quad); Verlet is two
// gpuVecAdd (axpby) calls; each relaxation multiplies the positions by the 4 shift matrices
// A(1,0), A(−1,0), A(0,1), A(0,−1) — banded, two diagonals each — to get every particle's
// vector to each neighbour, then 'gpuVerlet' moves the particles by those vectors (its
// interior, edge and corner sub-streams skip the neighbours a border removes).
//
// The thesis prints A(1,0) with +1 on the diagonal and −1 towards the neighbour (self −
// neighbour); its constraint code needs neighbour − self, which these matrices give. Like the
// thesis's, they ignore the borders: a row's last particle "sees" the next row's first, and
// the sub-streams leave that vector unread. Structural springs only (the thesis's 4
// neighbours), Jacobi; the result equals the kernels' (Simulation's own path) within float
// rounding.
#pragma once
#include "compute/cloth/cloth.h"
#include "compute/linalg/ops.h"
#include "shaders/cloth/cloth_push.h"

namespace cloth {

push::ClothStepPush step_push(const Config& c);  // cloth.cpp: verlet, relax and attach share it

class ShiftPath {
 public:
  ShiftPath(gpu::Context& ctx, const Config& c);
  // One substep from x (positions) and prev (x*) into out, lines 1-10 of 'VERLET SUR GPU'
  // (line 11, x* ← temp, is the caller's rotation). `inverse_mass` is every particle's w
  // (0: pinned, moved by nothing); `version` changes whenever it does.
  void record_substep(VkCommandBuffer cmd, const Config& c, const gpu::Buffer& x, const gpu::Buffer& prev,
                      const gpu::Buffer& out, const std::vector<float>& inverse_mass, uint64_t version);
  static void check(const Config& c);  // throws std::invalid_argument if the thesis's path cannot run it
  uint32_t dispatches_per_relaxation(const Config& c) const;

 private:
  gpu::Context& ctx_;
  uint32_t width_, height_;
  linalg::Ops ops_;
  std::vector<linalg::GpuBanded> shifts_;  // A(1,0), A(−1,0), A(0,1), A(0,−1)
  linalg::Vec pos_, prev_, temp_, accel_, other_;
  std::vector<linalg::Vec> diff_;
  gpu::Pipeline relax_[16];  // by SIDES, as relax.comp
  uint64_t accel_version_ = ~0ull;
  glm::vec3 accel_of_{0.0f};
};

}  // namespace cloth
