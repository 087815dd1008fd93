#include "compute/floatlab/test9.h"

#include "shaders/floatlab/floatlab_push.h"

#include <algorithm>

namespace floatlab {

SignSymmetry::SignSymmetry(gpu::Context& ctx, uint32_t seed)
    : ctx_(ctx),
      pipe_(gpu::make_compute(ctx, "floatlab/test9.comp", sizeof(push::FloatTest9Push))),
      found_(ctx, 72, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT),
      seed_(seed) {}

void SignSymmetry::run(uint64_t count) {
  constexpr uint64_t kChunk = 1ull << 26;  // 4 pairs an invocation of 65 535 x 256 at most
  while (count > 0) {
    // a chunk never crosses a multiple of 2^32: the shader tells passes apart by the high word
    uint32_t n = uint32_t(std::min({count, kChunk, uint64_t((1ull << 32) - (done_ & 0xffffffffull))}));
    ctx_.submit_now([&](VkCommandBuffer cmd) {
      vkCmdFillBuffer(cmd, found_.handle(), 0, VK_WHOLE_SIZE, 0);
      gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
      pipe_.bind(
          cmd, {gpu::storage_buffer(found_)},
          push::FloatTest9Push{.first = uint32_t(done_), .first_hi = uint32_t(done_ >> 32), .count = n, .seed = seed_});
      vkCmdDispatch(cmd, std::min(pipe_.groups(n).x, 65535u), 1, 1);
    });
    auto f = found_.download<uint32_t>();
    violations_ += f[0];
    for (uint32_t k = 0; k < std::min(f[1], 8u) && examples_.size() < 8; ++k)
      examples_.push_back({f[2 + 2 * k], f[3 + 2 * k]});
    done_ += n, count -= n;
  }
}

}  // namespace floatlab
