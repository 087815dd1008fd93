#version 460
// The N-buffer (nbuffer.prec.comp) with the tool's triangles in a bounding-volume hierarchy
// (compute/machining/bvh.h; SIMSURF §5.3.1, ch. 17): for each position the ray's line is brought
// into the tool's frame and the hierarchy walked with a stack, skipping a box the line misses and
// a box it enters beyond the lowest hit so far (no triangle there can lower the brin); the
// triangles of the leaves reached are placed and tested exactly as the brute-force kernel tests
// them, so the same lengths. TRI holds the triangles in the hierarchy's order.
#include "engine.glsl"
layout(std430, binding = 5) readonly buffer Rays { vec4 RAYS[]; };
struct Node {
  vec4 lo, hi;  // lo.w: first child or first triangle (bits); hi.w: a leaf's triangle count (bits), 0 inner
};
layout(std430, binding = 6) readonly buffer Nodes { Node NODE[]; };
const uint kStack = 48u;  // Bvh::kStack

// Where the line o + s·inv⁻¹ enters the box, or a value above `limit` when it misses it.
float entry(Node n, vec3 o, vec3 inv, float limit) {
  vec3 t1 = (n.lo.xyz - o) * inv, t2 = (n.hi.xyz - o) * inv;
  vec3 near3 = min(t1, t2), far3 = max(t1, t2);
  float near = max(max(near3.x, near3.y), near3.z), far = min(min(far3.x, far3.y), far3.z);
  return near <= far ? near : limit + 1.0;
}

void main() {
  for (uint k = gl_GlobalInvocationID.x; k < brin_count; k += STRIDE) {
    uint b = brin_first + k;
    int i = int(b % nx), j = int(b / nx);
    vec4 ray = RAYS[b];
    REAL3 D = REAL3(ray.xyz);
    KEY best = H[b];
    for (uint p = pos_first; p < pos_first + pos_count; ++p) {
      Pos P = POS[p];
      precise REAL3 o = REAL3(brin_at(P, i, j), REAL(ray.w) - REAL(P.t.z));
      vec3 c = vec3(dot3(P.r0.xyz, vec3(sx, sy, sz)), dot3(P.r1.xyz, vec3(sx, sy, sz)), dot3(P.r2.xyz, vec3(sx, sy, sz)));
      vec3 w = c - vec3(o);
      precise float along = dot3(w, ray.xyz), miss = dot3(w, w) - along * along;  // as nbuffer.prec.comp
      if (miss > sr * sr) continue;
      // the line in the tool's frame (the rotation's transpose), for the boxes only
      vec3 of = vec3(o), ot = vec3(dot3(vec3(P.r0.x, P.r1.x, P.r2.x), of), dot3(vec3(P.r0.y, P.r1.y, P.r2.y), of),
                                   dot3(vec3(P.r0.z, P.r1.z, P.r2.z), of));
      vec3 dt = vec3(dot3(vec3(P.r0.x, P.r1.x, P.r2.x), ray.xyz), dot3(vec3(P.r0.y, P.r1.y, P.r2.y), ray.xyz),
                     dot3(vec3(P.r0.z, P.r1.z, P.r2.z), ray.xyz));
      vec3 inv = vec3(1.0) / mix(dt, vec3(1e-30), lessThan(abs(dt), vec3(1e-30)));  // no 0 · inf in entry()
      uint stack[kStack];
      uint top = 0u;
      stack[top++] = 0u;
      while (top > 0u) {
        Node n = NODE[stack[--top]];
        float lowest = float(key_height(best));
        if (entry(n, ot, inv, lowest) > lowest) continue;
        uint first = floatBitsToUint(n.lo.w), count = floatBitsToUint(n.hi.w);
        if (count == 0u) {
          stack[top++] = first + 1u;
          stack[top++] = first;
          continue;
        }
        for (uint t = first; t < first + count; ++t) {
          REAL dist;
          if (hit_ray(place(P, t), o, D, dist)) best = min(best, height_key(dist));
        }
      }
    }
    H[b] = best;
  }
}
