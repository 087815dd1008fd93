// Bleton 2005's display path (table 4.1, its second column): each frame the particles'
// positions and normals go back to the CPU and up again into the buffers the picture draws
// from, as the thesis read its position texture back (glReadPixels) to draw a vertex array.
// Against drawing straight from the simulation's buffers it costs two trips over the bus a
// frame; the thesis measured simulation + display x4 the simulation at 64², x7 to x12 from
// 128². The lab's Display path knob, its headless report and the bench's
// cloth.step+display.readback rows use it.
#pragma once
#include "compute/cloth/cloth.h"

namespace cloth {

class ReadBack {
 public:
  struct Times {
    double read_ms = 0, upload_ms = 0;  // wall clock: to the CPU, then back to the GPU
    double total() const { return read_ms + upload_ms; }
    double bytes = 0;  // over the bus, both ways
  };
  // Copies of `sim`'s positions and normals through the host: sized on first use and when the
  // cloth's size changes. The submission that wrote them must be complete.
  const Times& copy(gpu::Context& ctx, const Simulation& sim);
  const gpu::Buffer& positions() const { return positions_; }
  const gpu::Buffer& normals() const { return normals_; }
  const Times& last() const { return last_; }

 private:
  gpu::Buffer positions_, normals_;
  std::vector<glm::vec4> host_x_, host_n_;
  Times last_;
};

}  // namespace cloth
