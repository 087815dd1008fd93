// Verlet integration as the thesis's 'VERLET SUR GPU' lines 1-3 (Bleton 2005, §4.1.2.2), for
// both methods (verlet.comp, and tiles.comp before its relaxations): x' = (1+d)·x − d·x* + a·Δt²,
// d <= 1 the damping factor that replaces 2 (d = 1: none), a = gravity + wind along the normal,
// with gusts. Pinned particles (w = 0) stay put. The CPU twin: compute/cloth/reference.cpp.
// Needs: the buffers XP (x*) and N (normals), and the push constants width, gravity_dt2 (xyz:
// gravity·Δt², w: d) and wind_dt2 (xyz: wind·Δt², w: the gusts' phase).
vec3 verlet(uint i, vec4 p) {
  if (p.w == 0.0) return p.xyz;
  vec3 a = gravity_dt2.xyz;
  if (dot(wind_dt2.xyz, wind_dt2.xyz) > 0.0) {
    vec3 n = N[i].xyz;
    float gust = 1.0 + 0.5 * sin(wind_dt2.w + 0.11 * float(i % width) + 0.07 * float(i / width));
    a += gust * dot(n, wind_dt2.xyz) * n;
  }
  float d = gravity_dt2.w;
  return (1.0 + d) * p.xyz - d * XP[i].xyz + a;
}
