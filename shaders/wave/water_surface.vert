#version 460
#extension GL_GOOGLE_include_directive : require
// The water as a 3D mesh pulled from the height buffer: lattice vertex (i, j) =
// gl_VertexIndex of an mx x my mesh (render/grid_indices) spread over the grid (a stride
// on grids bigger than the mesh); no vertex buffer.
layout(std430, binding = 0) readonly buffer Heights { float H[]; };
#define PUSH_WaterSurfacePush
#include "water_view_push.h"
layout(location = 0) out vec2 cell;
layout(location = 1) out vec3 world;

float cell_height(ivec2 p) { return H[p.y * grid.x + p.x]; }

void main() {
  ivec2 ij = ivec2(gl_VertexIndex % mesh_side.x, gl_VertexIndex / mesh_side.x);
  vec2 c = vec2(ij) * vec2(grid - 1) / vec2(mesh_side - 1);  // cell units
  ivec2 p = min(ivec2(round(c)), grid - 1);
  float side = float(max(grid.x, grid.y));
  vec2 xz = (c / vec2(grid - 1) * 2.0 - 1.0) * vec2(grid) / side;
  world = vec3(xz.x, cell_height(p) * height_scale * 2.0 / side, xz.y);
  cell = c;
  gl_Position = mvp * vec4(world, 1.0);
}
