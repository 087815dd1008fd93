// A kernel that passed the wave exercise's check computes the lab's right-hand side in place
// of its own (Lab::use_kernel): the solution steps the water as the lab's kernel does.
#include "tests/exercise/shipped.h"
#include "tests/helpers.h"

#include <cmath>

TEST_F(ExerciseLabHook, TheWaveLabComputesItsRightHandSideWithTheUsersKernel) {
  auto own = make_lab("wave"), mine = make_lab("wave");
  for (Lab* lab : {own.get(), mine.get()}) {
    lab->params().set("size", "32");
    lab->build(ctx());
  }
  auto solution = compile_user_kernel(ctx(), shipped("wave/rhs").solution());
  ASSERT_TRUE(solution);
  ASSERT_TRUE(mine->use_kernel("wave.rhs", solution.get()));
  lab_steps(ctx(), *own, 3);
  lab_steps(ctx(), *mine, 3);
  auto a = lab_state(*own), b = lab_state(*mine);
  ASSERT_EQ(a.size(), b.size());
  double most = 0, diff = 0;
  for (size_t i = 0; i < a.size(); ++i)
    most = std::max(most, double(std::fabs(a[i]))), diff = std::max(diff, double(std::fabs(a[i] - b[i])));
  EXPECT_GT(most, 0.0) << "the water should move";
  EXPECT_LE(diff, 1e-5 * most) << "the user's right-hand side should step the water as the lab's does";
  EXPECT_EQ(solution->trouble(solution->take_status()), "");
}
