#version 460
#extension GL_GOOGLE_include_directive : require
// Native double precision on the same loop as ff_throughput.comp (devices with shaderFloat64).
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer A_block { dvec2 A[]; };
layout(std430, binding = 1) writeonly buffer Out_block { dvec2 OUT[]; };
#define PUSH_FloatLoopPush
#include "floatlab_push.h"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  double x = A[i].x, b = double(b_hi) + double(b_lo);
#define LOOP(body) for (uint k = 0u; k < reps; ++k) { body } break;
  switch (op) {
    case 6u: LOOP(precise double s = x + b; x = s;)
    case 7u: LOOP(precise double p = x * b; x = p;)
    case 8u: LOOP(precise double q = x / b; x = q;)
    default: LOOP(x = sqrt(x);)
  }
  OUT[i] = dvec2(x, 0.0);
}
