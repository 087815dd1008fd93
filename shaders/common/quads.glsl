// One kernel source, two storage layouts for vectors of quads (4 consecutive floats).
// TEXTURE_LAYOUT=1: the thesis's layout (seed 000, §3.2.1), an RGBA32F image of side x side
//   texels, quad q at texel (q % side, q / side) (the thesis flips y for OpenGL; we do not).
// TEXTURE_LAYOUT=0: a storage buffer of vec4.
// Every kernel using it has `side` (texture side in texels) in scope.
#if TEXTURE_LAYOUT
#define VEC_IN(b, name) layout(binding = b, rgba32f) uniform readonly image2D name
#define VEC_OUT(b, name) layout(binding = b, rgba32f) uniform writeonly image2D name
#define VEC_RW(b, name) layout(binding = b, rgba32f) uniform image2D name
#define QUAD_AT(q, s) ivec2(int((q) % (s)), int((q) / (s)))
#define LOADQS(name, q, s) imageLoad(name, QUAD_AT(q, s))
#define STOREQS(name, q, s, v) imageStore(name, QUAD_AT(q, s), v)
#else
#define VEC_IN(b, name) layout(std430, binding = b) readonly buffer name##_block { vec4 name[]; }
#define VEC_OUT(b, name) layout(std430, binding = b) writeonly buffer name##_block { vec4 name[]; }
#define VEC_RW(b, name) layout(std430, binding = b) buffer name##_block { vec4 name[]; }
#define LOADQS(name, q, s) name[q]
#define STOREQS(name, q, s, v) name[q] = (v)
#endif
#define LOADQ(name, q) LOADQS(name, q, side)
#define STOREQ(name, q, v) STOREQS(name, q, side, v)
// Element i of a quad vector.
#define LOADE(name, i) LOADQ(name, (i) / 4u)[(i) % 4u]

// Grid-stride loop: any dispatch size covers any number of quads.
#define FOR_EACH_QUAD(q, count) \
  for (uint q = gl_GlobalInvocationID.x; q < (count); q += gl_NumWorkGroups.x * gl_WorkGroupSize.x)

// j mod n in [0, n) for any int j (a band's offsets may exceed n on tiny vectors). GLSL
// leaves % undefined for negative operands, and an H100 returns neither C's remainder
// nor the mathematical modulo there, so this uses unsigned % only.
uint wrap_index(int j, uint n) {
  return j >= 0 ? uint(j) % n : (n - uint(-j) % n) % n;
}
