// Push-constant blocks are written once, in headers that C++ and GLSL both include
// (shaders/common/*_push.h), so a field added on one side cannot be missed on the other.
//  - GLSL: a shader defines PUSH_<Name> for the block it reads, then includes the header;
//    that block becomes its `layout(push_constant) uniform` block (members unqualified).
//  - C++: every block is a struct in namespace push, with GLSL's vector types mapped to
//    glm types aligned as std430 lays them out (vec2 8 bytes, vec4 and mat4 16); vec3 is
//    not used (its std430 alignment differs from its size).
#ifndef VKLAB_PUSH_H
#define VKLAB_PUSH_H
#ifdef __cplusplus
#include <cstdint>
#include <glm/glm.hpp>
namespace push {
template <class T, unsigned A>
struct alignas(A) Std430 : T {
  using T::T;
  Std430() : T(0) {}
  Std430(const T& v) : T(v) {}
};
using uint = uint32_t;
using vec2 = Std430<glm::vec2, 8>;
using ivec2 = Std430<glm::ivec2, 8>;
using uvec2 = Std430<glm::uvec2, 8>;
using vec4 = Std430<glm::vec4, 16>;
using ivec4 = Std430<glm::ivec4, 16>;
using uvec4 = Std430<glm::uvec4, 16>;
using mat4 = Std430<glm::mat4, 16>;
}  // namespace push
#define PUSH_BLOCK(name) struct name
#define PUSH_BEGIN namespace push {
#define PUSH_END }
#else
#define PUSH_BLOCK(name) layout(push_constant) uniform name
#define PUSH_BEGIN
#define PUSH_END
#endif
#endif
