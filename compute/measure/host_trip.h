// Buffers through the host and back: read back to the CPU, then uploaded into copies of their
// own, on the wall clock. Bleton 2005's display path (tables 4.1 and 4.2: the thesis read its
// textures back and sent the points to the GPU again to draw them), the cloth's and the wave's
// Display path = readback and their bench's *.step+display.readback rows. The thesis measured
// simulation + display x4 the simulation at 64², x7 to x12 from 128² (the cloth's table 4.1).
#pragma once
#include "compute/gpu/resources.h"
#include "compute/measure/bench_row.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace gpu {

class HostTrip {
 public:
  struct Times {
    double read_ms = 0, upload_ms = 0;  // to the CPU, then back to the GPU
    double bytes = 0;                   // over the bus, both ways
    double total() const { return read_ms + upload_ms; }
    // "0.034 ms a frame, 0.002 ms reading back and 0.032 ms uploading 0.07 MB, 1.95 GB/s"
    std::string text() const;
  };
  // Copies each of `from` (the submission that wrote them complete) through the host into
  // copy(i): made on first use and when a size changes.
  const Times& carry(Context& ctx, const std::vector<const Buffer*>& from);
  const Buffer& copy(size_t i) const { return copies_.at(i); }
  const Times& last() const { return last_; }

 private:
  std::vector<Buffer> copies_;
  std::vector<std::vector<char>> host_;
  Times last_;
};

// A frame timed on the wall clock three ways, each a submission waited for (the cloth's and the
// wave's *.step+display.readback bench rows): the step alone; the step and the picture drawn from
// the simulation's buffers `from`; the step, `from` through the host, the picture drawn from the
// copies. `repeats`: at most, as median_wall_ms (compute/measure/timer.h) takes them.
struct DisplayPaths {
  double step_ms = 0, direct_ms = 0, readback_ms = 0;  // medians
  double read_ms = 0, upload_ms = 0, bus_bytes = 0;    // the trip, a frame (means over the read-back frames)
  int frames = 0;                                      // read-back frames timed
  // The row's reference fields: each time, the trip's GB/s and the two ratios.
  nlohmann::json json() const;
  // The bench row of the read-back frame, a side x side grid: these times, `timed` and `display`
  // said in its reference, the two ratios in its note (`direct`: what the direct frame draws from).
  BenchRow row(const std::string& pass, uint32_t side, uint64_t elements, const std::string& timed,
               const std::string& display, const char* direct) const;
};
DisplayPaths time_display_paths(Context& ctx, const std::function<void(VkCommandBuffer)>& step,
                                const std::vector<const Buffer*>& from,
                                const std::function<void(VkCommandBuffer, const std::vector<const Buffer*>&)>& draw,
                                int repeats);

}  // namespace gpu
