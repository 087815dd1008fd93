#version 460
// A triangle mesh pulled from the mesh lab's buffers: corner gl_VertexIndex % 3 of
// triangle gl_VertexIndex / 3.
layout(std430, binding = 0) readonly buffer Crd { vec4 CRD[]; };
layout(std430, binding = 1) readonly buffer TriVer { uvec4 TRI[]; };
layout(std430, binding = 2) readonly buffer Field { vec4 FIELD[]; };
layout(push_constant) uniform Push {
  mat4 mvp;
  vec4 centre_scale;
  vec4 range;  // lo, hi, wireframe, field mode
};
layout(location = 0) out vec3 world;
layout(location = 1) out vec3 bary;
layout(location = 2) out float value;

void main() {
  uint t = uint(gl_VertexIndex) / 3u, c = uint(gl_VertexIndex) % 3u;
  uint v = TRI[t][c];
  world = (CRD[v].xyz - centre_scale.xyz) * centre_scale.w;
  bary = vec3(c == 0u, c == 1u, c == 2u);
  value = range.w == 1.0 ? FIELD[v].x : (range.w == 2.0 ? FIELD[t].x : 0.0);
  gl_Position = mvp * vec4(world.x, world.z, world.y, 1.0);  // the mesh's z is up
}
