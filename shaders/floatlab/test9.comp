#version 460
// TEST 9 of seed 002 (Da Graça 2006 §3.2) at its size, two billion pairs: A*B, (-A)*(-B) and
// -(A*(-B)) must be equal, and (-A)*B equal to A*(-B), for random A and B drawn here (a hash
// of the pair's index: nothing crosses the bus but the counts). Pairs [first, first + count);
// violations counted, the first 8 kept.
layout(local_size_x = 256) in;
layout(std430, binding = 0) buffer Found {
  uint violations;
  uint kept;
  uvec2 examples[8];
};
#define PUSH_FloatTest9Push
#include "floatlab_push.h"

uint hash(uint x) {  // a 32-bit integer hash (lowbias32)
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

bool same(float x, float y) { return floatBitsToUint(x) == floatBitsToUint(y) || (isnan(x) && isnan(y)); }

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint k = gl_GlobalInvocationID.x; k < count; k += stride) {
    uint i = first + k;  // a chunk stays within one 2^32 pass (test9.cpp), first_hi names it
    uint ua = hash(i ^ hash(seed ^ first_hi)), ub = hash(ua ^ 0x9e3779b9u);
    float a = uintBitsToFloat(ua), b = uintBitsToFloat(ub);
    precise float ab = a * b;
    precise float nn = (-a) * (-b);
    precise float nmn = -(a * (-b));
    precise float na = (-a) * b;
    precise float nb = a * (-b);
    if (!(same(ab, nn) && same(ab, nmn) && same(na, nb))) {
      atomicAdd(violations, 1u);
      uint slot = atomicAdd(kept, 1u);
      if (slot < 8u) examples[slot] = uvec2(ua, ub);
    }
  }
}
