// The CPU engine's triangle: placed by a position's rotation, then its edge terms in the
// engine's precision, as the shaders' hit() forms them.
#pragma once

#include "compute/machining/zbuffer.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace machining {

struct Placed {
  glm::vec3 a, b, c;
  float area;
};
inline Placed place(const PackedPosition& P, const glm::vec3* v) {
  auto rot = [&](glm::vec3 x) {
    return glm::vec3(P.r0.x * x.x + P.r0.y * x.y + P.r0.z * x.z, P.r1.x * x.x + P.r1.y * x.y + P.r1.z * x.z,
                     P.r2.x * x.x + P.r2.y * x.y + P.r2.z * x.z);
  };
  Placed t{rot(v[0]), rot(v[1]), rot(v[2]), 0};
  t.area = (t.b.x - t.a.x) * (t.c.y - t.a.y) - (t.b.y - t.a.y) * (t.c.x - t.a.x);
  return t;
}
// A placed triangle's edge terms in the engine's precision R, as the shaders' hit()
// forms them (zbuffer.glsl): the same operations, so the same bits. In the tool frame, or
// in the world frame (world(), seed 003 §15.3, unstable): moved to the tip, the translation
// added in R as zbuffer.glsl's to_world() does.
template <class R>
struct Edges {
  R ax, ay, bx, by, cx, cy, az, bz, cz;
  R cbx, cby, acx, acy, bax, bay, area;  // c - b, a - c, b - a; twice the signed area
  R zlo;                                 // at most every height below the tip hit() computes
  Edges() = default;
  explicit Edges(const Placed& t)
      : Edges(R(t.a.x), R(t.a.y), R(t.b.x), R(t.b.y), R(t.c.x), R(t.c.y), R(t.a.z), R(t.b.z), R(t.c.z)) {}
  static Edges world(const Placed& t, glm::vec3 tip) {
    const R x = tip.x, y = tip.y, z = tip.z;
    return Edges(R(t.a.x) + x, R(t.a.y) + y, R(t.b.x) + x, R(t.b.y) + y, R(t.c.x) + x, R(t.c.y) + y, R(t.a.z) + z,
                 R(t.b.z) + z, R(t.c.z) + z);
  }
  Edges(R ax, R ay, R bx, R by, R cx, R cy, R az, R bz, R cz)
      : ax(ax),
        ay(ay),
        bx(bx),
        by(by),
        cx(cx),
        cy(cy),
        az(az),
        bz(bz),
        cz(cz),
        cbx(cx - bx),
        cby(cy - by),
        acx(ax - cx),
        acy(ay - cy),
        bax(bx - ax),
        bay(by - ay),
        area((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)),
        zlo(lowest()) {}
  // For a brin inside, hit()'s weights w0, w1, w2 have the sign of the area and would sum to it
  // but for the rounding of the edge functions: each within 4u (|e.x| |p.y - v.y| + |e.y| |p.x - v.x|)
  // <= 8u L² (u: the unit roundoff of R, L: the longest edge; a brin tested is in the triangle's
  // box), the area within 8u L² too. So the quotient is a weighted mean of az, bz, cz scaled by
  // 1 +- delta, delta = 32u L² / |area| (to first order), off by 3u |z|max more for the products'
  // and sums' rounding and u for the division: it is at least zmin - 2 |z|max (delta + 4u).
  // Doubled for what the first order leaves out; rounded down into R.
  R lowest() const {
    double u = std::numeric_limits<R>::epsilon() / 2;
    double l2 = std::max({double(cbx) * cbx + double(cby) * cby, double(acx) * acx + double(acy) * acy,
                          double(bax) * bax + double(bay) * bay});
    double zmax = std::max({std::fabs(double(az)), std::fabs(double(bz)), std::fabs(double(cz))});
    double delta = 64 * u * l2 / std::fabs(double(area));
    double lo = std::min({double(az), double(bz), double(cz)}) - 4 * zmax * (delta + 4 * u);
    if (!(lo > -std::numeric_limits<double>::max())) return -std::numeric_limits<R>::infinity();
    R r = R(lo);
    return double(r) > lo ? std::nextafter(r, -std::numeric_limits<R>::infinity()) : r;
  }
  // Brin at (px, py) relative to the tip: inside by edge functions (edges included), then the
  // height below the tip by barycentric interpolation. The CPU engine runs these operations four
  // brins at a time (cpu_engine.cpp); this is their one-brin statement.
  bool hit(R px, R py, R& z) const {
    R w0 = cbx * (py - by) - cby * (px - bx);
    R w1 = acx * (py - cy) - acy * (px - cx);
    R w2 = bax * (py - ay) - bay * (px - ax);
    bool inside = area > 0 ? (w0 >= 0 && w1 >= 0 && w2 >= 0) : (w0 <= 0 && w1 <= 0 && w2 <= 0);
    if (inside) z = (w0 * az + w1 * bz + w2 * cz) / area;
    return inside;
  }

