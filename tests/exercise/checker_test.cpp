// The checker catches the usual mistakes, each planted in a shipped solution: a race (a missing
// barrier, a lowering without atomics), an off-by-one at the border (of an array, of a grid), a
// kernel that never returns (the loop budget stops it and names its line), and what is not a
// kernel of the exercise (a compile error on the user's line, a binding it does not have, an
// input written to).
#include "compute/exercise/check.h"
#include "tests/exercise/shipped.h"
#include "tests/helpers.h"

#include <chrono>

namespace {

// `text` with its first `from` replaced by `to` (which must be there).
std::string planted(const std::string& text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "'" << from << "' is not in the kernel";
  if (at == std::string::npos) return text;
  return text.substr(0, at) + to + text.substr(at + from.size());
}

int line_of(const std::string& text, const std::string& what) {
  size_t at = text.find(what);
  return at == std::string::npos ? -1 : int(std::count(text.begin(), text.begin() + long(at), '\n')) + 1;
}

size_t wrong_words(const exercise::Report& r) {
  size_t n = 0;
  for (auto& c : r.cases)
    for (auto& a : c.arrays) n += a.wrong;
  return n;
}

}  // namespace

using ExerciseChecker = GpuTest;

// The dot product's tree without the barrier between its rounds: invocations read sums their
// neighbours have not written yet.
TEST_F(ExerciseChecker, CatchesAMissingBarrier) {
  const auto& e = shipped("linalg/dot");
  std::string racy = planted(e.solution(), "sums[l + span];\n    barrier();", "sums[l + span];");
  auto r = exercise::check_source(ctx(), e, racy, "racy.comp");
  ASSERT_TRUE(r.compile.ok) << r.compile.messages;
  EXPECT_FALSE(r.pass) << exercise::format_report(e, r);
  EXPECT_GT(wrong_words(r), 0u);
}

// The machining lowering as a plain read-compare-write: racing invocations lose lowerings, and
// the report says which brin, how many pairs lower it and which one should have won.
TEST_F(ExerciseChecker, CatchesALoweringWithoutAtomics) {
  const auto& e = shipped("machining/atomic-lowering");
  std::string racy = planted(e.solution(), "atomicMin(H[b], k);", "if (k < H[b]) H[b] = k;");
  auto r = exercise::check_source(ctx(), e, racy, "racy.comp", 0);
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_FALSE(r.pass) << exercise::format_report(e, r);
  ASSERT_EQ(r.cases[0].arrays.size(), 1u);
  const auto& h = r.cases[0].arrays[0];
  EXPECT_GT(h.wrong, 0u);
  EXPECT_GT(h.got, h.want) << "a lost lowering leaves the brin too high";
  EXPECT_NE(h.inputs.find("pairs lower it"), std::string::npos) << h.inputs;
}

// axpby testing i > n instead of i >= n: element n is written, past the end of OUT.
TEST_F(ExerciseChecker, CatchesAnOffByOneAtTheEndOfAnArray) {
  const auto& e = shipped("linalg/axpby");
  std::string off = planted(e.solution(), "if (i >= n) return;", "if (i > n) return;");
  auto r = exercise::check_source(ctx(), e, off, "off.comp", 0);  // n = 1000
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_FALSE(r.pass);
  EXPECT_NE(r.cases[0].trouble.find("wrote past the end of OUT: its word 1000"), std::string::npos)
      << r.cases[0].trouble;
}

// The Laplacian's grid test off by one (p.x > size.x): the cell past the right border counts
// as inside, the last column reads the next row's first cell, and the kernel writes there too.
TEST_F(ExerciseChecker, CatchesAnOffByOneAtTheBorderOfAGrid) {
  const auto& e = shipped("diffusion/laplacian");
  std::string off = planted(e.solution(), "p.x >= size.x", "p.x > size.x");
  auto r = exercise::check_source(ctx(), e, off, "off.comp", 0);  // 37 x 23
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_FALSE(r.pass) << exercise::format_report(e, r);
  const auto& c = r.cases[0];
  if (c.trouble.empty()) {  // else the last row wrote past the end, which is said too
    ASSERT_EQ(c.arrays.size(), 1u);
    ASSERT_GE(c.arrays[0].first_wrong, 0);
    long x = c.arrays[0].first_wrong % 37;
    EXPECT_TRUE(x == 0 || x == 36) << "the first wrong cell should be on the border, not at x = " << x;
  } else {
    EXPECT_NE(c.trouble.find("past the end of DST"), std::string::npos) << c.trouble;
  }
}

