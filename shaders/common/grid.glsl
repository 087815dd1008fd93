// Helpers for shaders over 2D grids (included with -I shaders/common).
bool outside(ivec2 p, ivec2 size) { return any(lessThan(p, ivec2(0))) || any(greaterThanEqual(p, size)); }
