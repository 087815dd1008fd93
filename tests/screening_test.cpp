// The pieces of docs/SECURITY.md, each alone: the front end for user text, the SPIR-V screen,
// the loop budget's saturating step, whole-or-nothing writes, the font check and the bounds on
// an exercise's check data. The hostile corpus (hostile_test.cpp) runs them together.
#include "compute/exercise/operator.h"
#include "compute/gpu/loop_budget.h"
#include "compute/gpu/shader_compile.h"
#include "compute/gpu/spirv_screen.h"
#include "compute/io/output.h"
#include "compute/io/user_text.h"
#include "render/font_check.h"
#include "tests/helpers.h"

#include <fstream>

namespace fs = std::filesystem;

namespace {

// The line and reason a text is refused with ("" and 0 when accepted).
std::pair<int, std::string> refusal(const std::string& text, const io::TextLimits& limits = {}) {
  try {
    io::normalized_user_text(text, limits);
    return {0, ""};
  } catch (const io::TextRefused& e) {
    return {e.line, e.why};
  }
}

}  // namespace

TEST(UserText, WhatTheCompilerReadsIsWhatIsScreened) {
  EXPECT_EQ(io::normalized_user_text("\xEF\xBB\xBFint a;\r\nint b;\n"), "int a;\nint b;\n");
  // A byte order mark past the start (the fuzzer's two in a row) is refused where it is.
  EXPECT_EQ(refusal("\xEF\xBB\xBF\xEF\xBB\xBF").first, 1);
  EXPECT_NE(refusal("int a;\n\xEF\xBB\xBFint b;\n").second.find("byte order mark"), std::string::npos);
  EXPECT_EQ(refusal("int a;\n\xEF\xBB\xBFint b;\n").first, 2);
  EXPECT_EQ(refusal("int a;\nint b;\r#include \"x\"\n"), std::make_pair(2, refusal("\r").second));
  EXPECT_NE(refusal("\r").second.find("carriage return"), std::string::npos);
  auto [line, why] = refusal("int a;\nwhi\\\nle (true) {}\n");
  EXPECT_EQ(line, 2);
  EXPECT_NE(why.find("line continuation"), std::string::npos);
  EXPECT_EQ(refusal("int a;\\\r\n").first, 1);  // before a CRLF too
  EXPECT_EQ(refusal("a\nb\nc", {1024, 8, 128}).first, 0);
  EXPECT_EQ(refusal(std::string("int\0a;", 6)).second, "a NUL byte: a kernel is text");
  EXPECT_NE(refusal("a\nb\nc\nd\n", {1024, 3, 128}).second.find("more than 3 lines"), std::string::npos);
  EXPECT_EQ(refusal("int " + std::string(129, 'x') + ";").first, 1);
  EXPECT_EQ(refusal("int " + std::string(128, 'x') + ";").first, 0);
  EXPECT_NE(refusal(std::string(2048, ' '), {1024, 8000, 128}).second.find("more than the 1 KiB"), std::string::npos);
  EXPECT_EQ(refusal("int a;\n// " + std::string(5000, '.') + "\n"),
            std::make_pair(2, std::string("a line longer than 4096 characters")));
}

TEST(UserText, ExtensionsOffTheListAreRefused) {
  EXPECT_NO_THROW(io::check_extension_line("#extension GL_EXT_shader_atomic_float : require", 3));
  EXPECT_NO_THROW(io::check_extension_line("  #  extension GL_KHR_shader_subgroup_arithmetic:enable // sums", 3));
  for (const char* bad :
       {"#extension GL_EXT_buffer_reference : require", "#extension GL_GOOGLE_include_directive : enable",
        "#extension GL_EXT_shader_atomic_float : require junk", "#extension all : warn"}) {
    try {
      io::check_extension_line(bad, 7);
      ADD_FAILURE() << bad << ": accepted";
    } catch (const io::TextRefused& e) {
      EXPECT_EQ(e.line, 7) << bad;
    }
  }
}

