#version 460
// 'gpuVerlet' of Bleton 2005 (§4.1.2.2, Annex II.6): one Jacobi relaxation of the structural
// constraints from the vectors to the 4 neighbours that the shift matrices gave (D0: right,
// D1: left, D2: below, D3: above; neighbour − self), then the sphere and the ground. The
// same arithmetic as relax.comp (its shares and scale, the thesis's correction or the scaled
// one), which reads the neighbours itself. Pinned particles (w = 0) stay at the step's start
// (START, the thesis's temp).
// SIDES (specialization constant) as in relax.comp: the thesis's sub-streams skip the
// vectors a border makes meaningless.
#extension GL_GOOGLE_include_directive : require
layout(constant_id = 0) const int SIDES = 15;
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer Pos_block { vec4 POS[]; };
layout(std430, binding = 1) readonly buffer D0_block { vec4 D0[]; };
layout(std430, binding = 2) readonly buffer D1_block { vec4 D1[]; };
layout(std430, binding = 3) readonly buffer D2_block { vec4 D2[]; };
layout(std430, binding = 4) readonly buffer D3_block { vec4 D3[]; };
layout(std430, binding = 5) readonly buffer Start_block { vec4 START[]; };
layout(std430, binding = 6) writeonly buffer Out_block { vec4 OUT[]; };
#define PUSH_ClothStepPush
#include "cloth_push.h"
#include "collide.glsl"

void constrain(inout vec3 delta, vec4 p, vec4 ab, float qw, bool inside) {
  if (!inside) return;
  precise float d = length(ab.xyz);
  if (d > 0.0) {
    float share = (springs & 4u) != 0u ? 0.5 : p.w / (p.w + qw);
    precise vec3 move = share * ((d - rest) / d) * ab.xyz;
    delta += move;
  }
}

void main() {
  if (gl_GlobalInvocationID.x >= region.z || gl_GlobalInvocationID.y >= region.w) return;
  uvec2 c = region.xy + gl_GlobalInvocationID.xy;
  uint i = c.y * width + c.x, n = width * height;
  vec4 start = START[i];
  vec4 p = vec4(POS[i].xyz, start.w);  // the inverse mass as the step began (the axpbys round w too)
  if (p.w == 0.0) {  // pinned
    OUT[i] = start;
    return;
  }
  precise vec3 delta = vec3(0.0);
  // relax.comp's order: left, right, above, below
  // the neighbour's inverse mass as the step began (a wrapped neighbour is skipped by `inside`)
  constrain(delta, p, D1[i], START[(i + n - 1u) % n].w, (SIDES & 1) == 0 || c.x > 0u);
  constrain(delta, p, D0[i], START[(i + 1u) % n].w, (SIDES & 2) == 0 || c.x + 1u < width);
  constrain(delta, p, D3[i], START[(i + n - width) % n].w, (SIDES & 4) == 0 || c.y > 0u);
  constrain(delta, p, D2[i], START[(i + width) % n].w, (SIDES & 8) == 0 || c.y + 1u < height);
  precise vec3 x = p.xyz + stiffness * delta;
  OUT[i] = vec4(collide(x, start.xyz), p.w);
}
