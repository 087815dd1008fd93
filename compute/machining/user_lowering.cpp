// The machining lab milling with the user's kernel of the exercise machining/atomic-lowering
// (Lab::use_kernel, app/labs/machining/): the kernel the checker ran on buffers of its own
// (compute/machining/exercise.cpp) here lowers the lab's stock, position after position of the
// tool path. The lab's buffers already hold the exercise's layouts: the stock's 32-bit keys row
// by row (H), the mesh tool's vertices as vec4 (TRI), the packed positions (POS, t then the
// rotation's rows); a dispatch takes a run of positions, POS bound from its first.
#include "compute/exercise/user_kernel.h"
#include "compute/machining/work.h"
#include "compute/machining/zbuffer.h"

#include <algorithm>
#include <stdexcept>

namespace machining {

namespace {

// The exercise's push block (the checker pushes the same).
struct UserLoweringPush {
  uint32_t nx, ny;
  float x0, y0, d;
  uint32_t tri_count, pos_count;
};

// The most invocations one dispatch of the kernel takes: kMaxGroups workgroups (work.h), or
// fewer where the device's limit is lower.
uint64_t user_lowering_invocations(const gpu::Context& ctx, const exercise::UserKernel& k) {
  uint64_t groups = std::min<uint64_t>(kMaxGroups, ctx.props.limits.maxComputeWorkGroupCount[0]);
  return groups * std::max(1u, k.local_size().x);
}

}  // namespace

std::string Machine::user_lowering_unfit(const exercise::UserKernel& k) const {
  if (stock_.nbuffer) return "the N-buffer's brins hold ray lengths along the surface's normal, not heights";
  if (stock_.f64) return "a double precision stock holds 64-bit keys: the exercise's brins are 32-bit keys";
  if (analytic_) return "an analytic tool has no triangles: the exercise's kernel lowers a triangle mesh's";
  if (k.interface().push_bytes != 0 && k.interface().push_bytes != sizeof(UserLoweringPush))
    return "its push constants are " + std::to_string(k.interface().push_bytes) + " bytes, not the exercise's " +
           std::to_string(sizeof(UserLoweringPush));
  const uint64_t align = std::max<uint64_t>(1, ctx_.props.limits.minStorageBufferOffsetAlignment);
  if (sizeof(PackedPosition) % align != 0)
    return "this device binds storage buffers at multiples of " + std::to_string(align) +
           " bytes: POS cannot start at any position (64 bytes each)";
  // The kernel loops over the brins under a placed triangle's box, rows by columns: within
  // half its loop budget, so that a compare-and-swap loop's retries have room too.
  const uint64_t loops = uint64_t(across_) * (across_ + 1) + 2;
  if (2 * loops > k.budget())
    return "a tool triangle spans up to " + std::to_string(across_) + " x " + std::to_string(across_) +
           " brins here: about " + std::to_string(loops) + " loop iterations an invocation, more than half the " +
           std::to_string(k.budget()) +
           " a kernel may loop on this device (fewer brins under a triangle: a wider spacing, less zoom or a finer "
           "tool)";
  if (triangles_ > user_lowering_invocations(ctx_, k))
    return "the tool's " + std::to_string(triangles_) + " triangles are more invocations than one dispatch takes";
  return "";
}

void Machine::record_user(VkCommandBuffer cmd, const exercise::UserKernel& k, uint32_t first, uint32_t count,
                          gpu::Profiler* prof, uint64_t most_pairs) {
  std::string unfit = user_lowering_unfit(k);
  if (!unfit.empty()) throw std::invalid_argument("your kernel cannot mill this stock: " + unfit);
  count = uint32_t(std::min<size_t>(count, path_size_ - std::min<size_t>(first, path_size_)));
  if (!count) return;
  const uint64_t T = triangles_;
  uint64_t pairs = user_lowering_invocations(ctx_, k);
  if (most_pairs) pairs = std::min(pairs, most_pairs);
  const uint64_t per_dispatch = std::max<uint64_t>(1, pairs / T);  // positions: every triangle at each
  uint32_t scope = prof ? prof->begin(cmd, "machining.your kernel", 0, 0, count) : 0;
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  for (uint64_t done = 0; done < count; done += per_dispatch) {
    if (done > 0)  // the next run of positions lowers brins this one lowered
      gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    const uint32_t n = uint32_t(std::min<uint64_t>(per_dispatch, count - done));
    gpu::Bind pos = gpu::storage_buffer(positions_);  // POS[0] is this run's first position
    pos.buffer.offset = (first + done) * sizeof(PackedPosition);
    pos.buffer.range = uint64_t(n) * sizeof(PackedPosition);
    UserLoweringPush p{.nx = stock_.nx,
                       .ny = stock_.ny,
                       .x0 = stock_.x0,
                       .y0 = stock_.y0,
                       .d = stock_.d,
                       .tri_count = uint32_t(T),
                       .pos_count = n};
    k.bind(cmd, {gpu::storage_buffer(heights_), gpu::storage_buffer(tris_), pos}, &p, sizeof p);
    k.dispatch(cmd, uint32_t(T * n));
  }
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  if (prof) prof->end(cmd, scope);
}

}  // namespace machining
