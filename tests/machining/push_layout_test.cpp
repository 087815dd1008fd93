// The machining lab's push-constant blocks, C++ against GLSL (tests/push_layout.h).
#include "tests/push_layout.h"
#include "shaders/machining/machining_push.h"
#include "shaders/machining/stock_view_push.h"

PUSH_LAYOUT_TEST(Machining, "shaders/machining/machining_push.h", PUSH_LAYOUT(EnginePush), PUSH_LAYOUT(HwPush),
                 PUSH_LAYOUT(NarrowPush), PUSH_LAYOUT(TornPush))

PUSH_LAYOUT_TEST(StockView, "shaders/machining/stock_view_push.h", PUSH_LAYOUT(StockPush), PUSH_LAYOUT(ToolPush))
