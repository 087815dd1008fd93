#version 460
#extension GL_GOOGLE_include_directive : require
// The float machine in the fragment stage: pixel (x, y) of a `width`-wide view runs program
// y * width + x.
#include "vm.glsl"
void main() {
  uint p = uint(gl_FragCoord.y) * width + uint(gl_FragCoord.x);
  if (p < count) run_program(p);
}
