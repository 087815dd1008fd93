// The floatlab lab's push-constant blocks, C++ against GLSL (tests/push_layout.h).
#include "tests/push_layout.h"
#include "shaders/floatlab/floatlab_push.h"

PUSH_LAYOUT_TEST(Floatlab, "shaders/floatlab/floatlab_push.h", PUSH_LAYOUT(FloatOpPush), PUSH_LAYOUT(FloatProbePush),
                 PUSH_LAYOUT(FloatLoopPush), PUSH_LAYOUT(FloatVmPush), PUSH_LAYOUT(FloatTest9Push),
                 PUSH_LAYOUT(DenormalLoopPush))
