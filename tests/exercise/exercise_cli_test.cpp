// `vklab exercise --check FILE` as a teacher runs it on thirty files: a verdict and an exit code
// (0 pass, 5 fail); `vklab --list-exercises`; and clear messages for what is not a check.
#include "tests/exercise/shipped.h"
#include "tests/helpers.h"

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {

fs::path exercise_file(const std::string& name, const char* file) {
  auto slash = name.find('/');
  return kSourceRoot / "assets" / name.substr(0, slash) / "exercises" / name.substr(slash + 1) / file;
}

}  // namespace

class ExerciseCli : public ::testing::TestWithParam<std::string> {};

// The exit codes a grading script reads: the starting kernel fails (5), the solution passes (0);
// the exercise comes from the file's own "// exercise:" line.
TEST_P(ExerciseCli, TheStartExitsFiveAndTheSolutionZero) {
  auto start = run_process(vklab_args("exercise --check " + exercise_file(GetParam(), "start.comp").string()));
  EXPECT_EQ(start.code, 5) << start.out << start.err;
  EXPECT_NE(start.out.find("exercise " + GetParam() + ":"), std::string::npos) << start.out;
  EXPECT_NE(start.out.find("verdict: FAIL"), std::string::npos) << start.out;
  auto solution =
      run_process(vklab_args("exercise --validate --check " + exercise_file(GetParam(), "solution.comp").string()));
  EXPECT_EQ(solution.code, 0) << solution.out << solution.err;
  EXPECT_NE(solution.out.find("verdict: PASS"), std::string::npos) << solution.out;
  EXPECT_EQ(solution.err.find("validation"), std::string::npos) << solution.err;
  // the checker's device drops writes past an array (lavapipe has robustBufferAccess)
  EXPECT_NE(solution.out.find("dropped by the device (robust buffer access)"), std::string::npos) << solution.out;
}

INSTANTIATE_TEST_SUITE_P(Each, ExerciseCli, ::testing::ValuesIn(kExerciseNames), exercise_test_name);

TEST(ExerciseCliMessages, ListsTheExercises) {
  auto r = run_process(vklab_args("--list-exercises"));
  ASSERT_EQ(r.code, 0) << r.err;
  for (auto& n : kExerciseNames) EXPECT_NE(r.out.find(n + " "), std::string::npos) << n << "\n" << r.out;
}

TEST(ExerciseCliMessages, SaysWhatIsNotACheck) {
  auto dir = scratch("exercise-cli");
  auto bare = dir / "bare.comp";
  std::ofstream(bare) << "#version 460\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
  auto r = run_process(vklab_args("exercise --check " + bare.string()));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("names no exercise: give --exercise NAME"), std::string::npos) << r.err;

  r = run_process(vklab_args("exercise --check " + bare.string() + " --exercise linalg/nothing"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("unknown exercise 'linalg/nothing' (exercises: "), std::string::npos) << r.err;

  r = run_process(vklab_args("exercise --check " + (dir / "missing.comp").string() + " --exercise linalg/axpby"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("missing.comp: cannot read the file"), std::string::npos) << r.err;

  r = run_process(vklab_args("exercise"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("vklab exercise needs --check FILE"), std::string::npos) << r.err;

  // With --exercise, any file is checked against that exercise: the empty kernel writes nothing.
  r = run_process(vklab_args("exercise --check " + bare.string() + " --exercise linalg/axpby"));
  EXPECT_EQ(r.code, 5) << r.out << r.err;
  EXPECT_NE(r.out.find("verdict: FAIL"), std::string::npos) << r.out;
  fs::remove_all(dir);
}
