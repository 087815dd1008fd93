// Shared test helpers: one validated Vulkan context per test binary, a fixture that fails
// any test during which a validation message appeared, random data, and a process runner.
#pragma once
#include "compute/gpu/context.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

gpu::Context& test_context();  // validation + synchronization validation on
// For a test's own context: validation on, its messages counted (validation_count) but not printed.
gpu::ContextOptions validated_options();

// The repository checkout the tests were built from (its sources, shaders and assets).
inline const std::filesystem::path kSourceRoot = std::filesystem::path(VKLAB_SOURCE_ASSET_DIR).parent_path();

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override { before_ = test_context().validation_count(); }
  void TearDown() override {
    auto& ctx = test_context();
    auto messages = ctx.validation_messages();
    std::string text;
    for (size_t i = before_; i < messages.size(); ++i) text += messages[i] + "\n";
    EXPECT_EQ(ctx.validation_count(), before_) << "validation messages during this test:\n" << text;
  }
  gpu::Context& ctx() { return test_context(); }

 private:
  uint64_t before_ = 0;
};

// Uniform in [lo, hi]; callers pick ranges that exclude zero where zero would hide bugs.
std::vector<float> random_floats(size_t n, float lo, float hi, uint32_t seed);

struct ProcessResult {
  int code = -1;
  std::string out, err;
};
// Runs a shell command line; stdout and stderr captured separately.
ProcessResult run_process(const std::string& command);
std::string vklab_exe();
// The vklab command line with these arguments (for run_process).
std::string vklab_args(const std::string& args);
// An empty folder under the temporary directory, named for the test and this process.
std::filesystem::path scratch(const std::string& name);
// A file's bytes ("" when it cannot be read): e.g. to compare two captures.
std::string file_bytes(const std::filesystem::path& path);

// A PNG's pixels as RGBA bytes (empty when it cannot be read): what a capture shows.
struct Picture {
  int w = 0, h = 0;
  std::vector<unsigned char> rgba;
  bool empty() const { return rgba.empty(); }
  // f(p) for each pixel p (its R, G, B, A) of columns [x0, x1) and rows [y0, y1), clipped.
  template <class F>
  void each(int x0, int y0, int x1, int y1, F f) const {
    for (int y = std::max(y0, 0); y < std::min(y1, h); ++y)
      for (int x = std::max(x0, 0); x < std::min(x1, w); ++x) f(rgba.data() + (size_t(y) * size_t(w) + size_t(x)) * 4);
  }
};
Picture load_picture(const std::filesystem::path& png);
// A pixel's colour as one number, to count distinct colours.
inline uint32_t rgb(const unsigned char* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16; }
