// The cloth lab's push-constant blocks, C++ against GLSL (tests/push_layout.h).
#include "tests/push_layout.h"
#include "shaders/cloth/cloth_push.h"
#include "shaders/cloth/cloth_view_push.h"

PUSH_LAYOUT_TEST(Cloth, "shaders/cloth/cloth_push.h", PUSH_LAYOUT(ClothStepPush), PUSH_LAYOUT(ClothProjectPush),
                 PUSH_LAYOUT(ClothTilesPush), PUSH_LAYOUT(ClothNormalsPush), PUSH_LAYOUT(ClothStatsPush))

PUSH_LAYOUT_TEST(ClothView, "shaders/cloth/cloth_view_push.h", PUSH_LAYOUT(ClothPush), PUSH_LAYOUT(PropsPush))
