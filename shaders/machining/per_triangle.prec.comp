#version 460
// "GPU Inverted" (seed 003, §6.3.3): a thread takes one triangle at every position.
#include "engine.glsl"
void main() {
  for (uint t = gl_GlobalInvocationID.x; t < tri_count; t += STRIDE)
    for (uint p = 0u; p < pos_count; ++p) raster(tri_first + t, pos_first + p);
}
