// The knobs an exercise names (check.json's "lab", Exercise::lab_settings): with them, every lab
// that takes an exercise's kernel runs the shipped solution in place of its own; `--exercise`
// opens the lab with them (the user's --set after them, a preset instead of them); the Exercise
// tab's "Set the lab for my kernel" sets them on a lab whose knobs were changed and offers the
// passing kernel.
#include "app/core/cli.h"
#include "app/core/lab.h"
#include "app/core/session.h"
#include "app/window/tabs/exercise_tab.h"
#include "tests/exercise/shipped.h"
#include "tests/helpers.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {

Options parse(std::vector<std::string> args) {
  args.insert(args.begin(), "vklab");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return parse_cli(int(argv.size()), argv.data());
}

}  // namespace

using ExerciseLabSettings = GpuTest;

TEST_F(ExerciseLabSettings, EveryExerciseItsLabTakesRunsThereWithItsKnobs) {
  size_t taken = 0;
  for (const auto& e : shipped_exercises()) {
    SCOPED_TRACE(e.name);
    auto solution = compile_user_kernel(ctx(), e.solution());
    ASSERT_TRUE(solution);
    auto lab = make_lab(e.lab);
    if (!lab->use_kernel(e.op, nullptr)) {  // checked, not run in a lab
      EXPECT_TRUE(e.lab_settings.empty()) << "knobs for a lab that does not take the kernel";
      continue;
    }
    ++taken;
    for (const auto& a : e.lab_settings) ASSERT_NO_THROW(lab->params().set_assignment(a)) << a;
    lab->build(ctx());
    EXPECT_TRUE(lab->use_kernel(e.op, solution.get())) << "the lab refuses the solution with the exercise's knobs";
    lab->use_kernel(e.op, nullptr);
  }
  EXPECT_EQ(taken, 8u) << "diffusion, wave, cloth, machining's lowering and the four linear algebra kernels";
  // The linear algebra lab's defaults (the thesis's texture layout) cannot run them: the knobs matter.
  auto solution = compile_user_kernel(ctx(), shipped("linalg/axpby").solution());
  auto lab = make_lab("linalg");
  lab->params().set_assignment("operator=axpby");
  lab->build(ctx());
  EXPECT_FALSE(lab->use_kernel("linalg.axpby", solution.get()));
}

TEST_F(ExerciseLabSettings, ExerciseOpensTheLabWithItsKnobsTheUsersSetAfter) {
  Options o = parse({"--exercise", "linalg/axpby"});
  EXPECT_EQ(o.lab, "linalg");
  EXPECT_EQ(o.sets, (std::vector<std::string>{"layout=buffer", "operator=axpby"}));  // check.json's, by name
  o = parse({"--exercise", "linalg/dot", "--set", "operator=max", "--set", "side=64"});
  ASSERT_EQ(o.sets.size(), 6u);
  EXPECT_EQ(std::count(o.sets.begin(), o.sets.begin() + 4, "operator=dot"), 1);  // the exercise's first
  EXPECT_EQ(o.sets[4], "operator=max");                                          // applied last: the user's
  auto lab = lab_from_options(o, o.lab);
  EXPECT_EQ(lab->params().to_json()["operator"], "max");
  EXPECT_EQ(lab->params().to_json()["dot_precision"], "float");
  o = parse({"--exercise", "linalg/axpby", "--preset", "linalg/cg-thesis"});  // the preset's knobs
  EXPECT_TRUE(o.sets.empty());
  o = parse({"--exercise", "diffusion/laplacian"});  // its lab runs it at its defaults
  EXPECT_TRUE(o.sets.empty());
  EXPECT_THROW(parse({"--exercise", "linalg/nothing"}), UsageError);
}

// The tab on a headless session: the lab opened at its defaults cannot run the passing kernel;
// the button sets the exercise's knobs (the others kept), rebuilds and the lab runs it.
TEST_F(ExerciseLabSettings, TheTabsButtonSetsTheLabAndRunsThePassingKernel) {
  auto dir = scratch("exercise-lab-settings");
  auto file = dir / "mine.comp";
  std::ofstream(file) << shipped("linalg/axpby").solution();
  gpu::ContextOptions co = validated_options();
  auto lab = make_lab("linalg");
  lab->params().set_assignment("side=32");
  Session s(co, std::move(lab), Session::Parts{false, false});
  ExerciseTab tab;
  tab.open("linalg/axpby", file.string());
  tab.between_frames(s);  // compiles and checks it
  EXPECT_FALSE(tab.lab_runs_kernel());
  EXPECT_FALSE(tab.lab_is_set(s)) << "the button is shown";
  tab.set_lab(s);
  EXPECT_TRUE(tab.lab_is_set(s)) << "the button is gone";
  EXPECT_TRUE(s.error.empty()) << s.error;
  auto knobs = s.lab().params().to_json();
  EXPECT_EQ(knobs["operator"], "axpby");
  EXPECT_EQ(knobs["layout"], "buffer");
  EXPECT_EQ(knobs["side"], 32) << "the user's other knobs stay";
  EXPECT_TRUE(tab.lab_runs_kernel());
  s.ctx().submit_now([&](VkCommandBuffer cmd) { s.record_steps(cmd, 2); });
  s.collect_frame();
  tab.release_gpu(s);
  EXPECT_EQ(s.ctx().validation_count(), 0u);
  fs::remove_all(dir);
}
