#version 460
// One Jacobi relaxation of the distance constraints (seed 000, §4.1.1, figure 4.1, after
// Jakobsen), gathered as the thesis does: particle A moves by its share of
// (|AB| − l)/|AB|·AB towards each neighbour B, the moves are summed and multiplied by
// `stiffness` (Config::relaxation_scale), then the particle is moved out of the sphere and
// above the ground (§4.1.2.2), with friction (collide.glsl). Reads IN, writes OUT.
// The share: scaled, w_A/(w_A+w_B) (½ with equal masses; all of it when B is pinned) and
// stiffness / (2·families of springs) for the sum; thesis (springs bit 2), ½ whatever B's mass
// — the thesis has no masses, its held corner is simply not moved — and stiffness for the sum,
// as §4.1.1 and Annex II.6 write it.
// Why the scale: applied in full, the 4 to 12 corrections gathered at once overshoot —
// linearised, the zigzag mode of a row flips sign every relaxation and Verlet amplifies
// it (an amplification of 2.4 a step at d = 0.99) — the thesis's remark that stiffness
// governs stability. At full weight 12 of 24 test configurations (poses, springs,
// n_iter 1..32) blew up; at the scale used none did, but for a 1-relaxation cloth hanging
// from two corners, which stretches without bound.
// SIDES (specialization constant) says which borders the covered cells may touch: bit 0
// left, 1 right, 2 top (y = 0), 3 bottom. The thesis's sub-streams are the interior
// (SIDES = 0: no test at all, 4 constraints), the 4 edges (one side tested, 3) and the
// 4 corners (two sides, 2); SIDES = 15 is the one kernel that tests everything.
#extension GL_GOOGLE_include_directive : require
layout(constant_id = 0) const int SIDES = 15;
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer In_block { vec4 IN[]; };
layout(std430, binding = 1) writeonly buffer Out_block { vec4 OUT[]; };
layout(std430, binding = 2) readonly buffer Start_block { vec4 START[]; };  // positions at the step's start (friction)
#define PUSH_ClothStepPush
#include "cloth_push.h"
#include "collide.glsl"

void constrain(inout vec3 delta, vec4 p, ivec2 c, ivec2 off, float len) {
  ivec2 n = c + off;
  if ((SIDES & 1) != 0 && n.x < 0) return;
  if ((SIDES & 2) != 0 && n.x >= int(width)) return;
  if ((SIDES & 4) != 0 && n.y < 0) return;
  if ((SIDES & 8) != 0 && n.y >= int(height)) return;
  vec4 q = IN[uint(n.y) * width + uint(n.x)];
  precise vec3 ab = q.xyz - p.xyz;
  precise float d = length(ab);
  if (d > 0.0) {
    float share = (springs & 4u) != 0u ? 0.5 : p.w / (p.w + q.w);
    precise vec3 move = share * ((d - len) / d) * ab;
    delta += move;
  }
}

void main() {
  if (gl_GlobalInvocationID.x >= region.z || gl_GlobalInvocationID.y >= region.w) return;
  uvec2 cu = region.xy + gl_GlobalInvocationID.xy;
  ivec2 c = ivec2(cu);
  uint i = cu.y * width + cu.x;
  vec4 p = IN[i];
  if (p.w == 0.0) {  // pinned
    OUT[i] = p;
    return;
  }
  precise vec3 delta = vec3(0.0);
  constrain(delta, p, c, ivec2(-1, 0), rest);
  constrain(delta, p, c, ivec2(1, 0), rest);
  constrain(delta, p, c, ivec2(0, -1), rest);
  constrain(delta, p, c, ivec2(0, 1), rest);
  if ((springs & 1u) != 0u) {
    float diag = rest * 1.41421356;
    constrain(delta, p, c, ivec2(-1, -1), diag);
    constrain(delta, p, c, ivec2(1, -1), diag);
    constrain(delta, p, c, ivec2(-1, 1), diag);
    constrain(delta, p, c, ivec2(1, 1), diag);
  }
  if ((springs & 2u) != 0u) {
    constrain(delta, p, c, ivec2(-2, 0), 2.0 * rest);
    constrain(delta, p, c, ivec2(2, 0), 2.0 * rest);
    constrain(delta, p, c, ivec2(0, -2), 2.0 * rest);
    constrain(delta, p, c, ivec2(0, 2), 2.0 * rest);
  }
  precise vec3 x = p.xyz + stiffness * delta;
  OUT[i] = vec4(collide(x, START[i].xyz), p.w);
}