  // Seed 003 §8.2 and §8.1, as zbuffer.glsl's hit_zbuffer() and hit_general() compute them:
  // Möller–Trumbore for the ray (0, 0, 1) from the brin at z = 0, with those constants
  // propagated by hand and the triangle reoriented, or as published. z: the height below the tip.
  bool hit_zbuffer(R px, R py, R& z) const {
    const R eps = R(1e-6f);
    R det = (cx - ax) * (ay - by) + (cy - ay) * (bx - ax);
    const bool flip = det < -eps;
    R e1x = (flip ? bx : cx) - ax, e1y = (flip ? by : cy) - ay, e1z = (flip ? bz : cz) - az;
    R e2x = (flip ? cx : bx) - ax, e2y = (flip ? cy : by) - ay, e2z = (flip ? cz : bz) - az;
    if (flip) det = -det;
    if (!(det > eps)) return false;
    R tx = px - ax, ty = py - ay, tz = -az;
    R u = tx * (-e2y) + ty * e2x;
    if (u < 0 || u > det) return false;
    R qx = ty * e1z - tz * e1y, qy = tz * e1x - tx * e1z, qz = tx * e1y - ty * e1x;
    if (qz < 0 || u + qz > det) return false;
    z = (e2x * qx + e2y * qy + e2z * qz) / det;
    return true;
  }
  bool hit_general(R px, R py, R& z) const {
    const R eps = R(1e-6f), Dx = 0, Dy = 0, Dz = 1;
    R e1x = bx - ax, e1y = by - ay, e1z = bz - az;
    R e2x = cx - ax, e2y = cy - ay, e2z = cz - az;
    R qx0 = Dy * e2z - Dz * e2y, qy0 = Dz * e2x - Dx * e2z, qz0 = Dx * e2y - Dy * e2x;  // D x e2
    R det = e1x * qx0 + e1y * qy0 + e1z * qz0;
    if (det > -eps && det < eps) return false;
    R inv_det = R(1) / det;
    R tx = px - ax, ty = py - ay, tz = R(0) - az;
    R u = (tx * qx0 + ty * qy0 + tz * qz0) * inv_det;
    if (u < 0 || u > 1) return false;
    R qx = ty * e1z - tz * e1y, qy = tz * e1x - tx * e1z, qz = tx * e1y - ty * e1x;  // t x e1
    R v = (Dx * qx + Dy * qy + Dz * qz) * inv_det;
    if (v < 0 || u + v > 1) return false;
    z = (e2x * qx + e2y * qy + e2z * qz) * inv_det;
    return true;
  }
  bool hit(HitTest test, R px, R py, R& z) const {
    return test == HitTest::Zbuffer   ? hit_zbuffer(px, py, z)
           : test == HitTest::General ? hit_general(px, py, z)
                                      : hit(px, py, z);
  }
};

}  // namespace machining
