// The diffusion lab's push constants (compute/diffusion/diffusion.cpp, shaders/diffusion/).
#ifndef VKLAB_SHADERS_DIFFUSION_DIFFUSION_PUSH_H  // C++ sees each block once (GLSL includes a header once a shader)
#define VKLAB_SHADERS_DIFFUSION_DIFFUSION_PUSH_H
#include "shaders/common/push.h"
PUSH_BEGIN
#if defined(__cplusplus) || defined(PUSH_DiffusionStepPush)
PUSH_BLOCK(DiffusionStepPush) {
  ivec2 size;
  float k;        // Cd / 4: the explicit step's weight of the Laplacian
  int insulated;  // zero flux at the border, else a fixed zero border
};
#endif
#if defined(__cplusplus) || defined(PUSH_DiffusionPaintPush)
PUSH_BLOCK(DiffusionPaintPush) { ivec2 size, origin; vec2 center; float radius, amount; };
#endif
#if defined(__cplusplus) || defined(PUSH_DiffusionStatsPush)
PUSH_BLOCK(DiffusionStatsPush) { ivec2 size; uint pass_index, groups; };
#endif
PUSH_END
#endif
