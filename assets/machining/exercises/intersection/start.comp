#version 460
// exercise: machining/intersection
// The brin-triangle intersection every machining engine runs (Abecassis 2012, SIMSURF, §8.3,
// the rasterizer's test): a brin (a vertical column of the stock, at the grid point
// (x0 + i·d, y0 + j·d)) is under a triangle of the tool when its point is inside the
// triangle's projection on the xy plane; the tool's surface is then at the height the
// triangle's plane has there, and the brin is cut down to it if that is lower.
// The checker binds H (the brins' heights, row-major, nx a row) and TRI (the tool's triangles
// at this position, three vec4 a triangle, relative to the tool's tip: the tool frame), pushes
// the grid, the triangle count and the tip, and runs one invocation a brin in 8 x 8 workgroups.
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, binding = 0) buffer H_block { float H[]; };
layout(std430, binding = 1) readonly buffer Tri_block { vec4 TRI[]; };
layout(push_constant) uniform Push {
  uint nx, ny;       // brins
  float x0, y0, d;   // brin (i, j) at (x0 + i·d, y0 + j·d)
  uint tri_count;    // triangles
  float tip_x, tip_y, tip_z;  // the tool's tip
};

void main() {
  uvec2 b = gl_GlobalInvocationID.xy;
  if (b.x >= nx || b.y >= ny) return;
  // The brin relative to the tip, in the tool frame.
  precise vec2 p = vec2(x0 + float(b.x) * d, y0 + float(b.y) * d) - vec2(tip_x, tip_y);
  float best = H[b.y * nx + b.x];
  for (uint t = 0u; t < tri_count; ++t) {
    vec3 a = TRI[3u * t].xyz, v = TRI[3u * t + 1u].xyz, c = TRI[3u * t + 2u].xyz;
    // Edge functions: twice the signed areas of (v, c, p), (c, a, p) and (a, v, p).
    precise float w0 = (c.x - v.x) * (p.y - v.y) - (c.y - v.y) * (p.x - v.x);
    precise float w1 = (a.x - c.x) * (p.y - c.y) - (a.y - c.y) * (p.x - c.x);
    precise float w2 = (v.x - a.x) * (p.y - a.y) - (v.y - a.y) * (p.x - a.x);
    precise float area = (v.x - a.x) * (c.y - a.y) - (v.y - a.y) * (c.x - a.x);
    if (area == 0.0) continue;  // seen edge-on
    if (w0 >= 0.0 && w1 >= 0.0 && w2 >= 0.0) {  // inside: the test the textbooks draw
      precise float z = (w0 * a.z + w1 * v.z + w2 * c.z) / area;
      best = min(best, tip_z + z);
    }
  }
  H[b.y * nx + b.x] = best;
}
