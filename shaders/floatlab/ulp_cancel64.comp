#version 460
// Abecassis 2012, SIMSURF §14.2.2 and §14.5.1 where the device has shaderFloat64: the table's
// values arrive as doubles (the nearest to the printed decimals) and float(v) rounds them here,
// on the GPU; then both cancellation examples in double precision. One invocation.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer In_block { uvec2 IN[]; };  // n values, then a, b, c, x
layout(std430, binding = 1) writeonly buffer Table_block { uint TABLE[]; };  // 3 words a value
layout(std430, binding = 2) writeonly buffer Out_block { uvec2 OUT[]; };     // 6 results
#define PUSH_FloatOpPush
#include "floatlab_push.h"
#include "ulp_table.glsl"
#define REAL double
#include "cancellation.glsl"

void main() {
  for (uint i = 0u; i < n; ++i) ulp_row(i, float(packDouble2x32(IN[i])));
  double a = packDouble2x32(IN[n]), b = packDouble2x32(IN[n + 1u]), c = packDouble2x32(IN[n + 2u]),
         x = packDouble2x32(IN[n + 3u]);
  double r[6];
  quadratic_roots(a, b, c, r[0], r[1], r[2], r[3]);
  r[4] = one_minus_cos_naive(x);
  r[5] = one_minus_cos_stable(x);
  for (int k = 0; k < 6; ++k) OUT[k] = unpackDouble2x32(r[k]);
}
