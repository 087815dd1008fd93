// One distance constraint, as Jakobsen projects it (Bleton 2005, §4.1.1), for both methods
// (project.comp, and tiles.comp in shared memory): the edge a–b of rest length len moves its
// ends by their inverse-mass shares of corr = stiffness·(|ab| − len)/|ab|·ab, a towards b by
// w_a/(w_a + w_b) of it and b away by w_b/(w_a + w_b). False when nothing moves (both ends
// pinned, or at one point). `precise`: the CPU twin's operation order for the correction.
// Needs: the push constant stiffness.
bool projection(vec3 pa, vec3 pb, float wa, float wb, float len, out vec3 move_a, out vec3 move_b) {
  float w = wa + wb;
  if (w == 0.0) return false;
  precise vec3 ab = pb - pa;
  precise float d = length(ab);
  if (d == 0.0) return false;
  precise vec3 corr = stiffness * ((d - len) / d) * ab;
  move_a = pa + (wa / w) * corr;
  move_b = pb - (wb / w) * corr;
  return true;
}
