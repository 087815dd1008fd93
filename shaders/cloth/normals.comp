#version 460
#extension GL_GOOGLE_include_directive : require
// Vertex normals of the cloth from central differences of the positions (one-sided at
// the borders), for shading and for the wind.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer X_block { vec4 X[]; };
layout(std430, binding = 1) writeonly buffer N_block { vec4 N[]; };
#define PUSH_ClothNormalsPush
#include "cloth_push.h"

vec3 at(int x, int y) { return X[uint(clamp(y, 0, int(height) - 1)) * width + uint(clamp(x, 0, int(width) - 1))].xyz; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= width * height) return;
  int x = int(i % width), y = int(i / width);
  vec3 du = at(x + 1, y) - at(x - 1, y), dv = at(x, y + 1) - at(x, y - 1);
  vec3 n = cross(dv, du);
  float l = length(n);
  N[i] = vec4(l > 0.0 ? n / l : vec3(0.0, 1.0, 0.0), 0.0);
}
