// SIMSURF §7.3.2 (Abecassis 2012): "the reading and writing of a 64-bit value may be done by two
// 32-bit operations", so a thread may see "the low bits of one value with the high bits of
// another". A race of writers and readers on a few 64-bit slots: each writer writes its own
// value (shaders/machining/torn.glsl: a high half naming it, a low half derived from it), each
// reader reads its slot and checks the halves belong together. Run in three forms on the GPU
// (the halves written and read apart, one 64-bit store and load, atomicExchange and an atomic
// read) and two on the CPU (two 32-bit halves, one 64-bit word), counting the torn reads and the
// slots left holding a value no writer wrote.
#pragma once
#include "compute/gpu/context.h"

#include <cstdint>
#include <string>
#include <vector>

namespace machining {

struct TornConfig {
  uint32_t slots = 64;       // the 64-bit slots raced on
  uint32_t writers = 16384;  // writer invocations (as many readers), writer i on slot i % slots
  uint32_t rounds = 64;      // writes (reads) each
};

struct TornRace {
  std::string form;  // "halves", "64-bit store", "atomic" (GPU); "halves", "64-bit word" (CPU)
  bool gpu = true;
  std::string skipped;                 // why the form did not run here ("" when it ran)
  uint64_t reads = 0, torn_reads = 0;  // reads made, and those that saw the halves of two writers
  uint64_t torn_slots = 0;             // slots that ended holding a value no writer wrote
  double ms = 0;                       // the race's time
};

// The high and low halves writer w writes (w < 2^20), and whether two halves belong together.
uint32_t torn_high(uint32_t w);
uint32_t torn_low(uint32_t w);
bool torn_value(uint32_t low, uint32_t high);

std::vector<TornRace> torn_races_gpu(gpu::Context& ctx, const TornConfig& c);
// threads: the CPU threads racing (half write, half read), rounds a thread.
std::vector<TornRace> torn_races_cpu(uint32_t slots, uint32_t threads, uint32_t rounds);

}  // namespace machining
