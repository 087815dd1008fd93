// The cloth's push constants (compute/cloth/cloth.cpp, shaders/cloth/).
#ifndef VKLAB_SHADERS_CLOTH_CLOTH_PUSH_H  // C++ sees each block once (GLSL includes a header once a shader)
#define VKLAB_SHADERS_CLOTH_CLOTH_PUSH_H
#include "shaders/common/push.h"
PUSH_BEGIN
#if defined(__cplusplus) || defined(PUSH_ClothStepPush)
PUSH_BLOCK(ClothStepPush) {  // verlet, relax, attach
  vec4 gravity_dt2;          // a·Δt² (xyz); w = damping factor d of x' = (1+d)x − d·x* + a·Δt²
  vec4 wind_dt2;             // wind acceleration·Δt² (xyz); w = gust phase
  vec4 sphere;               // centre (xyz), radius (w <= 0: no sphere)
  uint width, height;
  float rest, stiffness;      // structural rest length; scale of the summed corrections (Config::relaxation_scale)
  uint springs;               // bit 0: shear (diagonals), bit 1: bend (two cells away), bit 2: the thesis's ½ shares
  float thickness, friction;  // contact margin (m) and Coulomb coefficient (collide.glsl)
  float ground;               // y of the ground plane (very negative: none)
  uvec4 region;               // x0, y0, width, height of the cells this dispatch covers
};
#endif
#if defined(__cplusplus) || defined(PUSH_ClothProjectPush)
PUSH_BLOCK(ClothProjectPush) {
  vec4 sphere;
  uint width, height;
  float len, stiffness;
  int dx, dy;
  uint stride, phase, along_y;
  float ground, thickness, friction;
};
#endif
#if defined(__cplusplus) || defined(PUSH_ClothTilesPush)
PUSH_BLOCK(ClothTilesPush) {  // tiles.comp
  vec4 gravity_dt2;           // as ClothStepPush: a·Δt² (xyz), damping factor d (w)
  vec4 wind_dt2;              // wind acceleration·Δt² (xyz), gust phase (w)
  vec4 sphere;                // centre (xyz), radius (w <= 0: no sphere)
  uint width, height;
  float rest, stiffness;  // structural rest length; Gauss–Seidel's stiffness (each constraint)
  float thickness, friction, ground;
  uint flags;           // bit 0: Verlet first (else read IN), bit 1: shear, bit 2: bend, bit 3: attachments
  uint tile_w, tile_h;  // the cells a workgroup writes: workgroup (i, j) writes the tile at (i·tile_w, j·tile_h)
  uint halo;            // cells relaxed around the tile on each side, read but not written
  uint relaxations;     // this dispatch's
  uint rows;            // the workgroup's rows of 32 invocations, its local_size_y (see tiles.comp)
};
#endif
#if defined(__cplusplus) || defined(PUSH_ClothNormalsPush)
PUSH_BLOCK(ClothNormalsPush) { uint width, height; };
#endif
#if defined(__cplusplus) || defined(PUSH_ClothStatsPush)
PUSH_BLOCK(ClothStatsPush) {
  vec4 sphere;
  uint width, height;
  float rest, inv_dt2;
  uint pass_index, groups;
};
#endif
PUSH_END
#endif
