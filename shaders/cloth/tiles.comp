#version 460
// Coloured Gauss–Seidel in shared memory (method = tiles, compute/cloth/tiles.h): a workgroup
// loads its tile of the cloth and a halo around it into shared memory (Verlet first, as
// verlet.comp, or the previous dispatch's positions), relaxes it `relaxations` times — the
// colours of project.comp in the same order, then attach.comp — with a barrier between colours
// where the kernels path has a dispatch, and writes its tile back. Same arithmetic as those
// kernels, particle by particle.
// A colour moves a particle by its partner only, at most one cell along each axis (two for
// bend springs), so after the halo's worth of colours the particles of the tile have not yet
// felt that the halo's border lacks its outer neighbours: the tile is exact, the halo is
// thrown away. A cloth that fits in one workgroup is one tile with no halo.
// A colour touches shared memory only: the region's positions, inverse masses and positions at
// the substep's start (friction's x0) are all there, 28 bytes a particle, and the 4 corners.
// Reads, all read-only: X, the substep's start (Verlet's x, x0, the inverse masses, the pinned
// corners, which nothing moves), XP (x*), N (normals, for the wind) and IN (the previous
// dispatch's positions, when Verlet is not first); writes OUT (its tile only, so workgroups
// whose halos overlap never write the same particle).
#extension GL_GOOGLE_include_directive : require
// The workgroup is 32 x `rows` invocations (specialization constant 1 and the push constant
// rows, set from one value): expressions of gl_WorkGroupSize would be specialization constant
// operations, which the validation layer's SPIR-V folding (1.3.239) turns into invalid code
// for some sizes.
layout(constant_id = 0) const uint CAPACITY = 1024;  // particles a workgroup holds, at most 4096: 28 bytes each
layout(local_size_x = 32, local_size_y_id = 1) in;
layout(std430, binding = 0) readonly buffer X_block { vec4 X[]; };
layout(std430, binding = 1) readonly buffer Prev_block { vec4 XP[]; };
layout(std430, binding = 2) readonly buffer N_block { vec4 N[]; };
layout(std430, binding = 3) readonly buffer In_block { vec4 IN[]; };
layout(std430, binding = 4) writeonly buffer Out_block { vec4 OUT[]; };
#define PUSH_ClothTilesPush
#include "cloth_push.h"
#include "collide.glsl"
#include "project.glsl"
#include "verlet.glsl"

shared float SX[CAPACITY], SY[CAPACITY], SZ[CAPACITY];     // the region's positions, row by row
shared float SW[CAPACITY];                                 // inverse masses
shared float S0X[CAPACITY], S0Y[CAPACITY], S0Z[CAPACITY];  // positions at the substep's start
shared vec4 CORNERS[4];                                    // as X holds them (w = 0: pinned)

ivec2 r0, r1;  // the region held: [r0, r1) in cloth cells
int rw;        // its width
float per_rw;  // 1 / rw
uint lanes;    // invocations

// q / d for q < 4096 and 0 < d <= 512 (a cloth is 8 particles wide or more), per_d = 1 / d: in
// float, (q + 0.5)·per_d is off by at most 4096·3·2⁻²⁴ < 7.4·10⁻⁴, inside the 0.5 / d >= 9.7·10⁻⁴
// that the 0.5 keeps it from an integer (GPUs divide integers slowly).
uint quotient(uint q, float per_d) { return uint((float(q) + 0.5) * per_d); }

uint global_index(ivec2 c) { return uint(c.y) * width + uint(c.x); }
uint local_index(ivec2 c) { return uint((c.y - r0.y) * rw + (c.x - r0.x)); }
ivec2 cell(uint k) {  // of local index k
  uint y = quotient(k, per_rw);
  return r0 + ivec2(k - y * uint(rw), y);
}
vec3 get(uint k) { return vec3(SX[k], SY[k], SZ[k]); }
vec3 start(uint k) { return vec3(S0X[k], S0Y[k], S0Z[k]); }
void put(uint k, vec3 p) { SX[k] = p.x, SY[k] = p.y, SZ[k] = p.z; }
void sync_shared() {
  memoryBarrierShared();
  barrier();
}

// The projection of the edge a–b (project.glsl), if both ends lie in the region.
void project(ivec2 a, ivec2 b, float len) {
  if (b.x < r0.x || b.y < r0.y || b.x >= r1.x || b.y >= r1.y) return;
  uint ka = local_index(a), kb = local_index(b);
  float wa = SW[ka], wb = SW[kb];
  vec3 a_to, b_to;
  if (!projection(get(ka), get(kb), wa, wb, len, a_to, b_to)) return;
  if (wa > 0.0) put(ka, collide(a_to, start(ka)));
  if (wb > 0.0) put(kb, collide(b_to, start(kb)));
}

