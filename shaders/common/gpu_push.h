// The device's references: bandwidth (compute/measure/timer.cpp, shaders/gpu/saxpy.comp), the
// clock probe and the multiply-add peaks (compute/measure/roofline.cpp, shaders/gpu/fma_peak*.comp).
#ifndef VKLAB_SHADERS_COMMON_GPU_PUSH_H  // C++ sees each block once (GLSL includes a header once a shader)
#define VKLAB_SHADERS_COMMON_GPU_PUSH_H
#include "push.h"
PUSH_BEGIN
#if defined(__cplusplus) || defined(PUSH_SaxpyPush)
PUSH_BLOCK(SaxpyPush) { float a; uint n4; };
#endif
#if defined(__cplusplus) || defined(PUSH_ClockProbePush)
PUSH_BLOCK(ClockProbePush) { uint iterations; };
#endif
#if defined(__cplusplus) || defined(PUSH_PeakPush)
PUSH_BLOCK(PeakPush) { uint iterations; float m; float c; };
#endif
PUSH_END
#endif
