// The render kit's push constants: the heat map and the legend (render/heatmap_view.cpp,
// render/legend.cpp, shaders/render/).
#ifndef VKLAB_SHADERS_COMMON_RENDER_PUSH_H  // C++ sees each block once (GLSL includes a header once a shader)
#define VKLAB_SHADERS_COMMON_RENDER_PUSH_H
#include "push.h"
PUSH_BEGIN
#if defined(__cplusplus) || defined(PUSH_HeatmapPush)
PUSH_BLOCK(HeatmapPush) { ivec2 size; float lo, hi; int smooth_cells; };
#endif
#if defined(__cplusplus) || defined(PUSH_LegendPush)
PUSH_BLOCK(LegendPush) {  // render/legend.cpp
  vec2 extent;              // the frame's size in pixels
  vec2 sdf;                 // the font atlas's texel (0..1) on an outline, and atlas pixels a unit of it
};
#endif
PUSH_END
#endif
