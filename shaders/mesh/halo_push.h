// The split mesh's push constants (compute/mesh/split.h, shaders/mesh/halo_*.comp).
#ifndef VKLAB_SHADERS_MESH_HALO_PUSH_H  // C++ sees each block once (GLSL includes a header once a shader)
#define VKLAB_SHADERS_MESH_HALO_PUSH_H
#include "shaders/common/push.h"
PUSH_BEGIN
#if defined(__cplusplus) || defined(PUSH_HaloPush)
PUSH_BLOCK(HaloPush) { uint count; };  // halo_smooth.comp: the part's owned vertices; halo_pack.comp: values sent
#endif
PUSH_END
#endif
