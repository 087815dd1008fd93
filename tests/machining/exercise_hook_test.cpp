// The machining lab milling on the user's kernel of the exercise machining/atomic-lowering
// (Lab::use_kernel, Machine::record_user): the solution lowers the lab's stock to the heights
// its own engine gives, bit for bit; a kernel that lowers nothing leaves the stock whole (so the
// lab really runs the user's kernel); nullptr gives the lab its engine back; a stock or tool
// outside the exercise's contract is refused. And the machine's runs of positions: each
// dispatch binds POS from its run's first position.
#include "app/core/lab.h"
#include "compute/exercise/exercise.h"
#include "compute/exercise/user_kernel.h"
#include "compute/gpu/resources.h"
#include "compute/machining/io/tool.h"
#include "compute/machining/zbuffer.h"
#include "tests/exercise/shipped.h"
#include "tests/helpers.h"

#include <algorithm>

namespace {

// The exercise's interface, lowering nothing.
const char* kLowersNothing = R"(#version 460
layout(local_size_x = 64) in;
struct Pos {
  vec4 t, r0, r1, r2;
};
layout(std430, binding = 0) buffer Heights_block { uint H[]; };
layout(std430, binding = 1) readonly buffer Tris_block { vec4 TRI[]; };
layout(std430, binding = 2) readonly buffer Positions_block { Pos POS[]; };
layout(push_constant) uniform Push {
  uint nx, ny;
  float x0, y0, d;
  uint tri_count, pos_count;
};
void main() {}
)";

// A small spiral over 48 x 48 brins, 20 positions a step.
std::unique_ptr<Lab> small_machining_lab(gpu::Context& ctx) {
  auto lab = make_lab("machining");
  for (auto [name, value] : {std::pair{"stock_size", "48"},
                             {"spacing", "0.25"},
                             {"tool_triangles", "320"},
                             {"path_positions", "60"},
                             {"positions_per_frame", "20"}})
    lab->params().set(name, value);
  lab->build(ctx);
  return lab;
}

void mill(gpu::Context& ctx, Lab& lab, uint32_t steps, std::vector<gpu::PassTiming>* timings = nullptr) {
  for (uint32_t s = 0; s < steps; ++s) {
    gpu::Profiler prof(ctx);
    ctx.submit_now([&](VkCommandBuffer cmd) {
      prof.begin_frame(cmd);
      lab.step(cmd, prof, 1);
    });
    auto t = prof.resolve();
    if (timings) timings->insert(timings->end(), t.begin(), t.end());
  }
}

// The brins' keys, row by row (the lab's stock buffer).
std::vector<uint32_t> keys(const Lab& lab) {
  auto parts = lab.inspectables();
  EXPECT_FALSE(parts.empty());
  return parts.empty() ? std::vector<uint32_t>{} : parts[0].data.buffer->download<uint32_t>();
}

size_t lowered(const std::vector<uint32_t>& now, const std::vector<uint32_t>& before) {
  size_t n = 0;
  for (size_t i = 0; i < now.size(); ++i) n += now[i] < before[i];
  return n;
}

bool named(const std::vector<gpu::PassTiming>& timings, const std::string& name) {
  return std::any_of(timings.begin(), timings.end(), [&](auto& t) { return t.name == name; });
}

}  // namespace

using ExerciseMachiningHook = GpuTest;

TEST_F(ExerciseMachiningHook, TheLabMillsOnTheSolutionToItsOwnEnginesHeights) {
  auto own = small_machining_lab(ctx()), mine = small_machining_lab(ctx());
  auto start = keys(*mine);
  EXPECT_FALSE(mine->use_kernel("wave.rhs", nullptr)) << "another lab's operator";
  auto solution = compile_user_kernel(ctx(), shipped("machining/atomic-lowering").solution());
  ASSERT_TRUE(solution);
  ASSERT_TRUE(mine->use_kernel("machining.lowering", solution.get()));
  std::vector<gpu::PassTiming> t_own, t_mine;
  mill(ctx(), *own, 3, &t_own);
  mill(ctx(), *mine, 3, &t_mine);
  auto a = keys(*own), b = keys(*mine);
  ASSERT_EQ(a.size(), 48u * 48u);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_GT(lowered(a, start), 200u) << "the tool should cut the stock";
  for (size_t i = 0; i < a.size(); ++i)
    ASSERT_EQ(b[i], a[i]) << "brin " << i << ": the user's kernel should lower it as the fine engine does";
  EXPECT_EQ(solution->trouble(solution->take_status()), "");
  EXPECT_TRUE(named(t_mine, "machining.your kernel")) << "the timings should name the user's dispatches";
  EXPECT_FALSE(named(t_mine, "machining.fine"));
  EXPECT_TRUE(named(t_own, "machining.fine"));
  EXPECT_NE(mine->legend().lines[1].find("engine your kernel"), std::string::npos) << mine->legend().lines[1];
}

