// The diffusion lab's push-constant blocks, C++ against GLSL (tests/push_layout.h).
#include "tests/push_layout.h"
#include "shaders/diffusion/diffusion_push.h"

PUSH_LAYOUT_TEST(Diffusion, "shaders/diffusion/diffusion_push.h", PUSH_LAYOUT(DiffusionStepPush),
                 PUSH_LAYOUT(DiffusionPaintPush), PUSH_LAYOUT(DiffusionStatsPush))
