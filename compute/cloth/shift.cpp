#include "compute/cloth/shift.h"

namespace cloth {

namespace {

// A(dx, dy) on the 4n-float vector: row i gives p(neighbour) − p(i), a particle a quad, so
// the neighbour's diagonal sits 4·(dx + dy·width) away. No border case (the thesis's choice).
linalg::BandedMatrix shift_matrix(const Config& c, int dx, int dy) {
  linalg::BandedMatrix m;
  m.n = 4 * c.n();
  m.diagonals[0].assign(m.n, -1.0f);
  m.diagonals[4 * (dx + dy * int(c.width))].assign(m.n, 1.0f);
  return m;
}

void all_memory_barrier(VkCommandBuffer cmd) {
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
}

void copy(VkCommandBuffer cmd, const gpu::Buffer& from, const gpu::Buffer& to, VkDeviceSize bytes) {
  all_memory_barrier(cmd);
  VkBufferCopy all{0, 0, bytes};
  vkCmdCopyBuffer(cmd, from.handle(), to.handle(), 1, &all);
}
}  // namespace

void ShiftPath::check(const Config& c) {
  if (c.order != Order::Jacobi || c.shear || c.bend || c.attachments || c.wind != glm::vec3(0.0f))
    throw std::invalid_argument(
        "cloth: the thesis's shift matrices carry its 4 structural springs, relaxed by Jacobi, with gravity alone: "
        "set order jacobi, shear and bend off, attachments off and no wind (preset cloth/thesis-shift)");
}

ShiftPath::ShiftPath(gpu::Context& ctx, const Config& c)
    : ctx_(ctx),
      width_(c.width),
      height_(c.height),
      ops_(ctx, linalg::Layout::Buffer),
      pos_(ctx, 4 * c.n(), linalg::Layout::Buffer),
      prev_(ctx, 4 * c.n(), linalg::Layout::Buffer),
      temp_(ctx, 4 * c.n(), linalg::Layout::Buffer),
      accel_(ctx, 4 * c.n(), linalg::Layout::Buffer),
      other_(ctx, 4 * c.n(), linalg::Layout::Buffer) {
  for (auto [dx, dy] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
    shifts_.emplace_back(ctx, shift_matrix(c, dx, dy), linalg::Layout::Buffer);
    diff_.emplace_back(ctx, 4 * c.n(), linalg::Layout::Buffer);
  }
  for (int sides : {0, 1, 2, 4, 8, 5, 6, 9, 10, 15})
    relax_[sides] = gpu::make_compute(ctx, "cloth/shift_relax.comp", sizeof(push::ClothStepPush), {sides});
}

uint32_t ShiftPath::dispatches_per_relaxation(const Config& c) const {
  return 4 + (c.branching == Branching::Branching ? 1 : 9);
}

void ShiftPath::record_substep(VkCommandBuffer cmd, const Config& c, const gpu::Buffer& x, const gpu::Buffer& prev,
                               const gpu::Buffer& out, const std::vector<float>& w, uint64_t version) {
  check(c);
  if (c.width != width_ || c.height != height_) throw std::invalid_argument("cloth: the shift path's size changed");
  float h = c.substep_dt(), d = c.substep_damping();
  glm::vec3 a = c.gravity * (h * h);
  if (version != accel_version_ || a != accel_of_) {  // the thesis's uniform field a, none on pinned particles
    std::vector<float> field(4 * size_t(c.n()), 0.0f);
    for (size_t i = 0; i < c.n(); ++i)
      if (w[i] != 0.0f) field[4 * i] = a.x, field[4 * i + 1] = a.y, field[4 * i + 2] = a.z;
    accel_.upload(field);
    accel_version_ = version, accel_of_ = a;
  }
  VkDeviceSize bytes = 16ull * c.n();
  copy(cmd, x, pos_.buffer(), bytes);
  copy(cmd, prev, prev_.buffer(), bytes);
  ops_.axpby(cmd, {1.0f}, pos_, {0.0f}, pos_, temp_);    // 1  temp = pos
  ops_.axpby(cmd, {1.0f + d}, pos_, {-d}, prev_, pos_);  // 2  pos = (1 + damp)·pos − damp·pos*
  ops_.axpby(cmd, {1.0f}, pos_, {1.0f}, accel_, pos_);   // 3  pos = pos + a·Δt²
  auto p = step_push(c);
  const linalg::Vec* in = &pos_;
  const linalg::Vec* result = &other_;
  for (uint32_t k = 0; k < c.iterations; ++k) {  // 4
    for (size_t s = 0; s < 4; ++s)
      ops_.banded(cmd, linalg::Variant::Modern, shifts_[s], *in, nullptr, diff_[s], 1.0f, 0.0f);  // 5-8
    for (auto& r : regions(c)) {  // 9  gpuVerlet, sub-stream by sub-stream
      if (r.w == 0 || r.h == 0) continue;
      all_memory_barrier(cmd);
      p.region[0] = r.x0, p.region[1] = r.y0, p.region[2] = r.w, p.region[3] = r.h;
      relax_[r.sides].bind(cmd,
                           {in->bind(), diff_[0].bind(), diff_[1].bind(), diff_[2].bind(), diff_[3].bind(),
                            temp_.bind(), result->bind()},
                           p);
      relax_[r.sides].dispatch(cmd, r.w, r.h);
    }
    std::swap(in, result);
  }
  copy(cmd, in->buffer(), out, bytes);
  all_memory_barrier(cmd);
}

}  // namespace cloth
