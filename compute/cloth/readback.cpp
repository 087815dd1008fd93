// The thesis's display path: the cloth through the CPU and back (readback.h).
#include "compute/cloth/readback.h"

#include <chrono>

namespace cloth {

const ReadBack::Times& ReadBack::copy(gpu::Context& ctx, const Simulation& sim) {
  const VkDeviceSize bytes = VkDeviceSize(sim.config.n()) * sizeof(glm::vec4);
  if (positions_.size() != bytes) {
    auto usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    positions_ = gpu::Buffer(ctx, bytes, usage);
    normals_ = gpu::Buffer(ctx, bytes, usage);
    host_x_.resize(sim.config.n());
    host_n_.resize(sim.config.n());
  }
  using clock = std::chrono::steady_clock;
  auto t0 = clock::now();
  sim.position_buffer().download(host_x_.data(), bytes);
  sim.normal_buffer().download(host_n_.data(), bytes);
  auto t1 = clock::now();
  positions_.upload(host_x_.data(), bytes);
  normals_.upload(host_n_.data(), bytes);
  auto t2 = clock::now();
  last_.read_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  last_.upload_ms = std::chrono::duration<double, std::milli>(t2 - t1).count();
  last_.bytes = 4.0 * double(bytes);
  return last_;
}

}  // namespace cloth
