#version 460
// The tool mesh at one position: rotated, moved to the tip, in the stock view's frame.
layout(std430, binding = 0) readonly buffer Tris { vec4 TRI[]; };
layout(push_constant) uniform Push {
  mat4 mvp;
  vec4 view;  // scale, height_scale, centre x, centre y
  vec4 r0, r1, r2;  // rotation rows; w: the tip (z from the stock top)
};
layout(location = 0) out vec3 normal_src;

void main() {
  vec3 v = TRI[gl_VertexIndex].xyz;
  vec3 w = vec3(dot(r0.xyz, v), dot(r1.xyz, v), dot(r2.xyz, v)) + vec3(r0.w, r1.w, r2.w);
  vec3 world = vec3(w.x - view.z, w.z * view.y, w.y - view.w) * view.x;
  normal_src = world;
  gl_Position = mvp * vec4(world, 1.0);
}
