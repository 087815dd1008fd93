#version 460
// "GPU Raster" (seed 003, §6.3.2): a thread takes every triangle at one position.
#include "engine.glsl"
void main() {
  for (uint p = gl_GlobalInvocationID.x; p < pos_count; p += STRIDE)
    for (uint t = 0u; t < tri_count; ++t) raster(tri_first + t, pos_first + p);
}