class SpirvScreen : public GpuTest {
 protected:
  std::string refused(const std::string& glsl) {
    auto r = gpu::compile_glsl(glsl, gpu::ShaderStage::Compute, "screened");
    if (!r.ok) return "does not compile: " + r.messages;
    try {
      gpu::screen_spirv(r.spirv, ctx());
      return "";
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
  }
};

TEST_F(SpirvScreen, KernelsWithinTheDevicesLimitsPassAndOthersSayWhy) {
  const std::string head = "#version 460\nlayout(std430, binding = 0) buffer B { float v[]; };\n";
  EXPECT_EQ(refused(head + "layout(local_size_x = 64) in;\nshared float s[64];\nvoid main() { "
                           "s[gl_LocalInvocationID.x] = v[gl_GlobalInvocationID.x]; barrier(); "
                           "v[gl_GlobalInvocationID.x] = s[63u - gl_LocalInvocationID.x]; }\n"),
            "");
  const uint32_t shared_floats = ctx().props.limits.maxComputeSharedMemorySize / 4 + 1;
  EXPECT_NE(refused(head + "layout(local_size_x = 64) in;\nshared float s[" + std::to_string(shared_floats) +
                    "];\nvoid main() { s[gl_LocalInvocationID.x * 97u] = v[0]; barrier(); "
                    "v[gl_GlobalInvocationID.x] = s[(gl_LocalInvocationID.x + 1u) * 97u]; }\n")
                .find("shared variables take " + std::to_string(shared_floats * 4) + " bytes"),
            std::string::npos);
  EXPECT_NE(refused(head + "layout(local_size_x = 64) in;\nvoid main() { float a[20000]; "
                           "for (int k = 0; k < 20000; ++k) a[k] = v[k]; v[gl_GlobalInvocationID.x] = "
                           "a[gl_GlobalInvocationID.x % 20000u]; }\n")
                .find("local variables take 80000 bytes"),
            std::string::npos);
  const uint32_t most = ctx().props.limits.maxComputeWorkGroupInvocations;
  EXPECT_NE(refused(head + "layout(local_size_x = 32, local_size_y = " + std::to_string(most / 32 + 1) +
                    ") in;\nvoid main() { v[0] = 1.0; }\n")
                .find("a workgroup of"),
            std::string::npos);
  // A capability outside the list: raw device addresses.
  EXPECT_NE(refused("#version 460\n#extension GL_EXT_buffer_reference : require\nlayout(buffer_reference) buffer P "
                    "{ float x; };\nlayout(push_constant) uniform A { P p; };\nlayout(local_size_x = 1) in;\n"
                    "void main() { p.x = 1.0; }\n")
                .find("PhysicalStorageBufferAddresses"),
            std::string::npos);
  // An array sized by a specialization-constant expression: its size cannot be bounded.
  EXPECT_NE(refused(head + "layout(local_size_x = 1) in;\nlayout(constant_id = 0) const uint N = 4u;\n"
                           "void main() { float a[N + 1u]; for (uint k = 0u; k < N + 1u; ++k) a[k] = v[k]; "
                           "v[0] = a[uint(v[1]) % (N + 1u)]; }\n")
                .find("specialization-constant expression"),
            std::string::npos);
  // Scalar block layout where the device enabled it (the validator is told).
  if (ctx().scalar_block) {
    EXPECT_EQ(refused("#version 460\n#extension GL_EXT_scalar_block_layout : require\nlayout(scalar, binding = 0) "
                      "buffer B { vec3 p[]; };\nlayout(local_size_x = 1) in;\nvoid main() { p[1] = p[0]; }\n"),
              "");
  }
  // A type the device enables or not.
  std::string f64 = refused(head +
                            "layout(local_size_x = 1) in;\nvoid main() { double d = double(v[0]); "
                            "v[0] = float(d * d); }\n");
  EXPECT_EQ(f64.empty(), ctx().info.fp64) << f64;
}

// A function's loop called from a counted loop spends from the same budget: the counted loop is
// tested instead, and its step (where counted) saturates at 0 instead of wrapping.
TEST(LoopBudget, ACountedLoopCallingALoopingFunctionIsTested) {
  std::string code =
      "float f(float x) { float s = 0.0; while (s < x) s += 1.0; return s; }\n"
      "void main() { float z = 0.0; for (uint k = 0u; k < 100000u; ++k) z += f(1.0); }\n";
  auto b = gpu::budget_loops(code);
  EXPECT_NE(b.text.find("for (uint k = 0u; (k < 100000u) && vklab_spend(2u); ++k)"), std::string::npos) << b.text;
  auto plain = gpu::budget_loops("void main() { float z = 0.0; for (uint k = 0u; k < n; ++k) z += sin(z); }\n");
  EXPECT_NE(plain.text.find("vklab_left_ -= min(vklab_left_, 1u)"), std::string::npos) << plain.text;
}

TEST(Output, AFileIsReplacedWholeOrNotAtAll) {
  auto dir = scratch("output-file");
  io::write_file(dir / "a.txt", "first");
  io::write_file(dir / "a.txt", "second");
  EXPECT_EQ(file_bytes(dir / "a.txt"), "second");
  EXPECT_THROW(io::write_file(dir / "none" / "a.txt", "x"), std::runtime_error);
  {
    io::OutputFile f(dir / "a.txt");
    std::ofstream(f.temporary()) << "half";
  }  // no commit: the target stays, the temporary goes
  EXPECT_EQ(file_bytes(dir / "a.txt"), "second");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
}

TEST(Output, AFolderIsSwappedWholeAndAUsersOwnFilesStay) {
  auto dir = scratch("output-folder");
  auto fill = [&](const std::string& text) {
    io::OutputFolder f(dir / "d");
    io::write_file(f.folder() / "params.json", text);
    io::write_file(f.folder() / "a.npy", text);
    f.commit();
  };
  fill("one");
  fill("two");
  EXPECT_EQ(file_bytes(dir / "d" / "params.json"), "two");
  EXPECT_EQ(file_bytes(dir / "d" / "a.npy"), "two");
  io::write_file(dir / "d" / "notes.txt", "mine");
  fill("three");
  EXPECT_EQ(file_bytes(dir / "d" / "notes.txt"), "mine");
  EXPECT_EQ(file_bytes(dir / "d" / "a.npy"), "three");
  {
    io::OutputFolder f(dir / "d");
    io::write_file(f.folder() / "params.json", "never");
  }
  EXPECT_EQ(file_bytes(dir / "d" / "params.json"), "three");
  io::write_file(dir / "f", "a file in the way");
  {
    io::OutputFolder f(dir / "f");
    io::write_file(f.folder() / "a.npy", "x");
    EXPECT_THROW(f.commit(), std::runtime_error);
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 2) << "a temporary folder was left";
}

TEST(FontCheck, TheShippedFontPassesAndDamagedOnesSayWhy) {
  std::string bytes = file_bytes("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
  ASSERT_FALSE(bytes.empty());
  std::vector<unsigned char> ttf(bytes.begin(), bytes.end());
  EXPECT_EQ(render::font_problem(ttf), "");
  auto cut = ttf;
  cut.resize(30000);
  EXPECT_EQ(render::font_problem(cut), "a table lies past the end of the file");
  std::vector<unsigned char> junk(5000, 'x');
  EXPECT_EQ(render::font_problem(junk), "not a TrueType font file");
  // The 'loca' table's length cut to 2 bytes in the table directory.
  auto bad = ttf;
  for (size_t rec = 12; rec + 16 <= bad.size() && rec < 12 + 16 * 64; rec += 16)
    if (std::string(bad.begin() + long(rec), bad.begin() + long(rec) + 4) == "loca")
      bad[rec + 12] = bad[rec + 13] = bad[rec + 14] = 0, bad[rec + 15] = 2;
  EXPECT_EQ(render::font_problem(bad), "a 'loca' table too short");
}

TEST(ExerciseCase, IntegersFromCheckDataAreBoundedBeforeAnythingIsSized) {
  exercise::Case c;
  c.name = "hostile";
  for (const char* v : {"-1", "4000000000", "16777217", "1.5", "\"many\""}) {
    c.values = nlohmann::json::parse(std::string("{\"n\": ") + v + "}");
    EXPECT_THROW(c.u("n"), std::invalid_argument) << v;
  }
  c.values = nlohmann::json::parse("{\"n\": 16777216, \"d\": -3}");
  EXPECT_EQ(c.u("n"), 16777216u);
  EXPECT_EQ(c.i("d"), -3);
}
