#version 460
// "GPU Inverted" (seed 003, §6.3.3): a thread takes one triangle at every position; with the
// granularity factor G = `parts` (§6.4.3), at pos_count / G of them.
#include "engine.glsl"
void main() {
  uint per = (pos_count + parts - 1u) / parts;
  for (uint k = gl_GlobalInvocationID.x; k < tri_count * parts; k += STRIDE) {
    uint t = k % tri_count, p0 = (k / tri_count) * per;
    for (uint p = p0; p < min(p0 + per, pos_count); ++p) raster(tri_first + t, pos_first + p);
  }
}
