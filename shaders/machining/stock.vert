#version 460
// The machined stock pulled from the height keys: lattice vertex gl_VertexIndex of an
// mx x my mesh (render/grid_indices) spread over the nx x ny brins.
#extension GL_GOOGLE_include_directive : require
#define PUSH_StockPush
#include "stock_view_push.h"
#include "stock_relief.glsl"
layout(location = 0) out vec2 brin;
layout(constant_id = 0) const float kPointSize = 1.0;  // the points display: 2 where the device draws them

void main() {
  ivec2 ij = ivec2(gl_VertexIndex % mesh.z, gl_VertexIndex / mesh.z);
  ivec2 p = (ij * (mesh.xy - 1)) / (mesh.zw - 1);
  vec2 centre = grid.xy + 0.5 * vec2(mesh.xy - 1) * grid.z;
  vec2 xy = grid.xy + vec2(p) * grid.z - centre;
  brin = vec2(p);
  gl_Position = mvp * vec4(vec3(xy.x, relief_at(p), xy.y) * view.x, 1.0);
  gl_PointSize = kPointSize;  // the points display (StockView's point-list pipeline)
}
