#version 460
// Persistent threads (seed 003, §6.4.4): as many threads as the GPU holds at once, each
// taking the next per_take (triangle, position) pairs from a shared counter until none are
// left, so a long fragment holds up only its own thread; at most `takes` takes, so no
// thread runs unbounded (the dispatch is sized to finish the queue within them).
#include "engine.glsl"
shared uint chunk;
void main() {
  uint pairs = tri_count * pos_count;
  for (uint take = 0u; take < takes; ++take) {
    if (gl_LocalInvocationIndex == 0u) chunk = atomicAdd(queue.next, gl_WorkGroupSize.x * per_take);
    barrier();
    uint base = chunk;
    barrier();
    if (base >= pairs) return;
    for (uint k = 0u; k < per_take; ++k) {
      uint pair = base + k * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
      if (pair < pairs) raster(tri_first + pair % tri_count, pos_first + pair / tri_count);
    }
  }
}
