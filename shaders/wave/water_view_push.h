// The water's picture: its push constants (render/wave/water_view.cpp, shaders/wave/water_*).
#ifndef VKLAB_SHADERS_WAVE_WATER_VIEW_PUSH_H  // C++ sees each block once (GLSL includes a header once a shader)
#define VKLAB_SHADERS_WAVE_WATER_VIEW_PUSH_H
#include "shaders/common/push.h"
PUSH_BEGIN
#if defined(__cplusplus) || defined(PUSH_WaterTopPush)
PUSH_BLOCK(WaterTopPush) {
  vec4 light;  // grid frame (x, y, up)
  ivec2 grid;
  float height_scale, refraction;
  vec2 offset, extent;    // the water rectangle: floor(x, y) - (x, y), and its size in pixels
  ivec2 origin, picture;  // floor(x, y) in the frame, and the shaded picture's size
};
#endif
#if defined(__cplusplus) || defined(PUSH_WaterSurfacePush)
PUSH_BLOCK(WaterSurfacePush) {
  mat4 mvp;
  vec4 eye;         // world xyz
  vec4 light;       // world xyz
  ivec2 grid;       // the height field's width, height
  ivec2 mesh_side;  // vertices of the drawn mesh in x, y
  float height_scale, refraction;
};
#endif
PUSH_END
#endif
