#version 460
// The per-brin engine (seed 003, §5.3, §6.3.1, the N-buffer's way): a thread owns one brin
// and looks at every position whose tool bounding box covers it, then at every triangle
// whose bounding box does; it keeps the lowest hit itself, so it needs no atomics.
#include "engine.glsl"
void main() {
  for (uint k = gl_GlobalInvocationID.x; k < brin_count; k += STRIDE) {
    uint b = brin_first + k;
    int i = int(b % nx), j = int(b / nx);
    KEY best = H[b];
    for (uint p = pos_first; p < pos_first + pos_count; ++p) {
      Pos P = POS[p];
      vec2 rel = vec2(x0 + float(i) * d, y0 + float(j) * d) - P.t.xy;
      if (rel.x < P.r0.w - d || rel.y < P.r1.w - d || rel.x > P.r2.w + d || rel.y > P.t.w + d) continue;
      if (TOOL_MODEL == 1u) {
        REAL h;
        if (hit_analytic(P, i, j, h)) best = min(best, height_key(h));
        continue;
      }
      for (uint t = tri_first; t < tri_first + tri_count; ++t) {
        Tri tr = place(P, t);
        if (tr.area == 0.0) continue;
        ivec4 r = brin_range(P, tr);
        if (i < r.x || i > r.z || j < r.y || j > r.w) continue;
        REAL h;
        if (hit(P, in_frame(P, tr), i, j, h)) best = min(best, height_key(h));
      }
    }
    H[b] = best;
  }
}
