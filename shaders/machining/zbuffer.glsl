// The Z-buffer intersection every machining engine shares (compute/machining/zbuffer.h
// is its CPU twin), so that every engine computes the same bits for a brin and a
// triangle: the minimum is order-independent, hence so are the heightfields.
// Tool frame (seed 003, §15.3.2, the default): the triangle is rotated with the tool but
// never translated; the brin is moved by the inverse translation instead, so every
// coordinate in the arithmetic is of the tool's size. FRAME = 1 (engine.glsl) computes in
// the world frame instead, the triangle translated to the position first (§15.3's first
// strategy, which the report shows unstable): the lesson of its figure 15.3. `precise`
// keeps the compiler from fusing multiply-adds differently in different kernels.
// Needs (engine.glsl): H (uint heights), TRI (vec4, 3 a triangle), POS (Pos) buffers
// and the push constants nx, ny, x0, y0, d.

#include "keys.glsl"

// FAST_MATH (seed 003 §15.5, CUDA's -use_fast_math): no `precise`, so the driver may fuse
// multiply-adds and reorder, and the division and square root are the driver's own (Vulkan
// allows a float division 2.5 ulp off); single precision only.
#ifndef FAST_MATH
#define FAST_MATH 0
#endif
#if FAST_MATH
#define precise
#endif

// The correctly rounded quotient, as the CPU's: a driver may compute a float division to
// 2.5 ulp (Vulkan's precision table), NVIDIA's does, so with EXACT_DIV the quotient goes
// through double (whose division every fp64 device we met rounds correctly; rounding the
// double quotient of two floats to float is then the correctly rounded float quotient,
// 53 >= 2·24 + 2). Without fp64 the float division stands (within an ulp of the CPU).
#ifndef EXACT_DIV
#define EXACT_DIV 0
#endif
#if (EXACT_DIV || HEIGHTS64) && !FAST_MATH
float quotient(float a, float b) { return float(double(a) / double(b)); }
vec2 quotient(vec2 a, float b) { return vec2(dvec2(a) / double(b)); }
#else
float quotient(float a, float b) { return a / b; }
vec2 quotient(vec2 a, float b) { return a / b; }
#endif
#if HEIGHTS64
double quotient(double a, double b) { return a / b; }
#endif

// Dot product in one fixed order with no fused multiply-add (dot() leaves both to the driver).
float dot3(vec3 a, vec3 b) {
  precise float s = a.x * b.x + a.y * b.y + a.z * b.z;
  return s;
}

// A triangle placed by a position's rotation (tool frame), or also translated (world frame):
// floats in the tool frame, the translation added in REAL.
struct Tri {
  REAL3 a, b, c;
  float area;  // twice the signed projected area in the tool frame; 0: seen edge-on, skipped
};

Tri place(Pos P, uint tri) {
  Tri t;
  vec3 v0 = TRI[3u * tri].xyz, v1 = TRI[3u * tri + 1u].xyz, v2 = TRI[3u * tri + 2u].xyz;
  precise vec3 a = vec3(dot3(P.r0.xyz, v0), dot3(P.r1.xyz, v0), dot3(P.r2.xyz, v0));
  precise vec3 b = vec3(dot3(P.r0.xyz, v1), dot3(P.r1.xyz, v1), dot3(P.r2.xyz, v1));
  precise vec3 c = vec3(dot3(P.r0.xyz, v2), dot3(P.r1.xyz, v2), dot3(P.r2.xyz, v2));
  t.a = REAL3(a), t.b = REAL3(b), t.c = REAL3(c);
  precise float area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  t.area = area;
  return t;
}

// The brins under the triangle's bounding box: (i_lo, j_lo, i_hi, j_hi), empty if lo > hi.
// t in the tool frame (the world frame's triangle covers the same brins but for its rounding).
ivec4 brin_range(Pos P, Tri t) {
  vec2 a = vec2(t.a.xy), b = vec2(t.b.xy), c = vec2(t.c.xy);  // floats: exact
  vec2 lo = min(min(a, b), c), hi = max(max(a, b), c);
  precise vec2 flo = quotient(P.t.xy + lo - vec2(x0, y0), d);
  precise vec2 fhi = quotient(P.t.xy + hi - vec2(x0, y0), d);
  ivec2 l = max(ivec2(ceil(flo)), ivec2(0)), h = min(ivec2(floor(fhi)), ivec2(int(nx) - 1, int(ny) - 1));
  return ivec4(l, h);
}

// The brin (i, j) relative to the tip, in the tool frame.
REAL2 brin_at(Pos P, int i, int j) {
  precise REAL2 p = REAL2(REAL(x0) + REAL(i) * REAL(d), REAL(y0) + REAL(j) * REAL(d)) - REAL2(P.t.xy);
  return p;
}

