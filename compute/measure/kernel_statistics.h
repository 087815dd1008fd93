// What the driver says of each compute pipeline it compiled (VK_KHR_pipeline_executable_properties,
// asked for with ContextOptions::pipeline_statistics): its statistics as the driver names them,
// the registers a thread and the shared memory a workgroup picked out of them, and the
// occupancy those give by SIMSURF's rules (Abecassis 2012) (occupancy.h) on the device's multiprocessor.
#pragma once
#include "compute/gpu/context.h"
#include "compute/measure/occupancy.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gpu {

struct KernelStatistic {
  std::string name, description;
  double value = 0;
};

struct KernelReport {
  std::string shader;  // as made, with its specialization constants: "machining/fine.f32x {0,1,2,0,64,0}"
  uint32_t local_x = 0, local_y = 0, local_z = 0;
  std::vector<KernelStatistic> statistics;  // every one the driver gives, in its order
  std::optional<uint32_t> registers;        // a thread's, where the driver says
  std::optional<uint32_t> shared_bytes;     // a workgroup's, where the driver says
  std::optional<Occupancy> occupancy;       // at its workgroup size, where registers and the multiprocessor are known
  std::vector<uint32_t> best_threads;       // 12.7 for its registers
  uint32_t threads() const { return local_x * local_y * local_z; }
};

// "" where the context keeps statistics; else why not, in one sentence.
std::string kernel_statistics_missing(const Context& ctx);
// Picks a thread's registers and a workgroup's shared memory out of a driver's statistics
// (NVIDIA: "Register Count"; AMD: "VGPRs"; Mesa: "Registers" or "GPRs"; shared memory: names
// with "shared" or "LDS"). A test feeds it each driver's names.
void read_resources(KernelReport& k);
// Every compute pipeline alive on `ctx`, sorted by shader (empty where statistics are missing).
std::vector<KernelReport> kernel_statistics(const Context& ctx);

// A table a line a kernel: shader, workgroup, registers, shared memory, occupancy, its bound
// and the best workgroup sizes; the statistics' full list after it.
std::string format_kernel_statistics(const Context& ctx, const std::vector<KernelReport>& kernels);
nlohmann::json kernel_statistics_json(const Context& ctx, const std::vector<KernelReport>& kernels);

}  // namespace gpu
