// The wave lab's push-constant blocks, C++ against GLSL (tests/push_layout.h).
#include "tests/push_layout.h"
#include "shaders/wave/water_view_push.h"
#include "shaders/wave/wave_push.h"

PUSH_LAYOUT_TEST(WaterView, "shaders/wave/water_view_push.h", PUSH_LAYOUT(WaterTopPush), PUSH_LAYOUT(WaterSurfacePush))

PUSH_LAYOUT_TEST(Wave, "shaders/wave/wave_push.h", PUSH_LAYOUT(WaveRhsPush), PUSH_LAYOUT(WaveEnergyPush),
                 PUSH_LAYOUT(WaveDisturbPush))
