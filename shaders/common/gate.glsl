// CG's stop test on the GPU (linalg::Ops gating): compares rho = r·r with tol²·(b·b) and
// writes the indirect dispatch arguments the next passes launch from — zero workgroups
// once converged (or broken down: a NaN rho stops too) — and the outcome in
// S[out .. out+2]: iterations done, converged (1/0), ||r|| / ||b||.
// Needs SCALARS bound and, at GATE_BINDING, the arguments buffer.
layout(std430, binding = GATE_BINDING) writeonly buffer Gate_block { uvec4 gate_args[3]; };  // full, reduction, one

void gate_update(float r, float b, float tol2, uint iteration, uint out_slot, uint groups_full, uint groups_reduce) {
  bool done = !(r > tol2 * b);
  S[out_slot] = float(iteration);
  S[out_slot + 1u] = done && !isnan(r) ? 1.0 : 0.0;
  S[out_slot + 2u] = b > 0.0 ? sqrt(max(r, 0.0) / b) : (r == 0.0 ? 0.0 : r);
  uint go = done ? 0u : 1u;
  gate_args[0] = uvec4(groups_full * go, 1u, 1u, 0u);
  gate_args[1] = uvec4(groups_reduce * go, 1u, 1u, 0u);
  gate_args[2] = uvec4(go, 1u, 1u, 0u);
}
