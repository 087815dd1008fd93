#version 460
// exercise: machining/intersection
// The solution, for teachers (and the tests): a triangle seen from below winds the other way,
// its area and all three edge functions then negative: inside is "all three of the area's
// sign", edges included (>= and <=), so that a brin on an edge shared by two triangles is under
// both, never under neither. The starting kernel sees only the triangles wound one way.
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
    bool inside = area > 0.0 ? (w0 >= 0.0 && w1 >= 0.0 && w2 >= 0.0) : (w0 <= 0.0 && w1 <= 0.0 && w2 <= 0.0);
    if (inside) {
      precise float z = (w0 * a.z + w1 * v.z + w2 * c.z) / area;
      best = min(best, tip_z + z);
    }
  }
  H[b.y * nx + b.x] = best;
}
