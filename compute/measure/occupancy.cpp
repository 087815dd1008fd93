#include "compute/measure/occupancy.h"

#include <algorithm>
#include <cstdio>

namespace gpu {

namespace {
uint32_t round_up_to(uint32_t x, uint32_t multiple) { return multiple ? (x + multiple - 1) / multiple * multiple : x; }
}  // namespace

Multiprocessor fermi_multiprocessor() {
  Multiprocessor m;
  m.name = "Fermi, compute capability 2.0 (the report's Quadro 4000 and GTX 560 Ti)";
  return m;  // the defaults are §12.3's values
}

Multiprocessor ampere_multiprocessor() {
  Multiprocessor m;
  m.name = "Ampere, compute capability 8.0 (A100)";
  m.max_warps = 64;
  m.max_blocks = 32;
  m.register_granularity = 256;
  m.registers = 65536;
  m.max_registers_per_thread = 255;
  m.shared_bytes = 164 * 1024;
  m.shared_reserved = 1024;
  return m;
}

Multiprocessor hopper_multiprocessor() {
  Multiprocessor m = ampere_multiprocessor();
  m.name = "Hopper, compute capability 9.0 (H100, H200)";
  m.shared_bytes = 228 * 1024;
  return m;
}

bool multiprocessor_of(const std::string& device_name, Multiprocessor& out) {
  auto has = [&](const char* s) { return device_name.find(s) != std::string::npos; };
  if (!has("NVIDIA")) return false;
  if (has("H100") || has("H200") || has("GH200"))
    out = hopper_multiprocessor();
  else if (has("A100") || has("A30"))
    out = ampere_multiprocessor();
  else
    return false;
  return true;
}

const char* limit_name(Limit l) {
  switch (l) {
    case Limit::Warps:
      return "warps and blocks (B_W)";
    case Limit::Registers:
      return "registers (B_R)";
    case Limit::SharedMemory:
      return "shared memory";
    case Limit::None:
      break;
  }
  return "cannot run";
}

Occupancy occupancy(const Multiprocessor& mp, uint32_t threads, uint32_t registers, uint32_t shared_bytes) {
  Occupancy o;
  o.threads = threads, o.registers = registers, o.shared_bytes = shared_bytes;
  if (threads == 0 || threads > mp.max_threads_per_block) {
    o.why_not = std::to_string(threads) + " threads a block (at most " + std::to_string(mp.max_threads_per_block) + ")";
    return o;
  }
  if (registers > mp.max_registers_per_thread) {
    o.why_not =
        std::to_string(registers) + " registers a thread (at most " + std::to_string(mp.max_registers_per_thread) + ")";
    return o;
  }
  o.warps_per_block = (threads + mp.warp_size - 1) / mp.warp_size;                                             // 12.1
  o.blocks_by_warps = std::min(mp.max_warps / o.warps_per_block, mp.max_blocks);                               // 12.2
  o.registers_per_block = round_up_to(registers * mp.warp_size, mp.register_granularity) * o.warps_per_block;  // 12.3
  o.blocks_by_registers =
      o.registers_per_block ? std::min(mp.registers / o.registers_per_block, mp.max_blocks) : mp.max_blocks;  // 12.4
  uint32_t shared = shared_bytes ? round_up_to(shared_bytes + mp.shared_reserved, mp.shared_granularity) : 0;
  o.blocks_by_shared = shared ? std::min(mp.shared_bytes / shared, mp.max_blocks) : mp.max_blocks;
  o.blocks = std::min({o.blocks_by_warps, o.blocks_by_registers, o.blocks_by_shared});  // 12.5
  if (o.blocks == 0) {
    o.why_not = o.blocks_by_registers == 0 ? "a block needs more registers than a multiprocessor has"
                                           : "a block needs more shared memory than a multiprocessor has";
    return o;
  }
  o.limit = o.blocks == o.blocks_by_warps       ? Limit::Warps
            : o.blocks == o.blocks_by_registers ? Limit::Registers
                                                : Limit::SharedMemory;
  o.occupancy = double(o.blocks * o.warps_per_block) / mp.max_warps;  // 12.6
  return o;
}

std::vector<uint32_t> best_threads(const Multiprocessor& mp, uint32_t registers, uint32_t shared_bytes) {
  std::vector<uint32_t> best;
  double top = 0;
  for (uint32_t t = mp.warp_size; t <= mp.max_threads_per_block; t += mp.warp_size) {
    double o = occupancy(mp, t, registers, shared_bytes).occupancy;
    if (o > top + 1e-12)
      top = o, best = {t};
    else if (o > 0 && o > top - 1e-12)
      best.push_back(t);
  }
  return best;
}

std::string explain(const Multiprocessor& mp, const Occupancy& o) {
  char buf[1024];
  if (!o.why_not.empty()) return "cannot run: " + o.why_not;
  std::snprintf(buf, sizeof buf,
                "W_block = ceil(%u / %u) = %u warps (12.1)\n"
                "B_W = min(floor(%u / %u), %u) = %u blocks (12.2)\n"
                "R_block = ceil(%u x %u, %u) x %u = %u registers (12.3)\n"
                "B_R = min(floor(%u / %u), %u) = %u blocks (12.4)\n"
                "shared memory: %u bytes a block, %u blocks\n"
                "B_lim = %u blocks, bound by %s (12.5)\n"
                "O = %u x %u / %u = %.1f %% (12.6)",
                o.threads, mp.warp_size, o.warps_per_block, mp.max_warps, o.warps_per_block, mp.max_blocks,
                o.blocks_by_warps, o.registers, mp.warp_size, mp.register_granularity, o.warps_per_block,
                o.registers_per_block, mp.registers, o.registers_per_block, mp.max_blocks, o.blocks_by_registers,
                o.shared_bytes, o.blocks_by_shared, o.blocks, limit_name(o.limit), o.blocks, o.warps_per_block,
                mp.max_warps, 100.0 * o.occupancy);
  return buf;
}

}  // namespace gpu
