#version 460
// The cloth pulled from the simulation's buffers: lattice vertex (i, j) of an mx x my mesh
// spread over the particle grid (a stride on grids bigger than the mesh), two triangles a
// square, no vertex buffer.
layout(std430, binding = 0) readonly buffer X_block { vec4 X[]; };
layout(std430, binding = 1) readonly buffer N_block { vec4 N[]; };
layout(push_constant) uniform Push {
  mat4 mvp;
  ivec4 mesh;  // particles x, y; mesh side x, y
  vec4 light;
};
layout(location = 0) out vec3 normal;
layout(location = 1) out vec2 uv;

void main() {
  const ivec2 corner[6] = ivec2[](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1), ivec2(1, 0), ivec2(1, 1), ivec2(0, 1));
  int square = gl_VertexIndex / 6;
  ivec2 ij = ivec2(square % (mesh.z - 1), square / (mesh.z - 1)) + corner[gl_VertexIndex % 6];
  ivec2 p = (ij * (mesh.xy - 1)) / (mesh.zw - 1);
  uint i = uint(p.y * mesh.x + p.x);
  normal = N[i].xyz;
  uv = vec2(p) / vec2(mesh.xy - 1);
  gl_Position = mvp * vec4(X[i].xyz, 1.0);
}
