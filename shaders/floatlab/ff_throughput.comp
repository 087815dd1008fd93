#version 460
// Arithmetic throughput of the float-float operators, the seed's way (ch. 4.3.1): each
// invocation runs `reps` dependent operations in registers and stores the result, so the
// time is the operators' and not memory's. Every output feeds the next step (Add12's and
// Mul12's error term is carried into the next low part with one extra float addition),
// so the compiler cannot drop any part of an operator.
#extension GL_GOOGLE_include_directive : require
#include "floatfloat.glsl"
#include "add22_priest.glsl"
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer A_block { vec2 A[]; };
layout(std430, binding = 1) writeonly buffer Out_block { vec2 OUT[]; };
#define PUSH_FloatLoopPush
#include "floatlab_push.h"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  vec2 x = A[i], b = vec2(b_hi, b_lo);
  // One loop per operator (the switch outside), so the loop carries nothing but the operator.
#define LOOP(body) for (uint k = 0u; k < reps; ++k) { body } break;
  switch (op) {
    case 0u: LOOP(precise float s = x.x + b.x; x.x = s;)  // float add: the unit
    case 1u: LOOP(precise float p = x.x * b.x; x.x = p;)  // float mul
    case 2u: LOOP(x.x = fma(x.x, b.x, b.y);)              // float fma
    case 3u: LOOP(vec2 r = add12(x.x, b.x); precise float l = x.y + r.y; x = vec2(r.x, l);)
    case 4u: LOOP(vec2 r = mul12(x.x, b.x); precise float l = x.y + r.y; x = vec2(r.x, l);)
    case 5u: LOOP(vec2 r = mul12_fma(x.x, b.x); precise float l = x.y + r.y; x = vec2(r.x, l);)
    case 6u: LOOP(x = add22(x, b);)         // ours, improved
    case 7u: LOOP(x = mul22(x, b);)
    case 8u: LOOP(x = div22(x, b);)
    case 9u: LOOP(x = sqrt22(x);)
    default: LOOP(x = add22_priest(x, b);)  // the report's, as printed
  }
  OUT[i] = x;
}
