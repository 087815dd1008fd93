#version 460
// exercise: diffusion/laplacian
// The solution, for teachers (and the tests): past an insulated border the missing neighbour
// has the cell's own value, so the flux across the border, their difference, is zero.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer Src_block { float SRC[]; };
layout(std430, binding = 1) writeonly buffer Dst_block { float DST[]; };
layout(push_constant) uniform Push {
  ivec2 size;     // width, height
  float k;        // Cd / 4
  int insulated;  // 1: insulated border (no heat crosses it); 0: held at zero outside
};

bool outside(ivec2 p) { return p.x < 0 || p.y < 0 || p.x >= size.x || p.y >= size.y; }

float neighbour(ivec2 p, float self) {
  if (outside(p)) return insulated != 0 ? self : 0.0;
  return SRC[p.y * size.x + p.x];
}

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (outside(p)) return;
  float t = SRC[p.y * size.x + p.x];
  float lap = (neighbour(p + ivec2(-1, 0), t) + neighbour(p + ivec2(1, 0), t)) +
              (neighbour(p + ivec2(0, -1), t) + neighbour(p + ivec2(0, 1), t)) - 4.0 * t;
  DST[p.y * size.x + p.x] = t + k * lap;
}
