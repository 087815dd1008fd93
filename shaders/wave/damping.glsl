// γ of cell (x, y): uniform damping plus a sponge ramping up quadratically over the
// `sponge` cells nearest the border (compute/wave/wave.cpp damping_at() is the same).
// Needs width, height, damping, sponge, sponge_damping in scope.
float damping_at(uint x, uint y) {
  float g = damping;
  if (sponge > 0u) {
    uint d = min(min(x, y), min(width - 1u - x, height - 1u - y));
    if (d < sponge) {
      float t = float(sponge - d) / float(sponge);
      g += sponge_damping * t * t;
    }
  }
  return min(g, 1.0);
}
