#version 460
#extension GL_GOOGLE_include_directive : require
// The legend's triangles, built on the CPU in pixels (render/legend.cpp): position and colour.
#define PUSH_LegendPush
#include "render_push.h"
struct Vertex {
  vec4 pos;  // x, y in pixels from the top left
  vec4 color;
};
layout(std430, binding = 0) readonly buffer Vertices { Vertex v[]; };
layout(location = 0) out vec4 color;

void main() {
  Vertex x = v[gl_VertexIndex];
  gl_Position = vec4(x.pos.xy / extent * 2.0 - 1.0, 0.0, 1.0);
  color = x.color;
}
