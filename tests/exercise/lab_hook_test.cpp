// A kernel that passed its exercise's check runs in the lab in place of the lab's own
// (Lab::use_kernel): the diffusion lab's step, the wave lab's right-hand side and the cloth
// lab's relaxation colour. A marker
// kernel shows the lab really runs it; the solution steps the lab as its own kernel does.
#include "app/lab.h"
#include "compute/cloth/cloth.h"
#include "compute/diffusion/diffusion.h"
#include "compute/exercise/exercise.h"
#include "compute/exercise/user_kernel.h"
#include "compute/gpu/resources.h"
#include "tests/exercise/shipped.h"
#include "tests/helpers.h"

#include <cmath>

namespace {

void steps(gpu::Context& ctx, Lab& lab, uint32_t n) {
  gpu::Profiler prof(ctx);
  ctx.submit_now([&](VkCommandBuffer cmd) {
    prof.begin_frame(cmd);
    lab.step(cmd, prof, n);
  });
  prof.resolve();
}

std::vector<float> state(Lab& lab) {
  auto parts = lab.state_parts();
  EXPECT_FALSE(parts.empty());
  return parts.empty() ? std::vector<float>{} : parts[0].buffer->download<float>();
}

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

// The cloth colour's interface with both ends of every spring put at (7, 7, 7).
const char* kClothSevens = R"(#version 460
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) buffer X_block { vec4 X[]; };
layout(push_constant) uniform Push {
  vec4 sphere;
  uint width, height;
  float len, stiffness;
  int dx, dy;
  uint stride, phase, along_y;
  float ground, thickness, friction;
};
void main() {
  uvec2 g = gl_GlobalInvocationID.xy;
  ivec2 a = along_y != 0u ? ivec2(g.x, phase + stride * g.y) : ivec2(phase + stride * g.x, g.y);
  ivec2 b = a + ivec2(dx, dy);
  if (a.x >= int(width) || a.y >= int(height) || b.x < 0 || b.y < 0 || b.x >= int(width) || b.y >= int(height)) return;
  uint ia = uint(a.y) * width + uint(a.x), ib = uint(b.y) * width + uint(b.x);
  X[ia] = vec4(7.0, 7.0, 7.0, X[ia].w);
  X[ib] = vec4(7.0, 7.0, 7.0, X[ib].w);
}
)";

}  // namespace

using ExerciseLabHook = GpuTest;

TEST_F(ExerciseLabHook, TheDiffusionLabStepsOnTheUsersKernel) {
  auto lab = make_lab("diffusion");
  lab->params().set("size", "40");
  lab->params().set("initial", "random");
  lab->build(ctx());
  EXPECT_FALSE(lab->use_kernel("wave.rhs", nullptr)) << "another lab's operator";

  auto sevens = compile_user_kernel(ctx(), kSevens);
  ASSERT_TRUE(sevens);
  ASSERT_TRUE(lab->use_kernel("diffusion.step", sevens.get()));
  steps(ctx(), *lab, 1);
  for (float v : state(*lab)) ASSERT_EQ(v, 7.0f);
  EXPECT_EQ(sevens->trouble(sevens->take_status()), "");

  // The solution steps as the CPU twin does, and survives a rebuild of the lab.
  auto solution = compile_user_kernel(ctx(), shipped("diffusion/laplacian").solution());
  ASSERT_TRUE(solution);
  ASSERT_TRUE(lab->use_kernel("diffusion.step", solution.get()));
  lab->params().set("size", "37");
  lab->build(ctx());
  auto field = state(*lab);
  steps(ctx(), *lab, 5);
  diffusion::Config c;
  c.width = c.height = 37;
  c.cd = 0.8f;
  diffusion::steps_cpu(c, field, 5);
  auto gpu = state(*lab);
  ASSERT_EQ(gpu.size(), field.size());
  for (size_t i = 0; i < gpu.size(); ++i) ASSERT_NEAR(gpu[i], field[i], 1e-5f * std::fabs(field[i]) + 1e-6f) << i;

  // nullptr: the lab's own kernel again.
  ASSERT_TRUE(lab->use_kernel("diffusion.step", nullptr));
  lab->params().set("initial", "zero");
  lab->build(ctx());
  steps(ctx(), *lab, 1);
  for (float v : state(*lab)) ASSERT_EQ(v, 0.0f);
}

