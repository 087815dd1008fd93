#version 460
#extension GL_GOOGLE_include_directive : require
// The cloth pulled from the simulation's buffers: lattice vertex (i, j) = gl_VertexIndex of
// an mx x my mesh (render/grid_indices) spread over the particle grid (a stride on grids
// bigger than the mesh); no vertex buffer.
layout(std430, binding = 0) readonly buffer X_block { vec4 X[]; };
layout(std430, binding = 1) readonly buffer N_block { vec4 N[]; };
#define PUSH_ClothPush
#include "cloth_view_push.h"
layout(location = 0) out vec3 normal;
layout(location = 1) out vec2 uv;

void main() {
  ivec2 ij = ivec2(gl_VertexIndex % mesh.z, gl_VertexIndex / mesh.z);
  ivec2 p = (ij * (mesh.xy - 1)) / (mesh.zw - 1);
  uint i = uint(p.y * mesh.x + p.x);
  normal = N[i].xyz;
  uv = vec2(p) / vec2(mesh.xy - 1);
  gl_Position = mvp * vec4(X[i].xyz, 1.0);
}
