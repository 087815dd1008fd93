#version 460
// SIMSURF §7.3.2 (Abecassis 2012): a 64-bit value written and read as two 32-bit halves. The
// first `writers` invocations each write their value (torn.glsl) into slot i % slots, high half
// then low half, `rounds` times; the others read their slot as often, high half then low half,
// and count the reads that saw halves of two writers. `coherent volatile`: every store and load
// happens, in order, as written.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) coherent volatile buffer Slots { uint words[]; };  // slot s: low 2s, high 2s + 1
layout(std430, binding = 1) buffer Counts { uint reads, torn_reads; };
#define PUSH_TornPush
#include "machining_push.h"
#include "torn.glsl"

void main() {
  uint i = gl_GlobalInvocationID.x, s = i % slots;
  if (i < writers) {
    for (uint r = 0u; r < rounds; ++r) {
      words[2u * s + 1u] = torn_high(i);
      words[2u * s] = torn_low(i);
    }
    return;
  }
  if (i >= 2u * writers) return;
  uint torn = 0u;
  for (uint r = 0u; r < rounds; ++r) {
    uint high = words[2u * s + 1u];
    uint low = words[2u * s];
    if (torn_value(low, high)) ++torn;
  }
  atomicAdd(reads, rounds);
  atomicAdd(torn_reads, torn);
}
