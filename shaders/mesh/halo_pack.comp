#version 460
// The values a part sends the others (compute/mesh/split.h): out[k] = u[sends[k]], into the
// host-visible buffer the host reads them from.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Sends { uint sends[]; };
layout(std430, binding = 1) readonly buffer In { float u[]; };
layout(std430, binding = 2) writeonly buffer Out { float packed[]; };
#define PUSH_HaloPush
#include "halo_push.h"

void main() {
  uint k = gl_GlobalInvocationID.x;
  if (k < count) packed[k] = u[sends[k]];
}
