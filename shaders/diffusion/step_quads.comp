#version 460
// diffusion/step.comp for grids whose width is a multiple of 4: an invocation computes a
// quad, 4 cells of a row, from vec4 loads of its quad and the quads above and below (a
// scalar cell an invocation, the H100 ran the step at 60 % of its saxpy bandwidth: loads,
// not bytes, were the limit). The same operations in the same order as step.comp.
//
// Specialization (Simulation::set_step_shape): the workgroup's quads across and rows down, and
// `kRows` quads down a column an invocation, the rows above and below kept in registers as it
// walks (each row read once a column instead of three times).
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const int kRows = 1;
layout(std430, binding = 0) readonly buffer Src { vec4 src[]; };
layout(std430, binding = 1) writeonly buffer Dst { vec4 dst[]; };
#define PUSH_DiffusionStepPush
#include "diffusion_push.h"

void main() {
  int row = size.x / 4;  // quads a row
  int x = int(gl_GlobalInvocationID.x), y0 = int(gl_GlobalInvocationID.y) * kRows;
  if (x >= row || y0 >= size.y) return;
  // Outside the grid: the cell's own value (zero flux) or zero (fixed boundary).
  bool own = insulated != 0;
  int q = y0 * row + x;
  vec4 t = src[q];
  vec4 up = y0 > 0 ? src[q - row] : (own ? t : vec4(0.0));
  for (int y = y0; y < min(y0 + kRows, size.y); ++y, q += row) {
    float lx = x > 0 ? src[q - 1].w : (own ? t.x : 0.0);
    float rx = x + 1 < row ? src[q + 1].x : (own ? t.w : 0.0);
    vec4 down = y + 1 < size.y ? src[q + row] : (own ? t : vec4(0.0));
    precise vec4 lap = (vec4(lx, t.xyz) + vec4(t.yzw, rx)) + (up + down) - 4.0 * t;
    precise vec4 next = t + k * lap;
    dst[q] = next;
    up = t;
    t = down;
  }
}
