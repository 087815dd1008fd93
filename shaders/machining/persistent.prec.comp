#version 460
// Persistent threads (seed 003, §6.4.4): as many threads as the GPU holds at once, each
// taking the next 32 (triangle, position) pairs from a shared counter until none are left,
// so a long fragment holds up only its own thread.
#include "engine.glsl"
shared uint chunk;
void main() {
  uint pairs = triangles * pos_count;
  for (;;) {
    if (gl_LocalInvocationIndex == 0u) chunk = atomicAdd(queue.next, gl_WorkGroupSize.x * 32u);
    barrier();
    uint base = chunk;
    barrier();
    if (base >= pairs) return;
    for (uint k = 0u; k < 32u; ++k) {
      uint pair = base + k * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
      if (pair < pairs) raster(pair % triangles, pos_first + pair / triangles);
    }
  }
}
