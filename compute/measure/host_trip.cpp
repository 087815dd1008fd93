// Buffers through the host and back (host_trip.h).
#include "compute/measure/host_trip.h"

#include <chrono>

namespace gpu {

const HostTrip::Times& HostTrip::carry(Context& ctx, const std::vector<const Buffer*>& from) {
  copies_.resize(from.size());
  host_.resize(from.size());
  for (size_t i = 0; i < from.size(); ++i)
    if (copies_[i].size() != from[i]->size()) {
      copies_[i] = Buffer(ctx, from[i]->size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
      host_[i].resize(from[i]->size());
    }
  using clock = std::chrono::steady_clock;
  auto t0 = clock::now();
  for (size_t i = 0; i < from.size(); ++i) from[i]->download(host_[i].data(), host_[i].size());
  auto t1 = clock::now();
  for (size_t i = 0; i < from.size(); ++i) copies_[i].upload(host_[i].data(), host_[i].size());
  auto t2 = clock::now();
  last_.read_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  last_.upload_ms = std::chrono::duration<double, std::milli>(t2 - t1).count();
  last_.bytes = 0;
  for (auto& h : host_) last_.bytes += 2.0 * double(h.size());
  return last_;
}

}  // namespace gpu
