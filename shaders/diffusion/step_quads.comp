#version 460
// diffusion/step.comp for grids whose width is a multiple of 4: an invocation computes a
// quad, 4 cells of a row, from vec4 loads of its quad and the quads above and below (a
// scalar cell an invocation, the H100 ran the step at 60 % of its saxpy bandwidth: loads,
// not bytes, were the limit). The same operations in the same order as step.comp.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer Src { vec4 src[]; };
layout(std430, binding = 1) writeonly buffer Dst { vec4 dst[]; };
#define PUSH_DiffusionStepPush
#include "diffusion_push.h"

void main() {
  int row = size.x / 4;  // quads a row
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);  // p.x: the quad within its row
  if (p.x >= row || p.y >= size.y) return;
  int q = p.y * row + p.x;
  vec4 t = src[q];
  // Outside the grid: the cell's own value (zero flux) or zero (fixed boundary).
  bool own = insulated != 0;
  float lx = p.x > 0 ? src[q - 1].w : (own ? t.x : 0.0);
  float rx = p.x + 1 < row ? src[q + 1].x : (own ? t.w : 0.0);
  vec4 up = p.y > 0 ? src[q - row] : (own ? t : vec4(0.0));
  vec4 down = p.y + 1 < size.y ? src[q + row] : (own ? t : vec4(0.0));
  precise vec4 lap = (vec4(lx, t.xyz) + vec4(t.yzw, rx)) + (up + down) - 4.0 * t;
  precise vec4 next = t + k * lap;
  dst[q] = next;
}
