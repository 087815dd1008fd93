// Contact with the sphere and the ground, as every relaxation ends (compute/cloth/cloth.cpp
// has its CPU twin, collide_cpu). A particle closer than `thickness` to a surface is pushed
// out along the surface normal by its penetration p; then Coulomb friction (position-based,
// after Macklin et al. 2014): of its tangential motion since the start of the step, up to
// friction·p is taken back — all of it while it is smaller (static friction, the cloth
// sticks), else that much (kinetic friction, it slides and slows).
// Needs: sphere (xyz centre, w radius; <= 0 none), ground (y; very negative: none),
// thickness and friction.
vec3 friction_after(vec3 x, vec3 x0, vec3 n, float p) {
  precise vec3 dx = x - x0;
  precise vec3 t = dx - dot(dx, n) * n;
  float lt = length(t);
  if (lt > 0.0) x -= t * min(friction * p / lt, 1.0);
  return x;
}

vec3 collide(vec3 x, vec3 x0) {
  if (sphere.w > 0.0) {
    precise vec3 r = x - sphere.xyz;
    precise float d = length(r);
    float reach = sphere.w + thickness;
    if (d < reach && d > 0.0) {
      vec3 n = r / d;
      precise float p = reach - d;
      x = sphere.xyz + n * reach;
      x = friction_after(x, x0, n, p);
    }
  }
  float floor_y = ground + thickness;
  if (x.y < floor_y) {
    float p = floor_y - x.y;
    x.y = floor_y;
    x = friction_after(x, x0, vec3(0.0, 1.0, 0.0), p);
  }
  return x;
}
