#version 460
// Abecassis 2012, SIMSURF §14.2.2 and §14.5.1 in single precision: the rounding table (from
// floats the CPU rounded, for a device without shaderFloat64) and both cancellation examples,
// with our Taylor series and with the built-in sin and cos. One invocation does it all.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer In_block { float IN[]; };  // n values, then a, b, c, x
layout(std430, binding = 1) writeonly buffer Table_block { uint TABLE[]; };  // 3 words a value
layout(std430, binding = 2) writeonly buffer Out_block { float OUT[]; };     // 8 results
#define PUSH_FloatOpPush
#include "floatlab_push.h"
#include "ulp_table.glsl"
#define REAL float
#include "cancellation.glsl"

void main() {
  for (uint i = 0u; i < n; ++i) ulp_row(i, IN[i]);
  float a = IN[n], b = IN[n + 1u], c = IN[n + 2u], x = IN[n + 3u];
  quadratic_roots(a, b, c, OUT[0], OUT[1], OUT[2], OUT[3]);
  OUT[4] = one_minus_cos_naive(x);
  OUT[5] = one_minus_cos_stable(x);
  precise float builtin_naive = (1.0 - cos(x)) / (x * x);
  precise float s = sin(x / 2.0);
  precise float builtin_stable = 2.0 * s * s / (x * x);
  OUT[6] = builtin_naive;
  OUT[7] = builtin_stable;
}
