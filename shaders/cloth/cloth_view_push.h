// The cloth's picture: its push constants (render/cloth/cloth_view.cpp, shaders/cloth/*.vert, *.frag).
#ifndef VKLAB_SHADERS_CLOTH_CLOTH_VIEW_PUSH_H  // C++ sees each block once (GLSL includes a header once a shader)
#define VKLAB_SHADERS_CLOTH_CLOTH_VIEW_PUSH_H
#include "shaders/common/push.h"
PUSH_BEGIN
#if defined(__cplusplus) || defined(PUSH_ClothPush)
PUSH_BLOCK(ClothPush) {
  mat4 mvp;
  ivec4 mesh;  // particles x, y; mesh side x, y
  vec4 light;
};
#endif
#if defined(__cplusplus) || defined(PUSH_PropsPush)
PUSH_BLOCK(PropsPush) {  // the cloth's sphere and ground
  mat4 mvp;
  vec4 sphere;
  vec4 light;
  float ground;
  int mode;  // 0 sphere, 1 ground
};
#endif
PUSH_END
#endif
