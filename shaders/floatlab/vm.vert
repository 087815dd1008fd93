#version 460
#extension GL_GOOGLE_include_directive : require
// The float machine in the vertex stage: a point a program, placed outside the view (no
// fragment follows).
#include "vm.glsl"
void main() {
  if (gl_VertexIndex < count) run_program(gl_VertexIndex);
  gl_Position = vec4(2.0, 2.0, 0.5, 1.0);
  gl_PointSize = 1.0;
}
