// The shipped exercises (assets/<lab>/exercises/<name>/): every lab has one, each starting
// kernel fails its check and each solution passes it, with the lab's shipped kernel within the
// tolerance of the CPU twin on every case.
#include "app/core/lab.h"
#include "compute/exercise/check.h"
#include "tests/exercise/shipped.h"
#include "tests/helpers.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {}  // namespace

// Every lab offers at least one exercise, every exercise folder is one vklab loads, and each
// exercise's files say what they are: the kernels name their exercise, the task says the
// solution is for teachers.
TEST(ExerciseCatalogue, EveryLabHasAnExerciseAndEachIsWhole) {
  std::vector<std::string> names;
  for (auto& e : shipped_exercises()) names.push_back(e.name);
  EXPECT_EQ(names, kExerciseNames);
  for (auto& lab : lab_names()) {
    size_t n =
        std::count_if(shipped_exercises().begin(), shipped_exercises().end(), [&](auto& e) { return e.lab == lab; });
    EXPECT_GE(n, 1u) << "lab " << lab << " has no exercise";
  }
  for (auto& e : shipped_exercises()) {
    EXPECT_EQ(exercise::exercise_named_in(e.start()), e.name);
    EXPECT_EQ(exercise::exercise_named_in(e.solution()), e.name);
    EXPECT_NE(e.task().find("is the solution, for teachers"), std::string::npos) << e.name;
    EXPECT_NE(e.start(), e.solution()) << e.name;
    EXPECT_GE(e.cases.size(), 3u) << e.name;
    EXPECT_FALSE(e.tolerance.what.empty()) << e.name;
  }
}

// A malformed check.json is refused with its file named.
TEST(ExerciseCatalogue, AMalformedCheckIsSaidWithItsFile) {
  auto dir = scratch("exercise-malformed") / "linalg" / "exercises" / "broken";
  fs::create_directories(dir);
  for (const char* f : {"task.md", "start.comp", "solution.comp"}) std::ofstream(dir / f) << "x";
  std::ofstream(dir / "check.json")
      << R"({"title": "t", "source": "s", "operator": "no.such", "tolerance": {"ulps": 1, "what": "w"}, "cases": []})";
  try {
    exercise::load_exercise(dir);
    ADD_FAILURE() << "an unknown operator should be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("check.json"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("unknown operator 'no.such'"), std::string::npos) << e.what();
  }
}

class ExerciseShipped : public GpuTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(ExerciseShipped, TheStartFailsAndTheSolutionPasses) {
  const auto& e = exercise::find_exercise(shipped_exercises(), GetParam());
  auto start = exercise::check_source(ctx(), e, e.start(), "start.comp");
  EXPECT_TRUE(start.compile.ok) << start.compile.messages;  // a gap or a bug, not a syntax error
  EXPECT_FALSE(start.pass) << exercise::format_report(e, start);
  EXPECT_EQ(start.verdict.rfind("FAIL", 0), 0u) << start.verdict;
  size_t wrong = 0;
  for (auto& c : start.cases)
    for (auto& a : c.arrays) wrong += a.wrong;
  bool said =
      wrong > 0 || std::any_of(start.cases.begin(), start.cases.end(), [](auto& c) { return !c.trouble.empty(); });
  EXPECT_TRUE(said) << "the start fails without a wrong word or a trouble said";

  auto solution = exercise::check_source(ctx(), e, e.solution(), "solution.comp");
  EXPECT_TRUE(solution.pass) << exercise::format_report(e, solution);
  EXPECT_EQ(solution.verdict.rfind("PASS", 0), 0u) << solution.verdict;
  ASSERT_EQ(solution.cases.size(), e.cases.size());
  for (auto& c : solution.cases) {
    EXPECT_TRUE(c.trouble.empty()) << c.name << ": " << c.trouble;
    ASSERT_FALSE(c.arrays.empty()) << c.name;
    for (auto& a : c.arrays) {
      EXPECT_GT(a.words, 0u);
      EXPECT_EQ(a.shipped_wrong, 0u) << c.name << ": the lab's kernel is outside the tolerance on " << a.name;
      EXPECT_FALSE(a.picture.empty()) << c.name << ": no difference picture";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Each, ExerciseShipped, ::testing::ValuesIn(kExerciseNames), exercise_test_name);
