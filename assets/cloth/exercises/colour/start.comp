#version 460
// exercise: cloth/colour
// One colour of the cloth's Gauss–Seidel relaxation (Bleton 2005, §4.1.1, after Jakobsen): a
// colour is every stride-th spring (x, y)–(x + dx, y + dy) along x (or along y), no two of
// which share a particle, so one invocation a spring moves both its ends with no atomics.
// Particles are vec4: position xyz, w = inverse mass (0: pinned, never moves).
// The checker binds X as declared here (START, the positions at the step's start, is bound at
// 1 for the contact step, which this exercise leaves out), pushes the lab's ClothProjectPush,
// and runs one invocation a spring of the colour in workgroups of 16 × 16.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) buffer X_block { vec4 X[]; };
layout(push_constant) uniform Push {
  vec4 sphere;  // unused here: no sphere
  uint width, height;
  float len, stiffness;   // the springs' rest length; the share of the correction applied
  int dx, dy;             // a spring's second end, from its first
  uint stride, phase, along_y;  // the colour: first ends at phase + stride·k along x (or y)
  float ground, thickness, friction;  // unused here: no ground
};

void main() {
  uvec2 g = gl_GlobalInvocationID.xy;
  ivec2 a = along_y != 0u ? ivec2(g.x, phase + stride * g.y) : ivec2(phase + stride * g.x, g.y);
  ivec2 b = a + ivec2(dx, dy);
  if (a.x >= int(width) || a.y >= int(height) || b.x < 0 || b.y < 0 || b.x >= int(width) || b.y >= int(height)) return;
  uint ia = uint(a.y) * width + uint(a.x), ib = uint(b.y) * width + uint(b.x);
  vec4 pa = X[ia], pb = X[ib];
  float w = pa.w + pb.w;
  if (w == 0.0) return;  // both pinned
  vec3 ab = pb.xyz - pa.xyz;
  float d = length(ab);
  if (d == 0.0) return;
  vec3 corr = stiffness * ((d - len) / d) * ab;  // the whole correction, towards each other
  if (pa.w > 0.0) X[ia] = vec4(pa.xyz + (pa.w / w) * corr, pa.w);
  // TODO: B's share of the correction
}
