// The stock and the tool: their push constants (render/machining/stock_view.cpp, shaders/machining/*.vert, *.frag).
#ifndef VKLAB_SHADERS_MACHINING_STOCK_VIEW_PUSH_H  // C++ sees each block once (GLSL includes a header once a shader)
#define VKLAB_SHADERS_MACHINING_STOCK_VIEW_PUSH_H
#include "shaders/common/push.h"
PUSH_BEGIN
#if defined(__cplusplus) || defined(PUSH_StockPush)
PUSH_BLOCK(StockPush) {
  mat4 mvp;
  vec4 grid;   // x0, y0, d, top
  vec4 view;   // scale, height_scale, max_cut, display (render/machining/stock_view.h, StockDisplay)
  ivec4 mesh;  // nx, ny, mx, my
  vec4 light;  // towards the light (picture axes: y up), the field's range (coloured from −range to range)
};
#endif
#if defined(__cplusplus) || defined(PUSH_ToolPush)
PUSH_BLOCK(ToolPush) {
  mat4 mvp;
  vec4 view;        // scale, height_scale, centre x, centre y
  vec4 r0, r1, r2;  // rotation rows; w: the tip (z from the stock top)
};
#endif
PUSH_END
#endif
