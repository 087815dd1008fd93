// The linalg lab's push-constant blocks, C++ against GLSL (tests/push_layout.h).
#include "tests/push_layout.h"
#include "shaders/linalg/linalg_push.h"

PUSH_LAYOUT_TEST(Linalg, "shaders/linalg/linalg_push.h", PUSH_LAYOUT(AxpbyPush), PUSH_LAYOUT(DotOnePush),
                 PUSH_LAYOUT(DotThesisPush), PUSH_LAYOUT(ExtremeThesisPush), PUSH_LAYOUT(ExtremeOnePush),
                 PUSH_LAYOUT(DotFfPush), PUSH_LAYOUT(FfPush), PUSH_LAYOUT(BandedPush), PUSH_LAYOUT(FracSweepPush),
                 PUSH_LAYOUT(DenseThesisPush), PUSH_LAYOUT(DenseRowsPush), PUSH_LAYOUT(CgPush),
                 PUSH_LAYOUT(StencilPush), PUSH_LAYOUT(CgStencilPush), PUSH_LAYOUT(CgPipelinedPush),
                 PUSH_LAYOUT(GatePush), PUSH_LAYOUT(UnpackPush))
