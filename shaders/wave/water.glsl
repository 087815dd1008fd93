// The water surface's look, shared by the top and 3D views (render/wave/water_view.h).
// Heights H (grid cells, row-major, zero outside: the simulation's boundary), the floor
// image, and in scope: ivec2 grid; float height_scale; float refraction.
float cell_height(ivec2 p) {
  if (any(lessThan(p, ivec2(0))) || any(greaterThanEqual(p, grid))) return 0.0;
  return H[p.y * grid.x + p.x];
}

// Bilinear between cell centres; c in cell units (centre of cell i at i).
float height_at(vec2 c) {
  ivec2 i = ivec2(floor(c));
  vec2 f = c - vec2(i);
  return mix(mix(cell_height(i), cell_height(i + ivec2(1, 0)), f.x),
             mix(cell_height(i + ivec2(0, 1)), cell_height(i + ivec2(1, 1)), f.x), f.y);
}

// Seed 000 §4.2.2.2: n = v1 × v2 with v1 = (1, 0, h(x+1) − h), v2 = (0, 1, h(y+1) − h),
// in the grid's frame (x, y, up); heights scaled by height_scale.
vec3 water_normal(vec2 c) {
  float h = height_at(c);
  float dx = height_scale * (height_at(c + vec2(1.0, 0.0)) - h);
  float dy = height_scale * (height_at(c + vec2(0.0, 1.0)) - h);
  return normalize(vec3(-dx, -dy, 1.0));
}

vec3 floor_color(vec2 uv) {
  ivec2 size = imageSize(floor_img);
  vec2 p = clamp(uv, 0.0, 1.0) * vec2(size) - 0.5;
  ivec2 i = ivec2(floor(p));
  vec2 f = p - vec2(i);
  ivec2 hi = size - 1;
  vec3 a = imageLoad(floor_img, clamp(i, ivec2(0), hi)).rgb;
  vec3 b = imageLoad(floor_img, clamp(i + ivec2(1, 0), ivec2(0), hi)).rgb;
  vec3 c = imageLoad(floor_img, clamp(i + ivec2(0, 1), ivec2(0), hi)).rgb;
  vec3 d = imageLoad(floor_img, clamp(i + ivec2(1, 1), ivec2(0), hi)).rgb;
  return mix(mix(a, b, f.x), mix(c, d, f.x), f.y);
}

// The floor seen through the surface, offset along the normal, lit by a directional light;
// n, view and light in the grid's frame.
vec3 water_color(vec2 uv, vec3 n, vec3 view, vec3 to_light) {
  vec3 base = floor_color(uv + refraction * n.xy);
  float diffuse = max(dot(n, to_light), 0.0);
  float spec = pow(max(dot(n, normalize(to_light + view)), 0.0), 120.0);
  return base * (0.5 + 0.5 * diffuse) + vec3(0.8) * spec;
}
