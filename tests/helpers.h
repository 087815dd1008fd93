// Shared test helpers: one validated Vulkan context per test binary, a fixture that fails
// any test during which a validation message appeared, random data, and a process runner.
#pragma once
#include "compute/gpu/context.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

gpu::Context& test_context();  // validation + synchronization validation on

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
