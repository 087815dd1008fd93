#version 460
// SIMSURF §7.3.2's race with the whole 64 bits at once (torn_halves.comp writes the halves):
// form 0 one 64-bit store and load, form 1 atomicExchange and an atomic read (atomicOr with 0).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) coherent volatile buffer Slots { uint64_t words[]; };
layout(std430, binding = 1) buffer Counts { uint reads, torn_reads; };
#define PUSH_TornPush
#include "machining_push.h"
#include "torn.glsl"

void main() {
  uint i = gl_GlobalInvocationID.x, s = i % slots;
  if (i < writers) {
    uint64_t v = pack64(uvec2(torn_low(i), torn_high(i)));
    for (uint r = 0u; r < rounds; ++r) {
      if (form == 0u)
        words[s] = v;
      else
        atomicExchange(words[s], v);
    }
    return;
  }
  if (i >= 2u * writers) return;
  uint torn = 0u;
  for (uint r = 0u; r < rounds; ++r) {
    uvec2 h = unpack32(form == 0u ? words[s] : atomicOr(words[s], uint64_t(0)));
    if (torn_value(h.x, h.y)) ++torn;
  }
  atomicAdd(reads, rounds);
  atomicAdd(torn_reads, torn);
}
