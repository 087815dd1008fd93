// A kernel that passed the cloth exercise's check relaxes the lab's springs colour by colour
// in place of project.comp (Lab::use_kernel): a marker kernel shows the lab really runs it.
#include "compute/cloth/cloth.h"
#include "tests/exercise/shipped.h"
#include "tests/helpers.h"

#include <cmath>

namespace {

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
  lab_steps(ctx(), *own, 20);
  lab_steps(ctx(), *mine, 20);
  auto a = lab_state(*own), b = lab_state(*mine);
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
  lab_steps(ctx(), *mine, 1);
  auto x = lab_state(*mine);
  ASSERT_EQ(x.size() % 4, 0u);
  for (size_t i = 0; i < x.size(); i += 4)
    for (size_t k = 0; k < 3; ++k) ASSERT_EQ(x[i + k], 7.0f) << "particle " << i / 4;
  EXPECT_EQ(sevens->trouble(sevens->take_status()), "");

  // nullptr: project.comp (and the tiles) again: the cloth hangs, nowhere near (7, 7, 7).
  ASSERT_TRUE(mine->use_kernel("cloth.colour", nullptr));
  mine->restart();
  lab_steps(ctx(), *mine, 1);
  x = lab_state(*mine);
  for (size_t i = 0; i < x.size(); i += 4) ASSERT_LT(x[i + 1], 5.0f) << "particle " << i / 4;
}