TEST_F(ExerciseLabHook, TheWaveLabComputesItsRightHandSideWithTheUsersKernel) {
  auto own = make_lab("wave"), mine = make_lab("wave");
  for (Lab* lab : {own.get(), mine.get()}) {
    lab->params().set("size", "32");
    lab->build(ctx());
  }
  auto solution = compile_user_kernel(ctx(), shipped("wave/rhs").solution());
  ASSERT_TRUE(solution);
  ASSERT_TRUE(mine->use_kernel("wave.rhs", solution.get()));
  steps(ctx(), *own, 3);
  steps(ctx(), *mine, 3);
  auto a = state(*own), b = state(*mine);
  ASSERT_EQ(a.size(), b.size());
  double most = 0, diff = 0;
  for (size_t i = 0; i < a.size(); ++i)
    most = std::max(most, double(std::fabs(a[i]))), diff = std::max(diff, double(std::fabs(a[i] - b[i])));
  EXPECT_GT(most, 0.0) << "the water should move";
  EXPECT_LE(diff, 1e-5 * most) << "the user's right-hand side should step the water as the lab's does";
  EXPECT_EQ(solution->trouble(solution->take_status()), "");
}

// The cloth lab (method tiles by default) relaxes its springs colour by colour on the user's
// kernel: a marker kernel moves every particle; the solution, with the lab's own contacts after
// it, steps the cloth over the sphere and the ground as project.comp alone does.
TEST_F(ExerciseLabHook, TheClothLabRelaxesItsSpringsWithTheUsersKernel) {
  auto own = make_lab("cloth"), mine = make_lab("cloth");
  for (Lab* lab : {own.get(), mine.get()}) lab->params().set("size", "24");
  own->params().set("method", "kernels");  // project.comp a colour; mine keeps tiles until it gets the kernel
  own->build(ctx());
  mine->build(ctx());
  EXPECT_FALSE(mine->use_kernel("wave.rhs", nullptr)) << "another lab's operator";

  auto solution = compile_user_kernel(ctx(), shipped("cloth/colour").solution());
  ASSERT_TRUE(solution);
  ASSERT_TRUE(mine->use_kernel("cloth.colour", solution.get()));
  steps(ctx(), *own, 20);
  steps(ctx(), *mine, 20);
  auto a = state(*own), b = state(*mine);
  ASSERT_EQ(a.size(), b.size());
  double most = 0, diff = 0;
  for (size_t i = 0; i < a.size(); ++i)
    most = std::max(most, double(std::fabs(a[i]))), diff = std::max(diff, double(std::fabs(a[i] - b[i])));
  EXPECT_GT(most, 0.0);
  EXPECT_LE(diff, 1e-5 * most) << "the user's colours should step the cloth as project.comp does";
  // The drape has reached the sphere by then: the contacts (project.comp's, after the user's
  // springs) hold it at the sphere's radius plus the thickness.
  cloth::Config defaults;
  glm::vec3 centre(defaults.sphere);
  float reach = defaults.sphere.w + defaults.thickness, closest = INFINITY;
  for (size_t i = 0; i < b.size(); i += 4)
    closest = std::min(closest, glm::length(glm::vec3(b[i], b[i + 1], b[i + 2]) - centre));
  EXPECT_GT(closest, reach * (1 - 1e-5f));
  EXPECT_LT(closest, reach * (1 + 1e-3f)) << "the cloth should rest on the sphere";
  EXPECT_EQ(solution->trouble(solution->take_status()), "");

  // The marker: every particle ends a step where the last colour put it.
  auto sevens = compile_user_kernel(ctx(), kClothSevens);
  ASSERT_TRUE(sevens);
  mine->params().set("attachments", "false");  // the long-range attachments would pull them back
  ASSERT_TRUE(mine->use_kernel("cloth.colour", sevens.get()));
  mine->build(ctx());
  steps(ctx(), *mine, 1);
  auto x = state(*mine);
  ASSERT_EQ(x.size() % 4, 0u);
  for (size_t i = 0; i < x.size(); i += 4)
    for (size_t k = 0; k < 3; ++k) ASSERT_EQ(x[i + k], 7.0f) << "particle " << i / 4;
  EXPECT_EQ(sevens->trouble(sevens->take_status()), "");

  // nullptr: project.comp (and the tiles) again: the cloth hangs, nowhere near (7, 7, 7).
  ASSERT_TRUE(mine->use_kernel("cloth.colour", nullptr));
  mine->restart();
  steps(ctx(), *mine, 1);
  x = state(*mine);
  for (size_t i = 0; i < x.size(); i += 4) ASSERT_LT(x[i + 1], 5.0f) << "particle " << i / 4;
}
