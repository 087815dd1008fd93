#version 460
// exercise: mesh/star-areas
// A gather over the vertices' balls (Maréchal 2020, GMlib v3, §2.4-2.5): each vertex adds the
// areas of the triangles around it (its "star"), reading them through the ball, the table of
// the triangles that hold each vertex. GMlib turns a scatter (each triangle adding its area to
// its three vertices, which needs atomics) into this gather, which needs none.
// The checker binds the arrays as declared here, pushes the counts, and runs one invocation a
// vertex. BALL holds `pad` slots a vertex, row by row: the first DEG[v] are triangles' numbers,
// the rest unused (0xffffffff).
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Area_block { float AREA[]; };  // a triangle's area
layout(std430, binding = 1) readonly buffer Ball_block { uint BALL[]; };   // vertices × pad
layout(std430, binding = 2) readonly buffer Deg_block { uint DEG[]; };     // triangles around a vertex
layout(std430, binding = 3) writeonly buffer Star_block { float STAR[]; };
layout(push_constant) uniform Push {
  uint vertices;
  uint pad;  // slots a vertex in BALL (a power of two, at least the largest degree)
};

void main() {
  uint v = gl_GlobalInvocationID.x;
  if (v >= vertices) return;
  float star = 0.0;
  for (uint k = 0u; k < DEG[v]; ++k) star += AREA[k];  // which triangle is the k-th around v?
  STAR[v] = star;
}
