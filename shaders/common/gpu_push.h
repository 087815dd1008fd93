// The device's bandwidth reference (compute/gpu/bandwidth.cpp, shaders/gpu/saxpy.comp).
#include "push.h"
PUSH_BEGIN
#if defined(__cplusplus) || defined(PUSH_SaxpyPush)
PUSH_BLOCK(SaxpyPush) { float a; uint n4; };
#endif
#if defined(__cplusplus) || defined(PUSH_ClockProbePush)
PUSH_BLOCK(ClockProbePush) { uint iterations; };
#endif
PUSH_END
