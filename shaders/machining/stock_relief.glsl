// The stock's relief as the view draws it (stock.vert, stock.frag): heights exaggerated by
// height_scale about the starting surface (BASE, one float a brin; or the flat top when the
// buffer is smaller than the stock), so a curved stock keeps its true shape and its cuts are
// magnified. Needs StockPush.
#include "keys.glsl"
layout(std430, binding = 0) readonly buffer Heights { uint H[]; };
layout(std430, binding = 3) readonly buffer Base { float BASE[]; };

int brin_index(ivec2 p) { return clamp(p.y, 0, mesh.y - 1) * mesh.x + clamp(p.x, 0, mesh.x - 1); }
float h_at(ivec2 p) { return key_height(H[brin_index(p)]); }
// The picture's height of brin p above the top, before the picture's scale.
float relief_at(ivec2 p) {
  float base = BASE.length() >= mesh.x * mesh.y ? BASE[brin_index(p)] : grid.w;
  return (base - grid.w) + (h_at(p) - base) * view.y;
}
