// The push-constant blocks written once in shaders/common/*_push.h: for every block, the
// size the C++ struct has equals the std430 size the GLSL compiler gives the same text
// (its SPIR-V Offset decorations and member types), so a type whose alignment push.h does
// not map (a vec3, an unaligned vector) fails here and not as garbage on the GPU.
#include "gpu/shader_compile.h"

#include "cloth_push.h"
#include "diffusion_push.h"
#include "floatlab_push.h"
#include "gpu_push.h"
#include "linalg_push.h"
#include "machining_push.h"
#include "render_push.h"
#include "wave_push.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace {

struct Block {
  const char* header;
  const char* name;
  size_t cpp_size;
};
#define BLOCK(header, T) \
  Block { header, #T, sizeof(push::T) }
const Block kBlocks[] = {
    BLOCK("cloth_push.h", ClothStepPush),
    BLOCK("cloth_push.h", ClothProjectPush),
    BLOCK("cloth_push.h", ClothNormalsPush),
    BLOCK("cloth_push.h", ClothStatsPush),
    BLOCK("diffusion_push.h", DiffusionStepPush),
    BLOCK("diffusion_push.h", DiffusionPaintPush),
    BLOCK("diffusion_push.h", DiffusionStatsPush),
    BLOCK("floatlab_push.h", FloatOpPush),
    BLOCK("floatlab_push.h", FloatProbePush),
    BLOCK("floatlab_push.h", FloatLoopPush),
    BLOCK("floatlab_push.h", FloatVmPush),
    BLOCK("floatlab_push.h", FloatTest9Push),
    BLOCK("gpu_push.h", SaxpyPush),
    BLOCK("gpu_push.h", ClockProbePush),
    BLOCK("gpu_push.h", PeakPush),
    BLOCK("linalg_push.h", AxpbyPush),
    BLOCK("linalg_push.h", DotOnePush),
    BLOCK("linalg_push.h", DotThesisPush),
    BLOCK("linalg_push.h", DotFfPush),
    BLOCK("linalg_push.h", FfPush),
    BLOCK("linalg_push.h", BandedPush),
    BLOCK("linalg_push.h", FracSweepPush),
    BLOCK("linalg_push.h", DenseThesisPush),
    BLOCK("linalg_push.h", DenseRowsPush),
    BLOCK("linalg_push.h", CgPush),
    BLOCK("linalg_push.h", StencilPush),
    BLOCK("linalg_push.h", CgStencilPush),
    BLOCK("linalg_push.h", GatePush),
    BLOCK("linalg_push.h", UnpackPush),
    BLOCK("machining_push.h", EnginePush),
    BLOCK("machining_push.h", HwPush),
    BLOCK("machining_push.h", NarrowPush),
    BLOCK("render_push.h", HeatmapPush),
    BLOCK("render_push.h", LegendPush),
    BLOCK("render_push.h", ClothPush),
    BLOCK("render_push.h", PropsPush),
    BLOCK("render_push.h", MeshPush),
    BLOCK("render_push.h", StockPush),
    BLOCK("render_push.h", ToolPush),
    BLOCK("render_push.h", WaterTopPush),
    BLOCK("render_push.h", WaterSurfacePush),
    BLOCK("wave_push.h", WaveRhsPush),
    BLOCK("wave_push.h", WaveEnergyPush),
    BLOCK("wave_push.h", WaveDisturbPush),
};
#undef BLOCK

const fs::path kCommon = fs::path(VKLAB_SOURCE_SHADER_DIR) / "common";

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

}  // namespace

TEST(PushLayout, EveryBlockHasTheSameSizeInCppAndGlsl) {
  for (const Block& b : kBlocks) {
    std::string src = std::string("#version 460\n#extension GL_GOOGLE_include_directive : require\n#define PUSH_") +
                      b.name + "\n#include \"" + b.header + "\"\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
    auto r = gpu::compile_glsl(src, gpu::ShaderStage::Compute, b.name, {kCommon}, false);
    ASSERT_TRUE(r.ok) << b.name << ": " << r.messages;
    auto l = spirv_layout(r.spirv, b.name);
    size_t std430 = (l.end + l.align - 1) / l.align * l.align;
    EXPECT_EQ(b.cpp_size, std430) << b.name << ": C++ " << b.cpp_size << " bytes, GLSL ends at " << l.end
                                  << " (alignment " << l.align << ")";
  }
}

// Every block the headers define is in the table above.
TEST(PushLayout, TheTableListsEveryBlock) {
  std::set<std::string> listed, defined;
  for (const Block& b : kBlocks) listed.insert(b.name);
  std::regex block(R"(PUSH_BLOCK\((\w+)\))");
  for (auto& e : fs::directory_iterator(kCommon)) {
    if (e.path().filename().string().find("_push.h") == std::string::npos) continue;
    std::stringstream text;
    text << std::ifstream(e.path()).rdbuf();
    std::string s = text.str();
    for (std::sregex_iterator it(s.begin(), s.end(), block), end; it != end; ++it) defined.insert((*it)[1]);
  }
  EXPECT_EQ(listed, defined);
}