// Seed 003 §15.3: the tool-frame triangle t moved to the position, in the world frame.
Tri to_world(Pos P, Tri t) {
  REAL3 tip = REAL3(P.t.xyz);
  precise REAL3 a = t.a + tip, b = t.b + tip, c = t.c + tip;
  t.a = a, t.b = b, t.c = c;
  return t;
}

// The brin (i, j) in the frame FRAME names: relative to the tip (tool frame), or where it is
// (world frame); and a height the test found in that frame, in the world.
REAL2 brin_in_frame(Pos P, int i, int j) {
  if (FRAME == 0u) return brin_at(P, i, j);
  precise REAL2 p = REAL2(REAL(x0) + REAL(i) * REAL(d), REAL(y0) + REAL(j) * REAL(d));
  return p;
}
REAL height_in_world(Pos P, REAL z) {
  if (FRAME == 1u) return z;
  precise REAL h = REAL(P.t.z) + z;
  return h;
}

// Seed 003 §8.3, the rasterizer's test ("edge"): inside by edge functions (edges included),
// then the height by barycentric interpolation. REAL is float, or double with HEIGHTS64.
bool hit_edge(Pos P, Tri t, int i, int j, out REAL height) {
  REAL ax = t.a.x, ay = t.a.y, bx = t.b.x, by = t.b.y, cx = t.c.x, cy = t.c.y;
  REAL2 p = brin_in_frame(P, i, j);
  precise REAL w0 = (cx - bx) * (p.y - by) - (cy - by) * (p.x - bx);
  precise REAL w1 = (ax - cx) * (p.y - cy) - (ay - cy) * (p.x - cx);
  precise REAL w2 = (bx - ax) * (p.y - ay) - (by - ay) * (p.x - ax);
  precise REAL area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  if (area == 0.0) return false;  // only in the world frame: its rounding flattened the triangle
  bool inside = area > 0.0 ? (w0 >= 0.0 && w1 >= 0.0 && w2 >= 0.0) : (w0 <= 0.0 && w1 <= 0.0 && w2 <= 0.0);
  precise REAL z = quotient(w0 * t.a.z + w1 * t.b.z + w2 * t.c.z, area);
  height = height_in_world(P, z);
  return inside;
}

// Möller and Trumbore's epsilon: a triangle whose determinant is within it is seen edge-on.
const REAL HIT_EPSILON = REAL(1e-6);

// Seed 003 §8.2 ("zbuffer"): Möller–Trumbore with the ray (0, 0, 1) from the brin at z = 0,
// those constants propagated by hand, the triangle reoriented once so that the determinant
// (the projected area) is positive; u and v are the weights of c and b scaled by it.
bool hit_zbuffer(Pos P, Tri t, int i, int j, out REAL height) {
  REAL ax = t.a.x, ay = t.a.y, az = t.a.z;
  precise REAL det = (t.c.x - ax) * (ay - t.b.y) + (t.c.y - ay) * (t.b.x - ax);
  bool flip = det < -HIT_EPSILON;
  REAL3 f = flip ? t.b : t.c, s = flip ? t.c : t.b;  // e1 = f - a, e2 = s - a
  precise REAL e1x = f.x - ax, e1y = f.y - ay, e1z = f.z - az;
  precise REAL e2x = s.x - ax, e2y = s.y - ay, e2z = s.z - az;
  if (flip) det = -det;
  if (!(det > HIT_EPSILON)) return false;
  REAL2 p = brin_in_frame(P, i, j);
  precise REAL tx = p.x - ax, ty = p.y - ay, tz = -az;
  precise REAL u = tx * (-e2y) + ty * e2x;
  if (u < 0.0 || u > det) return false;
  precise REAL qx = ty * e1z - tz * e1y, qy = tz * e1x - tx * e1z, qz = tx * e1y - ty * e1x;
  precise REAL uv = u + qz;
  if (qz < 0.0 || uv > det) return false;
  precise REAL dist = quotient(e2x * qx + e2y * qy + e2z * qz, det);
  height = height_in_world(P, dist);
  return true;
}

