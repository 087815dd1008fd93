// The linear algebra lab on the user's kernels of its exercises (Lab::use_kernel,
// Workload::use_kernel, Cg::use_update): the shipped solutions give the lab's own results
// within the exercises' tolerances; a marker kernel changes them (the lab really runs the
// user's kernel); nullptr gives the lab its own kernel back; a configuration outside the
// exercise's contract (texture layout, thesis variant, another operator) is refused.
#include "app/core/lab.h"
#include "compute/exercise/exercise.h"
#include "compute/exercise/user_kernel.h"
#include "compute/gpu/resources.h"
#include "compute/linalg/workload.h"
#include "tests/exercise/shipped.h"
#include "tests/helpers.h"

#include <algorithm>
#include <cmath>

namespace {

// A small linalg lab on the buffer layout, modern variant: `knobs` as name, value pairs.
std::unique_ptr<Lab> linalg_lab(gpu::Context& ctx, std::vector<std::pair<std::string, std::string>> knobs) {
  auto lab = make_lab("linalg");
  knobs.insert(knobs.begin(), {{"layout", "buffer"}, {"variant", "modern"}, {"side", "16"}, {"data", "random"}});
  for (auto& [name, value] : knobs) lab->params().set(name, value);
  lab->build(ctx);
  return lab;
}

// `steps` of the lab in one submission; the names of the passes it timed.
std::vector<std::string> linalg_steps(gpu::Context& ctx, Lab& lab, uint32_t steps) {
  gpu::Profiler prof(ctx);
  ctx.submit_now([&](VkCommandBuffer cmd) {
    prof.begin_frame(cmd);
    lab.step(cmd, prof, steps);
  });
  std::vector<std::string> names;
  for (auto& t : prof.resolve()) names.push_back(t.name);
  return names;
}

// The vector the lab draws as the panel whose name starts with `name` (unpacked every step).
std::vector<float> drawn(const Lab& lab, const std::string& name) {
  for (auto& i : lab.inspectables())
    if (i.name.rfind(name, 0) == 0) return i.data.image->download<float>();
  ADD_FAILURE() << "no panel " << name;
  return {};
}

// max |a - b| over max |a|; infinite where b has a value that is not finite.
double relative_difference(const std::vector<float>& a, const std::vector<float>& b) {
  EXPECT_EQ(a.size(), b.size());
  double most = 0, diff = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (!std::isfinite(b[i])) return INFINITY;
    most = std::max(most, double(std::fabs(a[i]))), diff = std::max(diff, double(std::fabs(a[i] - b[i])));
  }
  return most > 0 ? diff / most : diff;
}

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The cg-update exercise's interface, updating nothing.
const char* kUpdatesNothing = R"(#version 460
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer X_block { float X[]; };
layout(std430, binding = 1) buffer R_block { float R[]; };
layout(std430, binding = 2) readonly buffer D_block { float D[]; };
layout(std430, binding = 3) readonly buffer Q_block { float Q[]; };
layout(std430, binding = 4) readonly buffer S_block { float S[]; };
layout(push_constant) uniform Push { uint n; };
void main() {}
)";

// The axpby exercise's interface, every output 7.
const char* kAxpbySevens = R"(#version 460
layout(local_size_x = 64) in;
layout(std430, binding = 2) writeonly buffer Out_block { float OUT[]; };
layout(push_constant) uniform Push { uint n; float a, b; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n) OUT[i] = 7.0;
}
)";

// The banded exercise's interface, every row 7.
const char* kBandedSevens = R"(#version 460
layout(local_size_x = 64) in;
layout(std430, binding = 3) writeonly buffer Out_block { float OUT[]; };
layout(push_constant) uniform Push { uint n, count; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n) OUT[i] = 7.0;
}
)";

// The dot exercise's interface, the sum 7.
const char* kDotSeven = R"(#version 460
layout(local_size_x = 256) in;
layout(std430, binding = 4) buffer Result_block { float RESULT; };
layout(push_constant) uniform Push { uint n; };
void main() {
  if (gl_GlobalInvocationID.x == 0u) RESULT = 7.0;
}
)";

}  // namespace

using ExerciseLinalgHook = GpuTest;