// One colour: the edges (x, y)–(x + dx, y + dy) whose x (y when along_y) is phase modulo
// 2^shift in cloth coordinates, as project.comp colours them; an invocation an edge.
void colour(ivec2 d, float len, int shift, int phase, bool along_y) {
  int stride = 1 << shift;
  ivec2 first = r0, step = along_y ? ivec2(1, stride) : ivec2(stride, 1);
  if (along_y)
    first.y += (phase - r0.y) & (stride - 1);
  else
    first.x += (phase - r0.x) & (stride - 1);
  ivec2 count = max(r1 - first + step - 1, ivec2(0)) >> (along_y ? ivec2(0, shift) : ivec2(shift, 0));
  uint edges = uint(count.x * count.y);
  float per_row = 1.0 / float(max(count.x, 1));
  for (uint e = gl_LocalInvocationIndex; e < edges; e += lanes) {
    uint y = quotient(e, per_row);
    ivec2 a = first + step * ivec2(e - y * uint(count.x), y);
    project(a, a + d, len);
  }
  sync_shared();
}

// attach.comp for every particle of the region.
void attach() {
  uint n = uint(rw * (r1.y - r0.y));
  for (uint k = gl_LocalInvocationIndex; k < n; k += lanes) {
    if (SW[k] == 0.0) continue;
    ivec2 c = cell(k);
    precise vec3 x = get(k);
    for (int j = 0; j < 4; ++j) {
      ivec2 g = ivec2((j & 1) * int(width - 1u), (j >> 1) * int(height - 1u));
      vec4 q = CORNERS[j];
      if (q.w != 0.0) continue;
      precise float reach = rest * length(vec2(c - g));
      precise vec3 r = x - q.xyz;
      precise float d = length(r);
      if (d > reach) x = q.xyz + r * (reach / d);
    }
    put(k, collide(x, start(k)));
  }
  sync_shared();
}

void main() {
  ivec2 size = ivec2(width, height), tile = ivec2(tile_w, tile_h);
  ivec2 t0 = ivec2(gl_WorkGroupID.xy) * tile, t1 = min(t0 + tile, size);
  r0 = max(t0 - int(halo), ivec2(0));
  r1 = min(t1 + int(halo), size);
  rw = r1.x - r0.x;
  per_rw = 1.0 / float(rw);
  lanes = 32u * rows;
  uint n = uint(rw * (r1.y - r0.y));
  for (uint k = gl_LocalInvocationIndex; k < n; k += lanes) {
    uint i = global_index(cell(k));
    vec4 s = X[i];
    SW[k] = s.w, S0X[k] = s.x, S0Y[k] = s.y, S0Z[k] = s.z;
    put(k, (flags & 1u) != 0u ? verlet(i, s) : IN[i].xyz);
  }
  if (gl_LocalInvocationIndex < 4u) {
    uint j = gl_LocalInvocationIndex;
    CORNERS[j] = X[global_index(ivec2((j & 1u) * (width - 1u), (j >> 1u) * (height - 1u)))];
  }
  sync_shared();
  float diagonal = 1.41421356 * rest, twice = 2.0 * rest;  // Family::factor · rest, as the kernels' lengths
  for (uint it = 0u; it < relaxations; ++it) {
    for (int phase = 0; phase < 2; ++phase) colour(ivec2(1, 0), rest, 1, phase, false);  // stride 2
    for (int phase = 0; phase < 2; ++phase) colour(ivec2(0, 1), rest, 1, phase, true);
    if ((flags & 2u) != 0u) {
      for (int phase = 0; phase < 2; ++phase) colour(ivec2(1, 1), diagonal, 1, phase, false);
      for (int phase = 0; phase < 2; ++phase) colour(ivec2(-1, 1), diagonal, 1, phase, false);
    }
    if ((flags & 4u) != 0u) {  // stride 4
      for (int phase = 0; phase < 4; ++phase) colour(ivec2(2, 0), twice, 2, phase, false);
      for (int phase = 0; phase < 4; ++phase) colour(ivec2(0, 2), twice, 2, phase, true);
    }
    if ((flags & 8u) != 0u) attach();
  }
  for (uint k = gl_LocalInvocationIndex; k < n; k += lanes) {
    ivec2 c = cell(k);
    if (all(greaterThanEqual(c, t0)) && all(lessThan(c, t1))) OUT[global_index(c)] = vec4(get(k), SW[k]);
  }
}
