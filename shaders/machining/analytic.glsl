// Analytic tools (seed 003 ch. 12): the tool as its exact surface, intersected with each brin's
// vertical line, instead of as a triangle mesh. compute/machining/analytic.h is the CPU twin:
// the same operations in the same order, so the same bits where root() and quotient() round
// correctly (EXACT_DIV: through double).
// TRI[0] = (shape, radius, corner, height): 0 ball end (a sphere of the radius, centre one
// radius above the tip), 1 bull nose (a torus: tube of radius `corner` around a circle of radius
// radius − corner at height corner; no flat bottom, as the mesh), 2 cone (tip down, the radius at `height`), 3 flat end (a
// cylinder of the radius and height). TRI[1 + k].xy, k < 64: unit directions around the axis,
// where a tilted torus is sampled first.

#if (EXACT_DIV || HEIGHTS64) && !FAST_MATH
float root(float x) { return float(sqrt(double(x))); }
#else
float root(float x) { return sqrt(x); }
#endif
#if HEIGHTS64
double root(double x) { return sqrt(x); }
#endif

const REAL NO_HIT = REAL(3.0e38);
const uint TORUS_SAMPLES = 64u, TORUS_REFINE = 24u;
const float TORUS_SPAN = 0.0985;  // tan(2π/64): a sample's neighbours on either side
const float GOLDEN = 0.618034;

// Ball end: the sphere's centre is the tip plus radius times the axis (third column of R).
REAL ball_hit(Pos P, REAL2 p, REAL r) {
  precise REAL dx = p.x - r * REAL(P.r0.z), dy = p.y - r * REAL(P.r1.z);
  precise REAL s = r * r - (dx * dx + dy * dy);
  if (s < REAL(0)) return NO_HIT;
  precise REAL z = r * REAL(P.r2.z) - root(s);
  return z;
}

// A cone or a cylinder of height h whose radius at tool height z is k·z + b0, capped: the
// brin's line q + t·u in the tool frame enters it on the side (a root of a quadratic) or
// through a cap. Returns the entry's t, the height above the tip.
REAL revolved_hit(Pos P, REAL2 p, REAL k, REAL b0, REAL h) {
  precise REAL qx = p.x * REAL(P.r0.x) + p.y * REAL(P.r1.x);
  precise REAL qy = p.x * REAL(P.r0.y) + p.y * REAL(P.r1.y);
  precise REAL qz = p.x * REAL(P.r0.z) + p.y * REAL(P.r1.z);
  REAL ux = REAL(P.r2.x), uy = REAL(P.r2.y), uz = REAL(P.r2.z);
  REAL best = NO_HIT;
  precise REAL rq = k * qz + b0, ku = k * uz;
  precise REAL A = (ux * ux + uy * uy) - ku * ku;
  precise REAL B = (qx * ux + qy * uy) - ku * rq;
  precise REAL C = (qx * qx + qy * qy) - rq * rq;
  precise REAL disc = B * B - A * C;
  if (disc >= REAL(0)) {
    precise REAL s = root(disc);
    precise REAL q = B >= REAL(0) ? -(B + s) : s - B;  // the roots q / A and C / q, without cancellation
    if (q != REAL(0)) {
      for (int n = 0; n < 2; ++n) {
        if (n == 0 && A == REAL(0)) continue;
        precise REAL t = n == 0 ? quotient(q, A) : quotient(C, q);
        precise REAL z = qz + t * uz;
        if (z >= REAL(0) && z <= h) best = min(best, t);
      }
    }
  }
  if (uz != REAL(0)) {
    for (int n = 0; n < 2; ++n) {
      if (n == 0 && b0 == REAL(0)) continue;  // a cone's apex: no bottom cap
      REAL zc = n == 0 ? REAL(0) : h;
      precise REAL t = quotient(zc - qz, uz);
      precise REAL x = qx + t * ux, y = qy + t * uy, rc = k * zc + b0;
      precise REAL x2 = x * x + y * y, rc2 = rc * rc;
      if (x2 <= rc2) best = min(best, t);
    }
  }
  return best;
}

// The lowest point over the brin of the ball of radius c centred on the torus's core circle in
// the unit direction (cx, cy) of the tool frame, relative to the tip.
REAL core_ball(Pos P, REAL2 p, REAL cx, REAL cy, REAL R, REAL c) {
  precise REAL lx = R * cx, ly = R * cy;
  precise REAL wx = (lx * REAL(P.r0.x) + ly * REAL(P.r0.y)) + c * REAL(P.r0.z);
  precise REAL wy = (lx * REAL(P.r1.x) + ly * REAL(P.r1.y)) + c * REAL(P.r1.z);
  precise REAL wz = (lx * REAL(P.r2.x) + ly * REAL(P.r2.y)) + c * REAL(P.r2.z);
  precise REAL dx = p.x - wx, dy = p.y - wy;
  precise REAL s = c * c - (dx * dx + dy * dy);
  if (s < REAL(0)) return NO_HIT;
  precise REAL z = wz - root(s);
  return z;
}

