// A kernel that passed the diffusion exercise's check runs in the lab in place of its step
// (Lab::use_kernel): a marker kernel shows the lab really runs it; the solution steps the lab
// as its own kernel does.
#include "compute/diffusion/diffusion.h"
#include "tests/exercise/shipped.h"
#include "tests/helpers.h"

#include <cmath>

namespace {

// The diffusion step's interface with every cell set to 7.
const char* kSevens = R"(#version 460
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, binding = 1) writeonly buffer Dst_block { float DST[]; };
layout(push_constant) uniform Push { ivec2 size; float k; int insulated; };
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x < size.x && p.y < size.y) DST[p.y * size.x + p.x] = 7.0;
}
)";

}  // namespace

TEST_F(ExerciseLabHook, TheDiffusionLabStepsOnTheUsersKernel) {
  auto lab = make_lab("diffusion");
  lab->params().set("size", "40");
  lab->params().set("initial", "random");
  lab->build(ctx());
  EXPECT_FALSE(lab->use_kernel("wave.rhs", nullptr)) << "another lab's operator";

  auto sevens = compile_user_kernel(ctx(), kSevens);
  ASSERT_TRUE(sevens);
  ASSERT_TRUE(lab->use_kernel("diffusion.step", sevens.get()));
  lab_steps(ctx(), *lab, 1);
  for (float v : lab_state(*lab)) ASSERT_EQ(v, 7.0f);
  EXPECT_EQ(sevens->trouble(sevens->take_status()), "");

  // The solution steps as the CPU twin does, and survives a rebuild of the lab.
  auto solution = compile_user_kernel(ctx(), shipped("diffusion/laplacian").solution());
  ASSERT_TRUE(solution);
  ASSERT_TRUE(lab->use_kernel("diffusion.step", solution.get()));
  lab->params().set("size", "37");
  lab->build(ctx());
  auto field = lab_state(*lab);
  lab_steps(ctx(), *lab, 5);
  diffusion::Config c;
  c.width = c.height = 37;
  c.cd = 0.8f;
  diffusion::steps_cpu(c, field, 5);
  auto gpu = lab_state(*lab);
  ASSERT_EQ(gpu.size(), field.size());
  for (size_t i = 0; i < gpu.size(); ++i) ASSERT_NEAR(gpu[i], field[i], 1e-5f * std::fabs(field[i]) + 1e-6f) << i;

  // nullptr: the lab's own kernel again.
  ASSERT_TRUE(lab->use_kernel("diffusion.step", nullptr));
  lab->params().set("initial", "zero");
  lab->build(ctx());
  lab_steps(ctx(), *lab, 1);
  for (float v : lab_state(*lab)) ASSERT_EQ(v, 0.0f);
}
