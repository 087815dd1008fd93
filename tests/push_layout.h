// The push-constant blocks written once in shaders/<lab>/*_push.h and shaders/common/*_push.h:
// for every block, the size the C++ struct has equals the std430 size the GLSL compiler gives
// the same text (its SPIR-V Offset decorations and member types), so a type whose alignment
// push.h does not map (a vec3, an unaligned vector) fails here and not as garbage on the GPU.
// Each header's blocks are listed by a test beside its code (tests/<lab>/push_layout_test.cpp):
//   PUSH_LAYOUT_TEST(Wave, "shaders/wave/wave_push.h", PUSH_LAYOUT(WaveRhsPush), ...)
// checks every listed block and that the list names every block the header defines; a test
// here checks that every push header in shaders/ has such a list.
#pragma once
#include <gtest/gtest.h>

#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace push_layout {

struct Block {
  const char* name;
  size_t cpp_size;
};

// The header's path from the repository root.
void check(const std::string& header, const std::vector<Block>& blocks);
// Headers whose lists are linked into the test binary (filled before main).
std::set<std::string>& checked_headers();
inline bool listed(const char* header) { return checked_headers().insert(header).second; }

}  // namespace push_layout

#define PUSH_LAYOUT(T) \
  push_layout::Block { #T, sizeof(push::T) }
#define PUSH_LAYOUT_TEST(Suite, header, ...)                           \
  static const bool Suite##_push_listed = push_layout::listed(header); \
  TEST(Suite##PushLayout, EveryBlockHasTheSameSizeInCppAndGlsl) { push_layout::check(header, {__VA_ARGS__}); }
