// SIMSURF §7.3.2's torn 64-bit value, on the GPU and the CPU (torn.h).
#include "compute/machining/torn.h"

#include "compute/gpu/pipeline.h"
#include "shaders/machining/machining_push.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

namespace machining {

namespace {
constexpr uint32_t kMix = 2654435761u;  // torn.glsl's kTornMix
constexpr uint32_t kNobody = 0xFFFFFu;  // the slots' value before the race: no writer's

uint64_t torn_slots_in(const std::vector<uint32_t>& words) {
  uint64_t torn = 0;
  for (size_t s = 0; s + 1 < words.size(); s += 2) torn += torn_value(words[s], words[s + 1]);
  return torn;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

uint32_t torn_high(uint32_t w) { return 0x40000000u | w; }
uint32_t torn_low(uint32_t w) { return w * kMix; }
bool torn_value(uint32_t low, uint32_t high) { return low != torn_low(high & 0xFFFFFu); }

std::vector<TornRace> torn_races_gpu(gpu::Context& ctx, const TornConfig& c) {
  if (c.writers >= kNobody || c.slots == 0 || c.slots > c.writers)
    throw std::invalid_argument("torn race: 1 to writers slots, fewer than 2^20 - 1 writers");
  std::vector<uint32_t> start(2 * size_t(c.slots));
  for (size_t s = 0; s < c.slots; ++s) start[2 * s] = torn_low(kNobody), start[2 * s + 1] = torn_high(kNobody);
  gpu::Buffer slots(ctx, start.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  gpu::Buffer counts(ctx, 8, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  std::vector<TornRace> out;
  for (int form = 0; form < 3; ++form) {
    TornRace r{.form = form == 0 ? "halves" : form == 1 ? "64-bit store" : "atomic"};
    // torn_whole.comp declares 64-bit integers and their atomics: both forms need them.
    if (form > 0 && !ctx.int64_atomics) r.skipped = "no 64-bit integers and their buffer atomics on this device";
    if (!r.skipped.empty()) {
      out.push_back(r);
      continue;
    }
    slots.upload(start);
    counts.upload(std::vector<uint32_t>{0, 0});
    auto pipeline = gpu::make_compute(ctx, form == 0 ? "machining/torn_halves.comp" : "machining/torn_whole.comp",
                                      sizeof(push::TornPush));
    auto t0 = std::chrono::steady_clock::now();
    ctx.submit_now([&](VkCommandBuffer cmd) {
      pipeline.bind(
          cmd, {gpu::storage_buffer(slots), gpu::storage_buffer(counts)},
          push::TornPush{.slots = c.slots, .writers = c.writers, .rounds = c.rounds, .form = form == 2 ? 1u : 0u});
      vkCmdDispatch(cmd, pipeline.groups(2 * c.writers).x, 1, 1);
    });
    r.ms = ms_since(t0);
    auto n = counts.download<uint32_t>();
    r.reads = n[0], r.torn_reads = n[1];
    r.torn_slots = torn_slots_in(slots.download<uint32_t>());
    out.push_back(r);
  }
  return out;
}

std::vector<TornRace> torn_races_cpu(uint32_t slots, uint32_t threads, uint32_t rounds) {
  threads = std::max(2u, threads);
  std::vector<TornRace> out;
  for (bool halves : {true, false}) {
    TornRace r{.form = halves ? "halves" : "64-bit word", .gpu = false};
    // Relaxed atomics of 32 and 64 bits: the C++ way to race without undefined behaviour; the
    // halves are two of them, written high then low and read high then low, as on the GPU.
    std::vector<std::atomic<uint32_t>> words(2 * size_t(slots));
    std::vector<std::atomic<uint64_t>> whole(slots);
    for (uint32_t s = 0; s < slots; ++s) {
      words[2 * s] = torn_low(kNobody), words[2 * s + 1] = torn_high(kNobody);
      whole[s] = uint64_t(torn_high(kNobody)) << 32 | torn_low(kNobody);
    }
    std::atomic<uint64_t> reads{0}, torn_reads{0};
    auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (uint32_t t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        const bool writer = t % 2 == 0;
        uint64_t torn = 0;
        for (uint32_t r = 0; r < rounds; ++r)
          for (uint32_t s = 0; s < slots; ++s) {
            uint32_t w = t + threads * r;  // a fresh writer each round: each write is new bits
            w &= 0xFFFFEu;
            if (writer && halves) {
              words[2 * s + 1].store(torn_high(w), std::memory_order_relaxed);
              words[2 * s].store(torn_low(w), std::memory_order_relaxed);
            } else if (writer) {
              whole[s].store(uint64_t(torn_high(w)) << 32 | torn_low(w), std::memory_order_relaxed);
            } else if (halves) {
              uint32_t high = words[2 * s + 1].load(std::memory_order_relaxed);
              torn += torn_value(words[2 * s].load(std::memory_order_relaxed), high);
            } else {
              uint64_t v = whole[s].load(std::memory_order_relaxed);
              torn += torn_value(uint32_t(v), uint32_t(v >> 32));
            }
          }
        if (!writer) reads += uint64_t(rounds) * slots, torn_reads += torn;
      });
    for (auto& th : pool) th.join();
    r.ms = ms_since(t0);
    r.reads = reads, r.torn_reads = torn_reads;
    for (uint32_t s = 0; s < slots; ++s) {
      uint64_t v = whole[s];
      r.torn_slots += halves ? torn_value(words[2 * s], words[2 * s + 1]) : torn_value(uint32_t(v), uint32_t(v >> 32));
    }
    out.push_back(r);
  }
  return out;
}

}  // namespace machining
