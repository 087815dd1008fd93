#version 460
#extension GL_GOOGLE_include_directive : require
// The legend's triangles, built on the CPU in pixels (render/text_mesh.cpp): position and the
// font atlas's uv (-1 for solid quads), then colour.
#define PUSH_LegendPush
#include "render_push.h"
struct Vertex {
  vec4 pos;  // x, y in pixels from the top left; u, v in the atlas
  vec4 color;
};
layout(std430, binding = 0) readonly buffer Vertices { Vertex v[]; };
layout(location = 0) out vec4 color;
layout(location = 1) out vec2 uv;

void main() {
  Vertex x = v[gl_VertexIndex];
  gl_Position = vec4(x.pos.xy / extent * 2.0 - 1.0, 0.0, 1.0);
  color = x.color;
  uv = x.pos.zw;
}
