#version 460
// GPU-side stopping for conjugate gradient, so a solve needs no read-back: one invocation
// compares rho = r·r with tol²·(b·b) and writes the indirect dispatch arguments every later
// pass of the solve launches from — zero workgroups once converged (or broken down: a NaN
// rho stops too). It also records the outcome in S[out .. out+2]: iterations done,
// converged (1/0), ||r|| / ||b||.
#extension GL_GOOGLE_include_directive : require
#define SCALARS_BINDING 0
#include "scalars.glsl"
layout(local_size_x = 1) in;
layout(std430, binding = 1) writeonly buffer Gate_block { uvec4 args[3]; };  // full, reduction, this kernel
layout(push_constant) uniform Push {
  uint rho, bb, iteration, out_slot;
  float tol2;
  uint groups_full, groups_reduce;
};

void main() {
  float r = S[rho], b = S[bb];
  bool done = !(r > tol2 * b);
  S[out_slot] = float(iteration);
  S[out_slot + 1u] = done && !isnan(r) ? 1.0 : 0.0;
  S[out_slot + 2u] = b > 0.0 ? sqrt(max(r, 0.0) / b) : (r == 0.0 ? 0.0 : r);
  uint go = done ? 0u : 1u;
  args[0] = uvec4(groups_full * go, 1u, 1u, 0u);
  args[1] = uvec4(groups_reduce * go, 1u, 1u, 0u);
  args[2] = uvec4(go, 1u, 1u, 0u);
}
