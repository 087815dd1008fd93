// The mesh's picture: its push constants (render/mesh/mesh_view.cpp, shaders/mesh/).
#ifndef VKLAB_SHADERS_MESH_MESH_VIEW_PUSH_H  // C++ sees each block once (GLSL includes a header once a shader)
#define VKLAB_SHADERS_MESH_MESH_VIEW_PUSH_H
#include "shaders/common/push.h"
PUSH_BEGIN
#if defined(__cplusplus) || defined(PUSH_MeshPush)
PUSH_BLOCK(MeshPush) {
  mat4 mvp;
  vec4 centre_scale;
  vec4 plane;
  vec2 range;
  uint nodes, flags;  // flags: field (0 none, 1 vertices, 2 elements) | wireframe << 4 | clip << 5 | scalar << 8
  uint field_stride, field_offset;  // bytes an entity, bytes to the component
};
#endif
PUSH_END
#endif
