#version 460
// The N-buffer's picture (nbuffer.prec.comp): a ray's length -> the height of the surface point
// it reaches, drawn over its brin (the xy offset along a tilted normal is not drawn).
#extension GL_GOOGLE_include_directive : require
#include "keys.glsl"
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Lengths { uint L[]; };
layout(std430, binding = 1) readonly buffer Rays { vec4 RAYS[]; };
layout(std430, binding = 2) writeonly buffer Keys { uint K[]; };
#define PUSH_NarrowPush
#include "machining_push.h"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  vec4 ray = RAYS[i];
  K[i] = height_key(ray.w + key_height(L[i]) * ray.z);
}
