// How many warps a multiprocessor keeps resident for a kernel, from its workgroup size, its
// registers a thread and its shared memory a workgroup: the CUDA Occupancy Calculator's rules
// as SIMSURF (Abecassis 2012, machined surfaces simulated on GPUs, §12.2, equations 12.1 to 12.7)
// writes them out, with its worked example (§12.3: 29 registers, 256 threads on a Quadro 4000,
// 4 blocks, 67 %). Two slips of the printed formulas are read as the example computes them:
// the blocks a limit allows are max(..., B_max) in 12.2 and 12.4 but min in the example
// (max(6, 8) = 6), and ceil(W_max / W_block) is a floor (a block is resident whole or not).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gpu {

// What one multiprocessor holds: the report's symbols beside each.
struct Multiprocessor {
  std::string name;                     // "Fermi (compute capability 2.0)"
  uint32_t warp_size = 32;              // W_size
  uint32_t max_warps = 48;              // W_max
  uint32_t max_blocks = 8;              // B_max
  uint32_t register_granularity = 128;  // G_R: a warp's registers are allocated in multiples of it
  uint32_t registers = 32768;           // R_max: 32-bit registers a multiprocessor (the report's "32 Ko")
  uint32_t max_registers_per_thread = 63;
  uint32_t shared_bytes = 48 * 1024;  // shared memory for blocks (12.2.3: 48 of the 64 KiB)
  uint32_t shared_granularity = 128;  // shared memory is allocated in multiples of it
  uint32_t shared_reserved = 0;       // taken by the system in each block (1 KiB from compute capability 8.0)
  uint32_t max_threads_per_block = 1024;
};

// The report's card (Quadro 4000 and GTX 560 Ti, compute capability 2.0, §12.3's values).
Multiprocessor fermi_multiprocessor();
// NVIDIA's figures for compute capability 8.0 (A100) and 9.0 (H100, H200).
Multiprocessor ampere_multiprocessor();
Multiprocessor hopper_multiprocessor();
// The multiprocessor of a device by its name ("NVIDIA H100 80GB HBM3"), or none (false).
bool multiprocessor_of(const std::string& device_name, Multiprocessor& out);

enum class Limit { Warps, Registers, SharedMemory, None };
const char* limit_name(Limit l);

struct Occupancy {
  uint32_t threads = 0, registers = 0, shared_bytes = 0;  // the kernel: T, R_k, a block's shared memory
  uint32_t warps_per_block = 0;                           // W_block (12.1)
  uint32_t blocks_by_warps = 0;                           // B_W (12.2)
  uint32_t registers_per_block = 0;                       // R_block (12.3)
  uint32_t blocks_by_registers = 0;                       // B_R (12.4)
  uint32_t blocks_by_shared = 0;                          // 12.2.3 (B_max where the kernel takes none)
  uint32_t blocks = 0;                                    // B_lim (12.5)
  double occupancy = 0;                                   // O (12.6): resident warps / W_max
  Limit limit = Limit::None;                              // which bound gave B_lim (None: the kernel cannot run)
  std::string why_not;                                    // where it cannot: more registers or threads than allowed
};

// Equations 12.1 to 12.6 for a kernel of `threads` a workgroup, `registers` a thread and
// `shared_bytes` of shared memory a workgroup.
Occupancy occupancy(const Multiprocessor& mp, uint32_t threads, uint32_t registers, uint32_t shared_bytes = 0);
// 12.7: the workgroup sizes (multiples of the warp up to the block limit) of highest occupancy,
// the smallest first.
std::vector<uint32_t> best_threads(const Multiprocessor& mp, uint32_t registers, uint32_t shared_bytes = 0);
// The steps of 12.1 to 12.6 written out with the numbers, as §12.3 does.
std::string explain(const Multiprocessor& mp, const Occupancy& o);

}  // namespace gpu