REAL core_ball_at(Pos P, REAL2 p, REAL2 d0, REAL s, REAL R, REAL c) {
  precise REAL vx = d0.x - s * d0.y, vy = d0.y + s * d0.x;
  precise REAL n = root(vx * vx + vy * vy);
  return core_ball(P, p, quotient(vx, n), quotient(vy, n), R, c);
}

// Bull nose: the solid torus is the union of balls of radius c centred on its core circle. With
// the axis vertical the lowest one over the brin lies in the brin's direction (closed form);
// tilted, the lowest is searched: 64 directions, then a golden-section search between the best
// one's neighbours.
REAL torus_hit(Pos P, REAL2 p, REAL r, REAL c) {
  precise REAL R = r - c;
  if (P.r2.z == 1.0) {
    precise REAL e = root(p.x * p.x + p.y * p.y) - R;
    precise REAL s = c * c - e * e;
    if (s < REAL(0)) return NO_HIT;
    precise REAL z = c - root(s);
    return z;
  }
  REAL best = NO_HIT;
  uint at = 0u;
  for (uint k = 0u; k < TORUS_SAMPLES; ++k) {
    REAL z = core_ball(P, p, REAL(TRI[1u + k].x), REAL(TRI[1u + k].y), R, c);
    if (z < best) best = z, at = k;
  }
  if (best == NO_HIT) return NO_HIT;
  REAL2 d0 = REAL2(TRI[1u + at].xy);
  precise REAL a = -REAL(TORUS_SPAN), b = REAL(TORUS_SPAN), g = REAL(GOLDEN);
  precise REAL x1 = b - g * (b - a), x2 = a + g * (b - a);
  REAL f1 = core_ball_at(P, p, d0, x1, R, c), f2 = core_ball_at(P, p, d0, x2, R, c);
  for (uint n = 0u; n < TORUS_REFINE; ++n) {
    best = min(best, min(f1, f2));
    if (f1 < f2) {
      b = x2, x2 = x1, f2 = f1;
      x1 = b - g * (b - a);
      f1 = core_ball_at(P, p, d0, x1, R, c);
    } else {
      a = x1, x1 = x2, f1 = f2;
      x2 = a + g * (b - a);
      f2 = core_ball_at(P, p, d0, x2, R, c);
    }
  }
  return min(best, min(f1, f2));
}

// The analytic tool's lowest point over brin (i, j) at position P.
bool hit_analytic(Pos P, int i, int j, out REAL height) {
  vec4 tool = TRI[0];
  REAL2 p = brin_at(P, i, j);
  REAL r = REAL(tool.y), c = REAL(tool.z), h = REAL(tool.w);
  REAL z = NO_HIT;
  uint shape = uint(tool.x);
  if (shape == 0u)
    z = ball_hit(P, p, r);
  else if (shape == 1u)
    z = torus_hit(P, p, r, c);
  else if (shape == 2u)
    z = revolved_hit(P, p, quotient(r, h), REAL(0), h);
  else
    z = revolved_hit(P, p, REAL(0), r, h);
  if (z == NO_HIT) return false;
  precise REAL at = REAL(P.t.z) + z;
  height = at;
  return true;
}

// Lowers every brin under the placed tool's box at one position (the rows of this dispatch's slice).
void raster_analytic(uint pos) {
  Pos P = POS[pos];
  precise vec2 flo = quotient(P.t.xy + vec2(P.r0.w, P.r1.w) - vec2(x0, y0), d);
  precise vec2 fhi = quotient(P.t.xy + vec2(P.r2.w, P.t.w) - vec2(x0, y0), d);
  ivec2 l = max(ivec2(ceil(flo)), ivec2(0)), h = min(ivec2(floor(fhi)), ivec2(int(nx) - 1, int(ny) - 1));
  int j0 = l.y + int(slice * slice_rows), j1 = min(h.y, j0 + int(slice_rows) - 1);
  for (int j = j0; j <= j1; ++j)
    for (int i = l.x; i <= h.x; ++i) {
      REAL z;
      if (hit_analytic(P, i, j, z)) lower(uint(j) * nx + uint(i), height_key(z));
    }
}
