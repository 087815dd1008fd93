#version 460
// exercise: machining/atomic-lowering
// The solution, for teachers (and the tests): atomicMin on the keys, one indivisible
// read-compare-write (SIMSURF §7.5.3, the dedicated instruction).
// The Z-buffer's lowering (Abecassis 2012, SIMSURF, ch. 5-8): the stock is a grid of brins, each
// a height; one invocation takes one triangle of the tool at one position of the path and lowers
// every brin under it to the tool's height there. Heights are stored as order-preserving keys
// (§15.1): a smaller key is a lower height. The checker binds H, TRI and POS as declared here,
// pushes the grid and the counts, and runs one invocation a (triangle, position) pair.
// The intersection below is the machining lab's (shaders/machining/zbuffer.glsl, in the tool's
// frame, single precision, the quotient rounded through double as the lab does where fp64 is
// there); leave it as it is: the check wants the lab's heights bit for bit.
layout(local_size_x = 64) in;
struct Pos {
  vec4 t;           // the tool's tip (xyz)
  vec4 r0, r1, r2;  // the rotation's rows (xyz): tool frame -> world
};
layout(std430, binding = 0) buffer Heights_block { uint H[]; };  // a key a brin, row by row
layout(std430, binding = 1) readonly buffer Tris_block { vec4 TRI[]; };  // 3 vertices a triangle, tool frame
layout(std430, binding = 2) readonly buffer Positions_block { Pos POS[]; };
layout(push_constant) uniform Push {
  uint nx, ny;      // brins
  float x0, y0, d;  // brin (i, j) at (x0 + i·d, y0 + j·d)
  uint tri_count, pos_count;
};

uint height_key(float h) {
  uint b = floatBitsToUint(h);
  return (b & 0x80000000u) != 0u ? ~b : b | 0x80000000u;
}
float quotient(float a, float b) { return float(double(a) / double(b)); }
float dot3(vec3 a, vec3 b) {
  precise float s = a.x * b.x + a.y * b.y + a.z * b.z;
  return s;
}

struct Tri {
  vec3 a, b, c;
  float area;
};
Tri place(Pos P, uint tri) {
  vec3 v0 = TRI[3u * tri].xyz, v1 = TRI[3u * tri + 1u].xyz, v2 = TRI[3u * tri + 2u].xyz;
  precise vec3 a = vec3(dot3(P.r0.xyz, v0), dot3(P.r1.xyz, v0), dot3(P.r2.xyz, v0));
  precise vec3 b = vec3(dot3(P.r0.xyz, v1), dot3(P.r1.xyz, v1), dot3(P.r2.xyz, v1));
  precise vec3 c = vec3(dot3(P.r0.xyz, v2), dot3(P.r1.xyz, v2), dot3(P.r2.xyz, v2));
  precise float area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  return Tri(a, b, c, area);
}
// The brins under the triangle's bounding box: (i_lo, j_lo, i_hi, j_hi).
ivec4 brin_range(Pos P, Tri t) {
  vec2 lo = min(min(t.a.xy, t.b.xy), t.c.xy), hi = max(max(t.a.xy, t.b.xy), t.c.xy);
  precise vec2 flo = vec2(quotient(P.t.x + lo.x - x0, d), quotient(P.t.y + lo.y - y0, d));
  precise vec2 fhi = vec2(quotient(P.t.x + hi.x - x0, d), quotient(P.t.y + hi.y - y0, d));
  ivec2 l = max(ivec2(ceil(flo)), ivec2(0)), h = min(ivec2(floor(fhi)), ivec2(int(nx) - 1, int(ny) - 1));
  return ivec4(l, h);
}
// Seed 003 §8.3: inside by edge functions, the height by barycentric interpolation.
bool hit(Pos P, Tri t, int i, int j, out float height) {
  precise vec2 p = vec2(x0 + float(i) * d, y0 + float(j) * d) - P.t.xy;
  precise float w0 = (t.c.x - t.b.x) * (p.y - t.b.y) - (t.c.y - t.b.y) * (p.x - t.b.x);
  precise float w1 = (t.a.x - t.c.x) * (p.y - t.c.y) - (t.a.y - t.c.y) * (p.x - t.c.x);
  precise float w2 = (t.b.x - t.a.x) * (p.y - t.a.y) - (t.b.y - t.a.y) * (p.x - t.a.x);
  precise float area = (t.b.x - t.a.x) * (t.c.y - t.a.y) - (t.b.y - t.a.y) * (t.c.x - t.a.x);
  if (area == 0.0) return false;
  bool inside = area > 0.0 ? (w0 >= 0.0 && w1 >= 0.0 && w2 >= 0.0) : (w0 <= 0.0 && w1 <= 0.0 && w2 <= 0.0);
  precise float z = quotient(w0 * t.a.z + w1 * t.b.z + w2 * t.c.z, area);
  precise float h = P.t.z + z;
  height = h;
  return inside;
}

// Lowers brin b to key k.
void lower(uint b, uint k) {
  atomicMin(H[b], k);
}

void main() {
  uint k = gl_GlobalInvocationID.x;
  if (k >= tri_count * pos_count) return;
  uint pos = k % pos_count, tri = k / pos_count;  // neighbouring invocations: one triangle at neighbouring positions
  Pos P = POS[pos];
  Tri t = place(P, tri);
  if (t.area == 0.0) return;
  ivec4 r = brin_range(P, t);
  for (int j = r.y; j <= r.w; ++j)
    for (int i = r.x; i <= r.z; ++i) {
      float h;
      if (hit(P, t, i, j, h)) lower(uint(j) * nx + uint(i), height_key(h));
    }
}
