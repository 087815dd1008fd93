#version 460
// The N-buffer (seed 003, §5.3; Jerard et al. 1989): brin b is the ray from its point of the
// starting surface along the surface's normal (RAYS[b]: normal xyz, surface height), and
// holds its length, lowered to the nearest point where the ray meets the tool (the lowest
// hit, as the Z-buffer keeps the lowest height). A thread owns a brin, as in the per-brin
// engine: no atomics. A position is skipped when the ray's line misses the tool's bounding
// sphere. Single precision (compute/machining/nbuffer.cpp is its CPU twin, the same bits).
#include "engine.glsl"
layout(std430, binding = 5) readonly buffer Rays { vec4 RAYS[]; };
void main() {
  for (uint k = gl_GlobalInvocationID.x; k < brin_count; k += STRIDE) {
    uint b = brin_first + k;
    int i = int(b % nx), j = int(b / nx);
    vec4 ray = RAYS[b];
    REAL3 D = REAL3(ray.xyz);
    KEY best = H[b];
    for (uint p = pos_first; p < pos_first + pos_count; ++p) {
      Pos P = POS[p];
      // the ray's origin relative to the tip (tool frame), and the sphere's centre
      precise REAL3 o = REAL3(brin_at(P, i, j), REAL(ray.w) - REAL(P.t.z));
      vec3 c = vec3(dot3(P.r0.xyz, vec3(sx, sy, sz)), dot3(P.r1.xyz, vec3(sx, sy, sz)), dot3(P.r2.xyz, vec3(sx, sy, sz)));
      vec3 w = c - vec3(o);
      precise float along = dot3(w, ray.xyz), miss = dot3(w, w) - along * along;  // as the CPU twin
      if (miss > sr * sr) continue;
      for (uint t = tri_first; t < tri_first + tri_count; ++t) {
        REAL dist;
        if (hit_ray(place(P, t), o, D, dist)) best = min(best, height_key(dist));
      }
    }
    H[b] = best;
  }
}
