#version 460
// exercise: wave/rhs
// The right-hand side of one implicit wave step (Bleton 2005, §4.2), matrix-free:
//   b = P·h + Q·h⁻'   with   h⁻' = h⁻ + γ·(h − h⁻),   P = p0·I + p1·S,   Q = q0·I + q1·S
// S: the sum of a cell's 4 neighbours, heights zero outside the grid; γ: the cell's damping.
// The checker binds H (h), PREV (h⁻) and B as declared here, pushes the grid's size, the
// scheme's weights and the damping, and runs one invocation a cell in workgroups of 16 × 16.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer H_block { float H[]; };
layout(std430, binding = 1) readonly buffer Prev_block { float PREV[]; };
layout(std430, binding = 2) writeonly buffer B_block { float B[]; };
layout(push_constant) uniform Push {
  uint width, height;
  float p0, p1, q0, q1;          // the scheme's weights of h and h⁻' and of their neighbours
  float damping, sponge_damping;  // γ everywhere, and added at the outermost cells
  uint sponge;                    // the absorbing border's width in cells (0: none)
};

// γ of cell (x, y): uniform damping plus a sponge ramping up quadratically towards the border.
float damping_at(uint x, uint y) {
  float g = damping;
  if (sponge > 0u) {
    uint d = min(min(x, y), min(width - 1u - x, height - 1u - y));
    if (d < sponge) {
      float t = float(sponge - d) / float(sponge);
      g += sponge_damping * t * t;
    }
  }
  return min(g, 1.0);
}

float h_at(int x, int y) {
  return x < 0 || y < 0 || x >= int(width) || y >= int(height) ? 0.0 : H[uint(y) * width + uint(x)];
}
float prev_at(int x, int y) {
  if (x < 0 || y < 0 || x >= int(width) || y >= int(height)) return 0.0;
  return PREV[uint(y) * width + uint(x)];  // TODO: h⁻' — the damping is missing
}

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= int(width) || p.y >= int(height)) return;
  float sh = ((h_at(p.x - 1, p.y) + h_at(p.x + 1, p.y)) + h_at(p.x, p.y - 1)) + h_at(p.x, p.y + 1);
  float sq = ((prev_at(p.x - 1, p.y) + prev_at(p.x + 1, p.y)) + prev_at(p.x, p.y - 1)) + prev_at(p.x, p.y + 1);
  B[uint(p.y) * width + uint(p.x)] = (p0 * h_at(p.x, p.y) + p1 * sh) + (q0 * prev_at(p.x, p.y) + q1 * sq);
}