// Operator cg, modern variant, cg_form banded (the form whose iterations run cg_update.vec.comp).
TEST_F(ExerciseLinalgHook, TheLabsCgUpdatesXAndROnTheUsersKernel) {
  const std::vector<std::pair<std::string, std::string>> cg = {{"operator", "cg"}, {"cg_check_every", "10"}};
  auto own = linalg_lab(ctx(), cg), mine = linalg_lab(ctx(), cg);
  EXPECT_FALSE(mine->use_kernel("wave.rhs", nullptr)) << "another lab's operator";
  auto solution = compile_user_kernel(ctx(), shipped("linalg/cg-update").solution());
  ASSERT_TRUE(solution);
  ASSERT_TRUE(mine->use_kernel("linalg.cg-update", solution.get()));
  linalg_steps(ctx(), *own, 2);
  auto names = linalg_steps(ctx(), *mine, 2);
  EXPECT_TRUE(has(names, "cg.update: your kernel (linalg/cg-update)")) << "the Timings name the user's dispatches";
  EXPECT_EQ(mine->legend().lines.back(), "on your kernel (exercise linalg/cg-update)");
  auto x = drawn(*own, "x"), r = drawn(*own, "r");
  EXPECT_GT(*std::max_element(x.begin(), x.end()), 0.0f) << "20 iterations should move x";
  // alpha as the exercise computes it, r·r by a dot product of its own: the lab's own x and r
  // after 20 iterations within a few float roundings.
  EXPECT_LE(relative_difference(x, drawn(*mine, "x")), 1e-4);
  EXPECT_LE(relative_difference(r, drawn(*mine, "r")), 1e-4);
  EXPECT_EQ(solution->trouble(solution->take_status()), "");

  // A kernel that updates nothing leaves x at its start, 0 (and survives a rebuild).
  auto nothing = compile_user_kernel(ctx(), kUpdatesNothing);
  ASSERT_TRUE(nothing);
  ASSERT_TRUE(mine->use_kernel("linalg.cg-update", nothing.get()));
  mine->build(ctx());
  linalg_steps(ctx(), *mine, 1);
  for (float v : drawn(*mine, "x")) ASSERT_EQ(v, 0.0f);

  // nullptr: cg_update.vec.comp again, bit for bit the lab's own.
  ASSERT_TRUE(mine->use_kernel("linalg.cg-update", nullptr));
  mine->build(ctx());
  names = linalg_steps(ctx(), *mine, 2);
  EXPECT_FALSE(has(names, "cg.update: your kernel (linalg/cg-update)"));
  EXPECT_EQ(drawn(*mine, "x"), x);

  // Outside the exercise's contract: refused.
  for (auto [name, value] : {std::pair{"layout", "texture"}, {"variant", "thesis"}, {"cg_form", "one-dispatch"}}) {
    auto lab = linalg_lab(ctx(), {{"operator", "cg"}, {name, value}});
    EXPECT_FALSE(lab->use_kernel("linalg.cg-update", solution.get())) << name << "=" << value;
  }
  EXPECT_FALSE(mine->use_kernel("linalg.axpby", solution.get())) << "the lab runs cg, not axpby";
  // The reason names the knob to change.
  linalg::WorkloadConfig c;
  c.op = linalg::Op::Cg, c.side = 4, c.layout = linalg::Layout::Texture;
  linalg::Workload texture(ctx(), c);
  EXPECT_NE(texture.user_kernel_unfit("linalg.cg-update", *solution).find("set layout=buffer"), std::string::npos);
  EXPECT_THROW(texture.use_kernel("linalg.cg-update", solution.get()), std::invalid_argument);
  c.layout = linalg::Layout::Buffer, c.cg_form = linalg::CgForm::Pipelined;
  EXPECT_NE(linalg::Workload(ctx(), c).user_kernel_unfit("linalg.cg-update", *solution).find("set cg_form=banded"),
            std::string::npos);
}

TEST_F(ExerciseLinalgHook, TheLabsAxpbyRunsTheUsersKernel) {
  auto own = linalg_lab(ctx(), {{"operator", "axpby"}}), mine = linalg_lab(ctx(), {{"operator", "axpby"}});
  auto solution = compile_user_kernel(ctx(), shipped("linalg/axpby").solution());
  ASSERT_TRUE(solution);
  ASSERT_TRUE(mine->use_kernel("linalg.axpby", solution.get()));
  linalg_steps(ctx(), *own, 1);
  auto names = linalg_steps(ctx(), *mine, 1);
  EXPECT_TRUE(has(names, "axpby: your kernel (linalg/axpby)"));
  auto out = drawn(*own, "1.5 x - 0.5 y");
  EXPECT_LE(relative_difference(out, drawn(*mine, "1.5 x - 0.5 y")), 1e-6);  // within the exercise's 2 ulps

  auto sevens = compile_user_kernel(ctx(), kAxpbySevens);
  ASSERT_TRUE(sevens);
  ASSERT_TRUE(mine->use_kernel("linalg.axpby", sevens.get()));
  linalg_steps(ctx(), *mine, 1);
  for (float v : drawn(*mine, "1.5 x - 0.5 y")) ASSERT_EQ(v, 7.0f);

  // A rebuild outside the contract: the lab's own kernel until the knobs fit again.
  mine->params().set("layout", "texture");
  mine->build(ctx());
  linalg_steps(ctx(), *mine, 1);
  EXPECT_EQ(drawn(*mine, "1.5 x - 0.5 y"), out);
  mine->params().set("layout", "buffer");
  mine->build(ctx());
  linalg_steps(ctx(), *mine, 1);
  for (float v : drawn(*mine, "1.5 x - 0.5 y")) ASSERT_EQ(v, 7.0f);

  ASSERT_TRUE(mine->use_kernel("linalg.axpby", nullptr));
  linalg_steps(ctx(), *mine, 1);
  EXPECT_EQ(drawn(*mine, "1.5 x - 0.5 y"), out);

  auto texture = linalg_lab(ctx(), {{"operator", "axpby"}, {"layout", "texture"}});
  EXPECT_FALSE(texture->use_kernel("linalg.axpby", solution.get()));
  EXPECT_EQ(solution->trouble(solution->take_status()), "");
}

