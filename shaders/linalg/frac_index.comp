#version 460
// Counts the (quad, offset) pairs whose address by the thesis's float formulas 3.1-3.4
// (thesis_index.glsl) is not (q + offset) mod quads, and the lowest such quad: OUT[2·slot]
// and OUT[2·slot + 1] (0xffffffff: none). No vector is read: only the arithmetic is tried.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
layout(std430, binding = 0) buffer Out_block { uint OUT[]; };
#define PUSH_FracSweepPush
#include "linalg_push.h"
#include "quads.glsl"
#include "thesis_index.glsl"

void main() {
  uint wrong = 0u, first = 0xffffffffu;
  FOR_EACH_QUAD(q, quads) {
    for (uint k = 0u; k < count; ++k) {
      uint i = wrap_index(k < 4u ? offsets_lo[k] : offsets_hi[k - 4u], quads);
      if (thesis_quad_index(q, i, quads, side) != (q + i) % quads) {
        wrong += 1u;
        first = min(first, q);
      }
    }
  }
  if (wrong != 0u) {
    atomicAdd(OUT[2u * slot], wrong);
    atomicMin(OUT[2u * slot + 1u], first);
  }
}
