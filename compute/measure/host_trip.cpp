// Buffers through the host and back (host_trip.h).
#include "compute/measure/host_trip.h"

#include "compute/measure/timer.h"

#include <chrono>
#include <cstdio>

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

std::string HostTrip::Times::text() const {
  char s[160];
  std::snprintf(s, sizeof s, "%.3f ms a frame, %.3f ms reading back and %.3f ms uploading %.2f MB, %.2f GB/s", total(),
                read_ms, upload_ms, bytes / 1e6, total() > 0 ? bytes / (total() * 1e6) : 0.0);
  return s;
}

DisplayPaths time_display_paths(Context& ctx, const std::function<void(VkCommandBuffer)>& step,
                                const std::vector<const Buffer*>& from,
                                const std::function<void(VkCommandBuffer, const std::vector<const Buffer*>&)>& draw,
                                int repeats) {
  HostTrip trip;
  DisplayPaths d;
  auto alone = [&] { ctx.submit_now(step); };
  auto direct = [&] {
    ctx.submit_now([&](VkCommandBuffer cmd) {
      step(cmd);
      draw(cmd, from);
    });
  };
  std::vector<const Buffer*> copies;
  auto read_back = [&] {
    ctx.submit_now(step);
    auto& t = trip.carry(ctx, from);
    d.read_ms += t.read_ms, d.upload_ms += t.upload_ms, ++d.frames;
    copies.clear();
    for (size_t i = 0; i < from.size(); ++i) copies.push_back(&trip.copy(i));
    ctx.submit_now([&](VkCommandBuffer cmd) { draw(cmd, copies); });
  };
  read_back(), direct();  // the copies made and every pipeline used once
  d = DisplayPaths{};
  d.step_ms = median_wall_ms(alone, repeats, 1000);
  d.direct_ms = median_wall_ms(direct, repeats, 1000);
  d.readback_ms = median_wall_ms(read_back, repeats, 1000);
  d.read_ms /= d.frames, d.upload_ms /= d.frames;
  d.bus_bytes = trip.last().bytes;
  return d;
}

nlohmann::json DisplayPaths::json() const {
  const double trip_ms = read_ms + upload_ms;
  return {{"step_wall_ms", step_ms},
          {"direct_wall_ms", direct_ms},
          {"read_ms", read_ms},
          {"upload_ms", upload_ms},
          {"trip_ms", trip_ms},
          {"bus_bytes", bus_bytes},
          {"bus_gbps", trip_ms > 0 ? bus_bytes / (trip_ms * 1e6) : 0},
          {"readback_over_direct", readback_ms / direct_ms},
          {"display_over_step", readback_ms / step_ms}};
}

BenchRow DisplayPaths::row(const std::string& pass, uint32_t side, uint64_t elements, const std::string& timed,
                           const std::string& display, const char* direct) const {
  BenchRow r{.pass = pass,
             .size = std::to_string(side) + "x" + std::to_string(side),
             .elements = elements,
             .repeats = frames,
             .median_ms = readback_ms,
             .min_ms = readback_ms,
             .reference = json()};
  r.reference["timed"] = timed;
  r.reference["display"] = display;
  r.add_note("x%.3g the step alone, x%.3g drawing from %s", readback_ms / step_ms, readback_ms / direct_ms, direct);
  return r;
}

}  // namespace gpu
