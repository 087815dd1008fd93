#version 460
// exercise: diffusion/laplacian
// One explicit diffusion step T' = T + k·∇²T with the 5-point Laplacian (Bleton 2005, §4.4.2),
// k = Cd/4, on a width × height grid stored row by row. The checker binds SRC and DST as
// declared here, pushes the grid's size, k and the kind of border, and runs one invocation a
// cell in workgroups of 16 × 16.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer Src_block { float SRC[]; };
layout(std430, binding = 1) writeonly buffer Dst_block { float DST[]; };
layout(push_constant) uniform Push {
  ivec2 size;     // width, height
  float k;        // Cd / 4
  int insulated;  // 1: insulated border (no heat crosses it); 0: held at zero outside
};

bool outside(ivec2 p) { return p.x < 0 || p.y < 0 || p.x >= size.x || p.y >= size.y; }

// The value the Laplacian takes for the neighbour at p of a cell whose value is `self`.
float neighbour(ivec2 p, float self) {
  if (outside(p)) return 0.0;  // TODO: right for a border held at zero; an insulated one?
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
