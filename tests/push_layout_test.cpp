// The push-layout check (tests/push_layout.h): compile each block alone and read its layout
// back from the SPIR-V.
#include "tests/push_layout.h"

#include "compute/gpu/shader_compile.h"
#include "shaders/common/gpu_push.h"
#include "shaders/common/render_push.h"
#include "tests/helpers.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace {

// The std430 size of the block as the compiler laid it out, and its alignment.
struct Std430 {
  size_t end = 0, align = 4;
};
Std430 spirv_layout(const std::vector<uint32_t>& spv, const std::string& block) {
  enum {
    Name = 5,
    TypeInt = 21,
    TypeFloat = 22,
    TypeVector = 23,
    TypeMatrix = 24,
    TypeStruct = 30,
    MemberDecorate = 72
  };
  std::map<uint32_t, std::pair<size_t, size_t>> types;  // id -> size, std430 alignment
  std::map<uint32_t, std::vector<uint32_t>> structs;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> offsets;
  uint32_t id = 0;
  for (size_t i = 5; i < spv.size();) {
    uint32_t words = spv[i] >> 16, op = spv[i] & 0xffff;
    const uint32_t* w = &spv[i + 1];
    if (op == Name && std::string(reinterpret_cast<const char*>(w + 1)) == block) id = w[0];
    if (op == TypeInt || op == TypeFloat) types[w[0]] = {w[1] / 8, w[1] / 8};
    if (op == TypeVector) {
      auto [s, a] = types.at(w[1]);
      types[w[0]] = {s * w[2], s * (w[2] == 2 ? 2 : 4)};
    }
    if (op == TypeMatrix) types[w[0]] = {types.at(w[1]).first * w[2], types.at(w[1]).second};
    if (op == TypeStruct) structs[w[0]].assign(w + 1, w + words - 1);
    if (op == MemberDecorate && w[2] == 35) offsets[{w[0], w[1]}] = w[3];  // Offset
    i += words;
  }
  Std430 r;
  EXPECT_TRUE(structs.count(id)) << block << " is not in the SPIR-V";
  for (uint32_t m = 0; m < structs[id].size(); ++m) {
    auto [size, align] = types.at(structs[id][m]);
    r.end = std::max<size_t>(r.end, offsets.at({id, m}) + size);
    r.align = std::max(r.align, align);
  }
  return r;
}

std::set<std::string> blocks_defined(const fs::path& header) {
  std::set<std::string> defined;
  std::regex block(R"(PUSH_BLOCK\((\w+)\))");
  std::stringstream text;
  text << std::ifstream(header).rdbuf();
  std::string s = text.str();
  for (std::sregex_iterator it(s.begin(), s.end(), block), end; it != end; ++it) defined.insert((*it)[1]);
  return defined;
}

}  // namespace

namespace push_layout {

std::set<std::string>& checked_headers() {
  static std::set<std::string> headers;
  return headers;
}

void check(const std::string& header, const std::vector<Block>& blocks) {
  std::set<std::string> listed;
  for (const Block& b : blocks) {
    listed.insert(b.name);
    std::string src = std::string("#version 460\n#extension GL_GOOGLE_include_directive : require\n#define PUSH_") +
                      b.name + "\n#include \"" + header + "\"\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
    auto r =
        gpu::compile_glsl(src, gpu::ShaderStage::Compute, b.name, {kSourceRoot, kSourceRoot / "shaders/common"}, false);
    ASSERT_TRUE(r.ok) << b.name << ": " << r.messages;
    auto l = spirv_layout(r.spirv, b.name);
    size_t std430 = (l.end + l.align - 1) / l.align * l.align;
    EXPECT_EQ(b.cpp_size, std430) << b.name << ": C++ " << b.cpp_size << " bytes, GLSL ends at " << l.end
                                  << " (alignment " << l.align << ")";
  }
  EXPECT_EQ(listed, blocks_defined(kSourceRoot / header))
      << header << ": the test's list and the header's blocks differ";
}

}  // namespace push_layout

// Every push header in shaders/ has a list of its blocks in a test.
TEST(PushLayout, EveryPushHeaderIsChecked) {
  size_t headers = 0;
  for (auto& e : fs::recursive_directory_iterator(kSourceRoot / "shaders")) {
    std::string name = e.path().filename().string();
    if (name.size() < 7 || name.substr(name.size() - 7) != "_push.h") continue;
    ++headers;
    std::string rel = fs::relative(e.path(), kSourceRoot).generic_string();
    EXPECT_TRUE(push_layout::checked_headers().count(rel)) << rel << " has no PUSH_LAYOUT_TEST";
  }
  EXPECT_GE(headers, 8u);
}

// The shared blocks: the GPU runtime's and the render kit's.
PUSH_LAYOUT_TEST(Gpu, "shaders/common/gpu_push.h", PUSH_LAYOUT(SaxpyPush), PUSH_LAYOUT(ClockProbePush),
                 PUSH_LAYOUT(PeakPush))

PUSH_LAYOUT_TEST(Render, "shaders/common/render_push.h", PUSH_LAYOUT(HeatmapPush), PUSH_LAYOUT(LegendPush))
