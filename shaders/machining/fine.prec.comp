#version 460
// "GPU Fine" (seed 003, §6.3.4): a thread takes one triangle at one position.
#include "engine.glsl"
void main() {
  uint pairs = tri_count * pos_count;
  for (uint k = gl_GlobalInvocationID.x; k < pairs; k += STRIDE)
    raster(tri_first + k % tri_count, pos_first + k / tri_count);
}
