#version 460
#extension GL_GOOGLE_include_directive : require
// The float machine in the compute stage: an invocation a program.
layout(local_size_x = 64) in;
#include "vm.glsl"
void main() {
  if (gl_GlobalInvocationID.x < count) run_program(gl_GlobalInvocationID.x);
}
