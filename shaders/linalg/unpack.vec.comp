#version 460
// Unpacks a quad vector into an R32F image, element i at (i % width, i / width), so the
// vector can be drawn as the picture it is (4 values a texel side by side when width = 4·side).
#extension GL_GOOGLE_include_directive : require
#include "quads.glsl"
layout(local_size_x = 16, local_size_y = 16) in;
VEC_IN(0, X);
layout(binding = 1, r32f) uniform writeonly image2D IMG;
#define PUSH_UnpackPush
#include "linalg_push.h"

void main() {
  uvec2 p = gl_GlobalInvocationID.xy;
  if (p.x >= width || p.y >= height) return;
  uint i = p.y * width + p.x;
  imageStore(IMG, ivec2(p), vec4(i < n ? LOADE(X, i) : 0.0));
}