TEST_F(ExerciseMachiningHook, AKernelThatLowersNothingRunsInPlaceOfTheEngineUntilNullptr) {
  auto own = small_machining_lab(ctx()), mine = small_machining_lab(ctx());
  auto start = keys(*mine);
  auto nothing = compile_user_kernel(ctx(), kLowersNothing);
  ASSERT_TRUE(nothing);
  ASSERT_TRUE(mine->use_kernel("machining.lowering", nothing.get()));
  mill(ctx(), *own, 2);
  mill(ctx(), *mine, 2);
  EXPECT_GT(lowered(keys(*own), start), 200u) << "the lab's engine cuts";
  EXPECT_EQ(keys(*mine), start) << "the user's kernel lowers nothing: the lab must not have run its own engine";

  // nullptr: the engine again, from the start.
  ASSERT_TRUE(mine->use_kernel("machining.lowering", nullptr));
  mine->restart();
  mill(ctx(), *mine, 2);
  EXPECT_EQ(keys(*mine), keys(*own)) << "back on the lab's engine";
  EXPECT_EQ(mine->legend().lines[1].find("your kernel"), std::string::npos) << mine->legend().lines[1];
}

// A stock of other brins, a tool without triangles, or brins so fine that a triangle's loop
// would outrun the kernel's loop budget: refused. A kernel taken before such a rebuild waits
// while the lab's engine mills.
TEST_F(ExerciseMachiningHook, ConfigurationsOutsideTheExercisesContractAreRefused) {
  auto solution = compile_user_kernel(ctx(), shipped("machining/atomic-lowering").solution());
  ASSERT_TRUE(solution);
  using Sets = std::vector<std::pair<std::string, std::string>>;
  std::vector<Sets> unfit = {{{"rays", "normal"}},
                             {{"tool_model", "analytic"}},
                             {{"stock_size", "256"}, {"zoom", "64"}}};  // a triangle over some 200 x 200 brins
  if (ctx().int64_atomics) unfit.push_back({{"precision", "double"}});
  for (const Sets& sets : unfit) {
    auto lab = small_machining_lab(ctx());
    for (auto& [name, value] : sets) lab->params().set(name, value);
    lab->build(ctx());
    EXPECT_FALSE(lab->use_kernel("machining.lowering", solution.get())) << sets[0].first << "=" << sets[0].second;
  }

  auto lab = small_machining_lab(ctx());
  ASSERT_TRUE(lab->use_kernel("machining.lowering", solution.get()));
  lab->params().set("rays", "normal");
  lab->build(ctx());
  auto start = keys(*lab);
  std::vector<gpu::PassTiming> t;
  mill(ctx(), *lab, 3, &t);
  EXPECT_TRUE(named(t, "machining.brin")) << "the N-buffer mills on the lab's engine";
  EXPECT_FALSE(named(t, "machining.your kernel"));
  EXPECT_GT(lowered(keys(*lab), start), 0u);
  ASSERT_TRUE(lab->use_kernel("machining.lowering", nullptr));
}

// Runs of 3 positions a dispatch (POS bound from each run's first), over two calls: the fine
// engine's heights, bit for bit, on the exercise's first case.
TEST_F(ExerciseMachiningHook, TheMachineDispatchesRunsOfPositions) {
  machining::Stock s;
  s.nx = 40, s.ny = 36, s.d = 0.25f, s.top = 1.0f;
  machining::Mesh tool = machining::ball_end(2.0f, 16);
  std::vector<machining::Position> path(10);
  for (size_t k = 0; k < path.size(); ++k) path[k].tip = glm::vec3(3.0f + 0.05f * k, 4.5f, -0.5f + 0.02f * k);
  auto solution = compile_user_kernel(ctx(), shipped("machining/atomic-lowering").solution());
  ASSERT_TRUE(solution);
  machining::Machine fine(ctx(), s, tool, path), user(ctx(), s, tool, path);
  ASSERT_EQ(user.user_lowering_unfit(*solution), "");
  ctx().submit_now([&](VkCommandBuffer cmd) { fine.record(cmd, machining::Engine::Fine, 0, 10); });
  const uint64_t three = 3 * tool.triangles();
  ctx().submit_now([&](VkCommandBuffer cmd) {
    user.record_user(cmd, *solution, 0, 4, nullptr, three);  // positions 0-2, 3
    user.record_user(cmd, *solution, 4, 6, nullptr, three);  // 4-6, 7-9
  });
  auto a = fine.heights(), b = user.heights();
  size_t cut = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(machining::height_key(b[i]), machining::height_key(a[i])) << "brin " << i;
    cut += a[i] < s.top;
  }
  EXPECT_GT(cut, 100u);
  EXPECT_EQ(solution->trouble(solution->take_status()), "");
}
