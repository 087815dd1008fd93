// The shipped exercises (assets/exercises/<lab>/<name>/) as the exercise tests see them.
#pragma once
#include "compute/exercise/exercise.h"
#include "compute/exercise/user_kernel.h"
#include "tests/helpers.h"

#include <gtest/gtest.h>

#include <cctype>
#include <memory>
#include <string>
#include <vector>

inline const std::vector<std::string> kExerciseNames = {
    "cloth/colour",           "diffusion/laplacian", "floatlab/add12-mul12",
    "floatlab/probes",        "linalg/axpby",        "linalg/banded",
    "linalg/cg-update",       "linalg/dot",          "machining/atomic-lowering",
    "machining/intersection", "mesh/star-areas",     "wave/rhs"};

inline const std::vector<exercise::Exercise>& shipped_exercises() {
  static const auto all = exercise::load_exercises(kSourceRoot / "assets" / "exercises");
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
