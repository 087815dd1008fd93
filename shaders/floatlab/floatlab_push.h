// The float lab's push constants (compute/floatlab/, shaders/floatlab/).
#ifndef VKLAB_SHADERS_FLOATLAB_FLOATLAB_PUSH_H  // C++ sees each block once (GLSL includes a header once a shader)
#define VKLAB_SHADERS_FLOATLAB_FLOATLAB_PUSH_H
#include "shaders/common/push.h"
PUSH_BEGIN
#if defined(__cplusplus) || defined(PUSH_FloatOpPush)
PUSH_BLOCK(FloatOpPush) { uint n, op; };  // floatfloat, probe16, probe64, ulp_cancel (n: values)
#endif
#if defined(__cplusplus) || defined(PUSH_FloatProbePush)
PUSH_BLOCK(FloatProbePush) {
  uint n, op;
  float one, zero;  // 1 and 0 the compiler cannot see, so x*1 and x+0 stay in the code
};
#endif
#if defined(__cplusplus) || defined(PUSH_FloatLoopPush)
PUSH_BLOCK(FloatLoopPush) { uint n, op, reps; float b_hi, b_lo; };  // the throughput loops
#endif
#if defined(__cplusplus) || defined(PUSH_DenormalLoopPush)
PUSH_BLOCK(DenormalLoopPush) { uint n, iterations; float c, d; };  // denormal_loop.comp: y = c·y + d
#endif
#if defined(__cplusplus) || defined(PUSH_FloatVmPush)
PUSH_BLOCK(FloatVmPush) { uint count, width; };  // vm.comp, vm.vert, vm.frag: programs; fragments a row
#endif
#if defined(__cplusplus) || defined(PUSH_FloatTest9Push)
PUSH_BLOCK(FloatTest9Push) { uint first, first_hi, count, seed; };  // test9.comp: pairs [first, +count)
#endif
PUSH_END
#endif
