#version 460
// A triangle over the whole view, for vm.frag.
void main() {
  vec2 p = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
  gl_Position = vec4(p * 2.0 - 1.0, 0.5, 1.0);
}