TEST_F(ExerciseLinalgHook, TheLabsBandedProductRunsTheUsersKernel) {
  const std::vector<std::pair<std::string, std::string>> banded = {{"operator", "banded"}, {"diagonals", "7"}};
  auto own = linalg_lab(ctx(), banded), mine = linalg_lab(ctx(), banded);
  auto solution = compile_user_kernel(ctx(), shipped("linalg/banded").solution());
  ASSERT_TRUE(solution);
  ASSERT_TRUE(mine->use_kernel("linalg.banded", solution.get()));
  linalg_steps(ctx(), *own, 1);
  auto names = linalg_steps(ctx(), *mine, 1);
  EXPECT_TRUE(has(names, "banded: your kernel (linalg/banded)"));
  auto out = drawn(*own, "A x");
  EXPECT_LE(relative_difference(out, drawn(*mine, "A x")), 1e-5);  // sums of 7 products in another order

  auto sevens = compile_user_kernel(ctx(), kBandedSevens);
  ASSERT_TRUE(sevens);
  ASSERT_TRUE(mine->use_kernel("linalg.banded", sevens.get()));
  linalg_steps(ctx(), *mine, 1);
  for (float v : drawn(*mine, "A x")) ASSERT_EQ(v, 7.0f);

  ASSERT_TRUE(mine->use_kernel("linalg.banded", nullptr));
  linalg_steps(ctx(), *mine, 1);
  EXPECT_EQ(drawn(*mine, "A x"), out);

  auto thesis = linalg_lab(ctx(), {{"operator", "banded"}, {"variant", "thesis"}});
  EXPECT_FALSE(thesis->use_kernel("linalg.banded", solution.get()));
  EXPECT_EQ(solution->trouble(solution->take_status()), "");
}

TEST_F(ExerciseLinalgHook, TheLabsDotProductRunsTheUsersKernel) {
  auto own = linalg_lab(ctx(), {{"operator", "dot"}}), mine = linalg_lab(ctx(), {{"operator", "dot"}});
  auto solution = compile_user_kernel(ctx(), shipped("linalg/dot").solution());
  ASSERT_TRUE(solution);
  ASSERT_TRUE(mine->use_kernel("linalg.dot", solution.get()));
  auto dir = std::filesystem::temp_directory_path() / "vklab_linalg_hook_test";
  std::filesystem::create_directories(dir);
  auto scalar = [&](Lab& lab) { return lab.dump(dir)["scalar"].get<double>(); };
  linalg_steps(ctx(), *own, 1);
  auto names = linalg_steps(ctx(), *mine, 2);  // twice: DONE starts at 0 each time
  EXPECT_TRUE(has(names, "dot: your kernel (linalg/dot)"));
  double sum = scalar(*own);
  EXPECT_NE(sum, 0.0);
  // Summed in another order: within the exercise's 64 ulps of Σ|x·y| (1024 products of at most 2.25).
  EXPECT_NEAR(scalar(*mine), sum, 64 * 0x1p-23 * 1024 * 2.25);

  auto seven = compile_user_kernel(ctx(), kDotSeven);
  ASSERT_TRUE(seven);
  ASSERT_TRUE(mine->use_kernel("linalg.dot", seven.get()));
  linalg_steps(ctx(), *mine, 1);
  EXPECT_EQ(scalar(*mine), 7.0);

  ASSERT_TRUE(mine->use_kernel("linalg.dot", nullptr));
  linalg_steps(ctx(), *mine, 1);
  EXPECT_EQ(scalar(*mine), sum);

  auto ff = linalg_lab(ctx(), {{"operator", "dot"}, {"dot_precision", "float-float"}});
  EXPECT_FALSE(ff->use_kernel("linalg.dot", solution.get()));
  EXPECT_EQ(solution->trouble(solution->take_status()), "");
  std::filesystem::remove_all(dir);
}
