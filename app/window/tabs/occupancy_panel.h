// The Timings tab's "Kernels and occupancy": each kernel of the lab with the registers and shared
// memory the driver gives (where it does) and the occupancy they allow, and a calculator that
// walks SIMSURF's (Abecassis 2012) equations 12.1 to 12.6 for counts the user sets (its §12.3 example first).
#pragma once
#include "app/core/session.h"
#include "compute/measure/kernel_statistics.h"

class OccupancyPanel {
 public:
  void draw(Session& s);

 private:
  void kernels(Session& s);
  void calculator(const gpu::Context& ctx);
  std::vector<gpu::KernelReport> reports_;
  std::vector<VkPipeline> pipelines_seen_;           // the context's pipelines when reports_ was read
  int registers_ = 29, threads_ = 256, shared_ = 0;  // §12.3's kernel
  int multiprocessor_ = 0;                           // 0: the report's Fermi; 1: Ampere; 2: Hopper
};
