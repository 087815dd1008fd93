#version 460
// "GPU Raster" (seed 003, §6.3.2): a thread takes every triangle at one position; with the
// granularity factor G = `parts` (§6.4.3), a thread takes tri_count / G of them.
#include "engine.glsl"
void main() {
  uint per = (tri_count + parts - 1u) / parts;
  for (uint k = gl_GlobalInvocationID.x; k < pos_count * parts; k += STRIDE) {
    uint p = k % pos_count, t0 = (k / pos_count) * per;
    for (uint t = t0; t < min(t0 + per, tri_count); ++t) raster(tri_first + t, pos_first + p);
  }
}
