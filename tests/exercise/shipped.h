// The shipped exercises (assets/<lab>/exercises/<name>/) as the exercise tests see them.
#pragma once
#include "app/core/lab.h"
#include "compute/exercise/check.h"
#include "compute/exercise/exercise.h"
#include "compute/exercise/user_kernel.h"
#include "tests/helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

// Every folder under assets/<lab>/exercises/, as "lab/name", sorted: the exercises the tests run,
// found as vklab finds them (a folder without its check.json fails the catalogue's test).
inline std::vector<std::string> exercise_folders() {
  std::vector<std::string> names;
  for (auto& lab : std::filesystem::directory_iterator(kSourceRoot / "assets"))
    if (std::filesystem::is_directory(lab.path() / "exercises"))
      for (auto& e : std::filesystem::directory_iterator(lab.path() / "exercises"))
        if (e.is_directory()) names.push_back(lab.path().filename().string() + "/" + e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}
inline const std::vector<std::string> kExerciseNames = exercise_folders();

inline const std::vector<exercise::Exercise>& shipped_exercises() {
  static const auto all = exercise::load_exercises(kSourceRoot / "assets");
  return all;
}

inline const exercise::Exercise& shipped(const std::string& name) {
  return exercise::find_exercise(shipped_exercises(), name);
}

// `text` compiled as a user's kernel; a failed compile fails the test with the compiler's words.
inline std::unique_ptr<exercise::UserKernel> compile_user_kernel(gpu::Context& ctx, const std::string& text) {
  exercise::CompileOutcome out;
  auto k = exercise::UserKernel::compile(ctx, text, "kernel.comp", out);
  EXPECT_TRUE(k) << out.messages;
  return k;
}

// "linalg/axpby" -> "linalg_axpby": a test's name.
inline std::string exercise_test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

// The labs' hooks (Lab::use_kernel) and their exercises' cases: tests/<lab>/exercise_*_test.cpp.
// `n` steps of `lab` in one submission.
inline void lab_steps(gpu::Context& ctx, Lab& lab, uint32_t n) {
  gpu::Profiler prof(ctx);
  ctx.submit_now([&](VkCommandBuffer cmd) {
    prof.begin_frame(cmd);
    lab.step(cmd, prof, n);
  });
  prof.resolve();
}

// The first of the lab's state parts, read back.
inline std::vector<float> lab_state(Lab& lab) {
  auto parts = lab.state_parts();
  EXPECT_FALSE(parts.empty());
  return parts.empty() ? std::vector<float>{} : parts[0].buffer->download<float>();
}

// `text` with its first `from` replaced by `to` (which must be there).
inline std::string lab_kernel_with(const std::string& text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "'" << from << "' is not in the kernel";
  if (at == std::string::npos) return text;
  return text.substr(0, at) + to + text.substr(at + from.size());
}

// Which of the exercise's cases `kernel` passes, by name, after it compiles.
inline std::map<std::string, bool> lab_kernel_cases(gpu::Context& ctx, const exercise::Exercise& e,
                                                    const std::string& kernel) {
  auto r = exercise::check_source(ctx, e, kernel, "kernel.comp");
  EXPECT_TRUE(r.compile.ok) << r.compile.messages;
  std::map<std::string, bool> pass;
  for (auto& c : r.cases) {
    pass[c.name] = c.pass;
    EXPECT_TRUE(c.validation.empty()) << c.name;
  }
  EXPECT_EQ(pass.size(), e.cases.size());
  return pass;
}

// Whether `kernel` passes the exercise's case named `name` (that case alone is run).
inline bool lab_kernel_passes(gpu::Context& ctx, const exercise::Exercise& e, const std::string& kernel,
                              const std::string& name) {
  for (size_t i = 0; i < e.cases.size(); ++i)
    if (e.cases[i].name == name) {
      auto r = exercise::check_source(ctx, e, kernel, "kernel.comp", int(i));
      EXPECT_TRUE(r.compile.ok) << r.compile.messages;
      EXPECT_EQ(r.cases.size(), 1u);
      EXPECT_TRUE(r.cases.empty() || r.cases[0].validation.empty()) << name;
      return r.pass;
    }
  ADD_FAILURE() << e.name << " has no case '" << name << "'";
  return false;
}

using ExerciseLabHook = GpuTest;
using ExerciseLabKernels = GpuTest;
