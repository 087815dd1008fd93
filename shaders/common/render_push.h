// The pictures' push constants (render/*_view.cpp, shaders/render/).
#include "push.h"
PUSH_BEGIN
#if defined(__cplusplus) || defined(PUSH_HeatmapPush)
PUSH_BLOCK(HeatmapPush) { ivec2 size; float lo, hi; int smooth_cells; };
#endif
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
#if defined(__cplusplus) || defined(PUSH_MeshPush)
PUSH_BLOCK(MeshPush) {
  mat4 mvp;
  vec4 centre_scale;
  vec4 plane;
  vec2 range;
  uint nodes, flags;  // flags: field (0 none, 1 vertices, 2 elements) | wireframe << 4 | clip << 5 | scalar << 8
  uint field_stride, field_offset;  // bytes an entity, bytes to the component
};
#endif
#if defined(__cplusplus) || defined(PUSH_StockPush)
PUSH_BLOCK(StockPush) {
  mat4 mvp;
  vec4 grid;   // x0, y0, d, top
  vec4 view;   // scale, height_scale, max_cut, display (render/stock_view.h, StockDisplay)
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
#if defined(__cplusplus) || defined(PUSH_LegendPush)
PUSH_BLOCK(LegendPush) {  // render/legend.cpp
  vec2 extent;              // the frame's size in pixels
  vec2 sdf;                 // the font atlas's texel (0..1) on an outline, and atlas pixels a unit of it
};
#endif
PUSH_END
