// The cloth kernels' shared parameters (compute/cloth/cloth.cpp, struct StepPush).
layout(push_constant) uniform Push {
  vec4 gravity_dt2;  // a·Δt² (xyz); w = damping factor d of x' = (1+d)x − d·x* + a·Δt²
  vec4 wind_dt2;     // wind acceleration·Δt² (xyz); w = gust phase
  vec4 sphere;       // centre (xyz), radius (w <= 0: no sphere)
  uint width, height;
  float rest, stiffness;  // structural rest length; scale of the summed corrections (Config::relaxation_scale)
  uint springs;           // bit 0: shear (diagonals), bit 1: bend (two cells away)
  float thickness, friction;  // contact margin (m) and Coulomb coefficient (collide.glsl)
  float ground;           // y of the ground plane (very negative: none)
  uvec4 region;           // x0, y0, width, height of the cells this dispatch covers
};