// A kernel that never returns: every loop spends from the loop budget, the invocation stops
// after it (lavapipe would end a loop after 65 535 trips itself: the budget there is 2^15),
// the report names the loop's line, and the check ends in seconds, the context usable after.
TEST_F(ExerciseChecker, StopsAKernelThatNeverReturns) {
  const auto& e = shipped("linalg/axpby");
  std::string hang = planted(e.solution(), "if (i >= n) return;",
                             "if (i >= n) return;\n  float s = X[i];\n  while (s == s) s = s * 0.5 + 1.0;");
  int line = line_of(hang, "while (s == s)");
  auto start = std::chrono::steady_clock::now();
  auto r = exercise::check_source(ctx(), e, hang, "hang.comp", 1);
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r.compile.ok) << r.compile.messages;
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_FALSE(r.pass);
  EXPECT_NE(r.cases[0].trouble.find("the loop on line " + std::to_string(line)), std::string::npos)
      << r.cases[0].trouble;
  EXPECT_LT(seconds, 20.0);
  EXPECT_TRUE(ctx().failed().empty());
  auto again = exercise::check_source(ctx(), e, e.solution(), "solution.comp", 1);  // the device still works
  EXPECT_TRUE(again.pass) << exercise::format_report(e, again);
}

// A write far past an array (16 MB beyond OUT, past any guard) on a device made as the checker
// makes it: robustBufferAccess drops it, so the run fails on OUT's unwritten words and nothing
// else of the process is touched; the report says which protection held.
TEST(ExerciseSandbox, AWriteFarPastAnArrayIsDroppedByTheDevice) {
  gpu::ContextOptions o;
  o.validation = true;
  o.robust_buffer_access = true;
  gpu::Context robust(o);
  ASSERT_TRUE(robust.robust) << "lavapipe and the H100 offer robustBufferAccess";
  const auto& e = shipped("linalg/axpby");
  std::string far = planted(e.solution(), "OUT[i] = a", "OUT[i + 4000000u] = a");
  auto r = exercise::check_source(robust, e, far, "far.comp", 0);
  ASSERT_TRUE(r.compile.ok) << r.compile.messages;
  EXPECT_TRUE(r.robust);
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(wrong_words(r), 1000u) << exercise::format_report(e, r);  // n = 1000, none written
  EXPECT_NE(exercise::format_report(e, r).find("dropped by the device"), std::string::npos);
  auto again = exercise::check_source(robust, e, e.solution(), "solution.comp", 0);
  EXPECT_TRUE(again.pass) << exercise::format_report(e, again);
  EXPECT_EQ(robust.validation_count(), 0u);
}

// Compiler messages on the user's lines (the loop budget's rewriting and the checker's code
// around the kernel add none), and the budget's refusal of the preprocessor on its line.
TEST_F(ExerciseChecker, SaysCompileErrorsOnTheUsersLines) {
  const auto& e = shipped("linalg/axpby");
  std::string typo = planted(e.solution(), "OUT[i] = a * X[i] + b * Y[i];", "OUT[i] = a * X[i] + b * Z[i];");
  auto r = exercise::check_source(ctx(), e, typo, "typo.comp");
  EXPECT_FALSE(r.compile.ok);
  EXPECT_FALSE(r.pass);
  EXPECT_TRUE(r.cases.empty());
  ASSERT_FALSE(r.compile.errors.empty()) << r.compile.messages;
  EXPECT_EQ(r.compile.errors[0].line, line_of(typo, "b * Z[i]")) << r.compile.messages;
  EXPECT_NE(r.compile.errors[0].text.find("'Z'"), std::string::npos) << r.compile.messages;
  EXPECT_NE(r.verdict.find("does not compile (first error on line"), std::string::npos) << r.verdict;

  std::string define = planted(e.solution(), "void main() {", "#define TWICE(x) (2.0 * (x))\nvoid main() {");
  r = exercise::check_source(ctx(), e, define, "define.comp");
  ASSERT_FALSE(r.compile.errors.empty());
  EXPECT_EQ(r.compile.errors[0].line, line_of(define, "#define"));
  EXPECT_NE(r.compile.errors[0].text.find("preprocessor"), std::string::npos) << r.compile.messages;
}

// What does not fit the exercise is said before anything runs, and an input written to is said.
TEST_F(ExerciseChecker, SaysAnInterfaceThatDoesNotFitAndAnInputWrittenTo) {
  const auto& e = shipped("linalg/axpby");
  std::string extra =
      planted(e.solution(), "void main() {",
              "layout(std430, binding = 5) buffer Extra_block { float EXTRA[]; };\nvoid main() {\n  EXTRA[0] = 1.0;");
  auto r = exercise::check_source(ctx(), e, extra, "extra.comp", 0);
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_FALSE(r.pass);
  EXPECT_NE(r.cases[0].trouble.find("declares binding 5"), std::string::npos) << r.cases[0].trouble;

  std::string status = planted(e.solution(), "binding = 2)", "binding = 15)");
  r = exercise::check_source(ctx(), e, status, "status.comp");
  EXPECT_FALSE(r.compile.ok);
  ASSERT_FALSE(r.compile.errors.empty());
  EXPECT_NE(r.compile.errors[0].text.find("the checker's own"), std::string::npos) << r.compile.messages;

  std::string writes = planted(planted(e.solution(), "readonly buffer X_block", "buffer X_block"),
                               "OUT[i] = a * X[i] + b * Y[i];", "OUT[i] = a * X[i] + b * Y[i];\n  X[i] = 0.0;");
  r = exercise::check_source(ctx(), e, writes, "writes.comp", 0);
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_NE(r.cases[0].trouble.find("changed its input X"), std::string::npos) << r.cases[0].trouble;
}
