// The mesh lab's push-constant blocks, C++ against GLSL (tests/push_layout.h).
#include "tests/push_layout.h"
#include "shaders/mesh/halo_push.h"
#include "shaders/mesh/mesh_view_push.h"

PUSH_LAYOUT_TEST(MeshView, "shaders/mesh/mesh_view_push.h", PUSH_LAYOUT(MeshPush))

PUSH_LAYOUT_TEST(MeshHalo, "shaders/mesh/halo_push.h", PUSH_LAYOUT(HaloPush))
