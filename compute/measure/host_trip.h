// Buffers through the host and back: read back to the CPU, then uploaded into copies of their
// own, on the wall clock. Bleton 2005's display path (tables 4.1 and 4.2: the thesis read its
// textures back and sent the points to the GPU again to draw them), the cloth's and the wave's
// Display path = readback and their bench's *.step+display.readback rows. The thesis measured
// simulation + display x4 the simulation at 64², x7 to x12 from 128² (the cloth's table 4.1).
#pragma once
#include "compute/gpu/resources.h"

#include <vector>

namespace gpu {

class HostTrip {
 public:
  struct Times {
    double read_ms = 0, upload_ms = 0;  // to the CPU, then back to the GPU
    double bytes = 0;                   // over the bus, both ways
    double total() const { return read_ms + upload_ms; }
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

}  // namespace gpu