// Seed 003 §8.1: Möller–Trumbore as published, the ray o + dist·D in t's frame (the
// N-buffer's rays along the surface normal, nbuffer.prec.comp, and hit_general's).
bool hit_ray(Tri t, REAL3 o, REAL3 D, out REAL dist) {
  REAL ax = t.a.x, ay = t.a.y, az = t.a.z;
  REAL Dx = D.x, Dy = D.y, Dz = D.z;
  precise REAL e1x = t.b.x - ax, e1y = t.b.y - ay, e1z = t.b.z - az;
  precise REAL e2x = t.c.x - ax, e2y = t.c.y - ay, e2z = t.c.z - az;
  precise REAL px = Dy * e2z - Dz * e2y, py = Dz * e2x - Dx * e2z, pz = Dx * e2y - Dy * e2x;  // D x e2
  precise REAL det = e1x * px + e1y * py + e1z * pz;
  if (det > -HIT_EPSILON && det < HIT_EPSILON) return false;
  precise REAL inv_det = quotient(REAL(1), det);
  precise REAL tx = o.x - ax, ty = o.y - ay, tz = o.z - az;
  precise REAL u = (tx * px + ty * py + tz * pz) * inv_det;
  if (u < 0.0 || u > 1.0) return false;
  precise REAL qx = ty * e1z - tz * e1y, qy = tz * e1x - tx * e1z, qz = tx * e1y - ty * e1x;  // t x e1
  precise REAL v = (Dx * qx + Dy * qy + Dz * qz) * inv_det;
  precise REAL uv = u + v;
  if (v < 0.0 || uv > 1.0) return false;
  precise REAL h = (e2x * qx + e2y * qy + e2z * qz) * inv_det;
  dist = h;
  return true;
}

// Seed 003 §8.1 ("general"): the vertical ray from the brin at z = 0; the direction is a
// run-time value here (the spacing's sign, +1), so the compiler cannot propagate (0, 0, 1)
// through it as §8.2 does by hand.
bool hit_general(Pos P, Tri t, int i, int j, out REAL height) {
  REAL dist;
  if (!hit_ray(t, REAL3(brin_in_frame(P, i, j), REAL(0)), REAL3(0, 0, sign(d)), dist)) return false;
  height = height_in_world(P, dist);
  return true;
}

// The intersection test HIT_TEST names (engine.glsl; compute/machining/zbuffer.h, enum HitTest),
// t placed in the frame FRAME names (in_frame()).
bool hit(Pos P, Tri t, int i, int j, out REAL height) {
  if (HIT_TEST == 1u) return hit_zbuffer(P, t, i, j, height);
  if (HIT_TEST == 2u) return hit_general(P, t, i, j, height);
  return hit_edge(P, t, i, j, height);
}

// The tool-frame triangle t in the frame FRAME names, for hit().
Tri in_frame(Pos P, Tri t) { return FRAME == 1u ? to_world(P, t) : t; }

// Lowers brin b to key k the way ATOMIC says.
void lower(uint b, KEY k) {
  if (ATOMIC == 0u) {
    atomicMin(H[b], k);
  } else if (ATOMIC == 1u) {  // retry while another invocation changed the brin between read and swap
    KEY seen = H[b];
    while (k < seen) {
      KEY was = atomicCompSwap(H[b], seen, k);
      if (was == seen) break;
      seen = was;
    }
  } else if (ATOMIC == 2u) {
    // The critical section sits inside the loop: invocations of a subgroup that run in lockstep
    // would otherwise wait at the loop's end for the one holding the lock, which never gets to
    // release it (a deadlock on SIMT hardware without independent forward progress). Inside,
    // the brin is read and written with atomics: plain accesses, even to a coherent buffer
    // between memory barriers, were moved across the lock by lavapipe. Taking the lock is an
    // acquire and freeing it a release: GLSL's plain atomics are relaxed, and with them an H100
    // let 61 of 1 048 576 brins of ebauche see the lock free before the previous holder's write
    // (bench section 7.5.4). But lavapipe loses most cuts of the position engine as soon as an
    // acquire, a release or a memory barrier stands in this loop, and its atomics are ordered
    // anyway (x86 read-modify-writes are full barriers): ORDERED_LOCK is off there.
    // Each attempt is one more loop iteration (work.h's budget leaves room).
    for (bool done = false; !done;) {
      uint was = ORDERED_LOCK
                     ? atomicExchange(LOCK[b], 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire)
                     : atomicExchange(LOCK[b], 1u);
      if (was == 0u) {
        if (k < atomicOr(H[b], KEY(0))) atomicExchange(H[b], k);
        if (ORDERED_LOCK)
          atomicExchange(LOCK[b], 0u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
        else
          atomicExchange(LOCK[b], 0u);
        done = true;
      }
    }
  } else if (k < H[b]) {
    H[b] = k;
  }
}

#include "analytic.glsl"

// Lowers every brin under one triangle at one position (the rows of this dispatch's slice); an
// analytic tool is one primitive, the tool itself.
void raster(uint tri, uint pos) {
  if (TOOL_MODEL == 1u) {
    raster_analytic(pos);
    return;
  }
  Pos P = POS[pos];
  Tri t = place(P, tri);
  if (t.area == 0.0) return;
  ivec4 r = brin_range(P, t);
  t = in_frame(P, t);
  int j0 = r.y + int(slice * slice_rows), j1 = min(r.w, j0 + int(slice_rows) - 1);
  for (int j = j0; j <= j1; ++j)
    for (int i = r.x; i <= r.z; ++i) {
      REAL h;
      if (hit(P, t, i, j, h)) lower(uint(j) * nx + uint(i), height_key(h));
    }
}
