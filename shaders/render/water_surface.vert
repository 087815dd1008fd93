#version 460
// The water as a 3D mesh pulled from the height buffer: lattice vertex (i, j) =
// gl_VertexIndex of an mx x my mesh (render/grid_indices) spread over the grid (a stride
// on grids bigger than the mesh); no vertex buffer.
layout(std430, binding = 0) readonly buffer Heights { float H[]; };
layout(push_constant) uniform Push {
  mat4 mvp;
  vec4 eye;    // xyz; w = height_scale
  vec4 light;  // world xyz; w = refraction
  ivec4 mesh;  // grid width, height, mesh side x, y
};
layout(location = 0) out vec2 cell;
layout(location = 1) out vec3 world;

float cell_height(ivec2 p) { return H[p.y * mesh.x + p.x]; }

void main() {
  ivec2 ij = ivec2(gl_VertexIndex % mesh.z, gl_VertexIndex / mesh.z);
  vec2 c = vec2(ij) * vec2(mesh.xy - 1) / vec2(mesh.zw - 1);  // cell units
  ivec2 p = min(ivec2(round(c)), mesh.xy - 1);
  float side = float(max(mesh.x, mesh.y));
  vec2 xz = (c / vec2(mesh.xy - 1) * 2.0 - 1.0) * vec2(mesh.xy) / side;
  world = vec3(xz.x, cell_height(p) * eye.w * 2.0 / side, xz.y);
  cell = c;
  gl_Position = mvp * vec4(world, 1.0);
}
