// Formulas 3.1-3.4 of Bleton 2005 (§3.3.4, Annex II.3) as the thesis's fragment program
// computed them, in float: the texel index of V's quad (q + i) mod N that it fetched for the
// result's quad q, N the quads in use and S the texture side.
//   j0 = y·S + x                        (3.1, from the pixel; our rows are not flipped)
//   j1 = frac((i + j0) / N) · N         (3.2, with the modulo emulated as in 3.3)
//   uv = (frac(j1/S)·S, floor(j1/S)) + 0.5   (3.4; Annex II adds the 0.5 "against rounding")
// then read as a RECT texture reads: the texel under uv, clamped to the edge. `precise`
// keeps the compiler from fusing or reordering what the thesis wrote; the division is the
// device's own. compute/linalg/frac_index.cpp is the CPU twin (IEEE division).
uint thesis_quad_index(uint q, uint i, uint N, uint S) {
  precise float Sf = float(S), Nf = float(N);
  precise float j0 = float(q / S) * Sf + float(q % S);
  precise float t = (float(i) + j0) / Nf;
  precise float j1 = fract(t) * Nf;
  precise float r = j1 / Sf;
  precise vec2 uv = vec2(fract(r) * Sf, floor(r)) + 0.5;
  uvec2 texel = uvec2(clamp(ivec2(floor(uv)), ivec2(0), ivec2(int(S) - 1)));
  return texel.y * S + texel.x;
}

// The texel after `base` in 1D order, wrapping after the last quad in use: what the thesis's
// precomputed offset texture returned (exact, made on the CPU).
uint thesis_next_quad(uint base, uint N, uint S) { return base + 1u == N ? 0u : (base + 1u) % (S * S); }
