// The mesh kernels' loop budget and coordinate check (GpuMesh::take_status, kernel_trouble):
// a kernel whose nested loops never end stops by itself and the message names its section
// and the loop's line, and the next kernels on the same mesh run right; a kernel that makes
// coordinates NaN is reported at its first run, those vertices keeping their coordinates; an
// honest 10 000-iteration loop gives exactly the CPU's results; the lab stops on both.
#include "app/core/lab.h"
#include "compute/mesh/generate.h"
#include "compute/mesh/kernel_text.h"
#include "compute/mesh/kernel_trouble.h"
#include "tests/helpers.h"

#include <glm/glm.hpp>

#include <chrono>
#include <cmath>
#include <fstream>

using namespace mesh;

namespace {

class MeshLoopBudget : public GpuTest {
 protected:
  // Compiles the text and runs each kernel once; returns the kernels.
  std::vector<std::unique_ptr<GpuMesh::Kernel>> run(GpuMesh& g, const std::string& text) {
    auto kernels = compile_text(g, text);
    ctx().submit_now([&](VkCommandBuffer cmd) {
      for (auto& k : kernels) g.record(cmd, *k);
    });
    return kernels;
  }
  // One frame of the lab as the window and headless run it; then what the lab says.
  std::string frame(Lab& lab) {
    gpu::Profiler prof(ctx());
    ctx().submit_now([&](VkCommandBuffer cmd) {
      prof.begin_frame(cmd);
      lab.step(cmd, prof, 1);
    });
    prof.resolve();
    return lab.problem();
  }
  std::filesystem::path file(const std::string& name, const std::string& text) {
    auto p = scratch("mesh-loop-budget") / name;
    std::ofstream(p) << text;
    return p;
  }
};

const std::string kHang =  // lines 4 to 9: the second section, its inner loop on line 8
    "// loop: Tri\n"
    "TriArea.x = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], TriVerCrd[2] - TriVerCrd[0]));\n"
    "---\n"
    "// loop: Ver\n"
    "float a = 0.0;\n"
    "for (uint k = 0u; k < VerTriDeg; ++k) a += VerTriArea[k].x;\n"
    "for (uint i = 0u; i < 0xffffffffu; i++)\n"
    "  for (uint j = 0u; j < 0xffffffffu; j++) VerCrd.x = VerCrd.x * 1.0000001 + 1e-30;\n"
    "VerStar.x = a;\n";

TEST_F(MeshLoopBudget, NestedEndlessLoopsStopAndTheNextKernelsRunRight) {
  GpuMesh g(ctx(), bumpy_grid(8));
  auto start = std::chrono::steady_clock::now();
  auto hang = run(g, kHang);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 10.0) << "the budget ends the loops";
  std::string said = kernel_trouble(g.take_status(), hang, "in run 1");
  EXPECT_EQ(said.find("kernel 2 (line 4, loop: Ver): its for loop at line 8 ran out of the loop budget (" +
                      std::to_string(gpu::loop_budget_for(ctx().info.name)) + " iterations an invocation) in run 1"),
            0u)
      << said;
  // while and do-while loops, and a section starting further down
  auto whiles = run(g,
                    "// loop: Ver\nVerCrd.z += 1.0;\n---\n// loop: Ver\n\nwhile (VerCrd.y > -1.0)\n"
                    "  VerCrd.y += 1e-30;\n");
  said = kernel_trouble(g.take_status(), whiles, "in run 1");
  EXPECT_NE(said.find("kernel 2 (line 4, loop: Ver): its while loop at line 6 ran out"), std::string::npos) << said;
  auto dos = run(g, "// loop: Tri\nint n = 0;\ndo {\n  n += 1;\n} while (n > 0 || TriVerCrd[0].x > -1.0);\n");
  said = kernel_trouble(g.take_status(), dos, "in run 1");
  EXPECT_NE(said.find("kernel 1 (line 1, loop: Tri): its do-while loop at line 3 ran out"), std::string::npos) << said;

  // The next kernels, on the mesh as the runaways left it, give the CPU's areas and stars.
  std::vector<float> crd = g.coordinates();
  auto good = run(g,
                  "// loop: Tri\nTriArea.x = 0.5 * length(cross(TriVerCrd[1] - TriVerCrd[0], TriVerCrd[2] - "
                  "TriVerCrd[0]));\n---\n// loop: Ver\nfloat a = 0.0;\nfor (uint k = 0u; k < VerTriDeg; ++k) "
                  "a += VerTriArea[k].x;\nVerStar.x = a;\n");
  gpu::LoopStatus st = g.take_status();
  EXPECT_EQ(st.budget_tag, 0u);
  EXPECT_EQ(st.flag_tag, 0u);
  EXPECT_EQ(kernel_trouble(st, good, "in run 1"), "");
  const Elements& t = g.elements(Kind::Triangles);
  auto P = [&](uint32_t v) { return glm::dvec3(crd[4 * v], crd[4 * v + 1], crd[4 * v + 2]); };
  std::vector<double> star(g.vertices(), 0.0);
  auto area = g.download("Area"), gstar = g.download("Star");
  for (size_t f = 0; f < t.count(); ++f) {
    uint32_t a = t.v[3 * f], b = t.v[3 * f + 1], c = t.v[3 * f + 2];
    double cpu = 0.5 * glm::length(glm::cross(P(b) - P(a), P(c) - P(a)));
    ASSERT_NEAR(area[4 * f], cpu, 1e-5 * cpu) << "triangle " << f;
    star[a] += cpu, star[b] += cpu, star[c] += cpu;
  }
  for (size_t v = 0; v < g.vertices(); ++v) ASSERT_NEAR(gstar[4 * v], star[v], 1e-5 * star[v]) << "vertex " << v;
}

// A third of the vertices given NaN, the others moved: counted at the first run, the NaN ones
// keep their coordinates, the others move as the CPU says.
TEST_F(MeshLoopBudget, NonFiniteCoordinatesAreCountedAndNotStored) {
  GpuMesh g(ctx(), bumpy_grid(8));
  std::vector<float> before = g.coordinates();
  auto k = run(g, "// loop: Ver\nVerCrd.z = i % 3u == 0u ? uintBitsToFloat(0x7fc00000u) : VerCrd.z + 0.5;\n");
  gpu::LoopStatus st = g.take_status();
  uint32_t third = uint32_t((g.vertices() + 2) / 3);
  EXPECT_EQ(st.flag_tag, k[0]->tag);
  EXPECT_EQ(st.flag_count, third);
  EXPECT_EQ(st.budget_tag, 0u);
  EXPECT_EQ(kernel_trouble(st, k, "in run 1"),
            "kernel 1 (line 1, loop: Ver) made the coordinates of " + std::to_string(third) +
                " vertices NaN or infinite in run 1: not stored, they keep their previous coordinates");
  std::vector<float> after = g.coordinates();
  for (size_t v = 0; v < g.vertices(); ++v)
    for (int c = 0; c < 3; ++c) {
      float want = c == 2 && v % 3 != 0 ? before[4 * v + c] + 0.5f : before[4 * v + c];
      ASSERT_EQ(after[4 * v + c], want) << "vertex " << v << " component " << c;
    }
  EXPECT_EQ(g.take_status().flag_count, 0u) << "taken: cleared for the next runs";
}

// 10 000 iterations an invocation, far below the budget: an integer hash and a float sum per
// vertex, exactly as the CPU computes them, and nothing reported.
TEST_F(MeshLoopBudget, AnHonestLongLoopIsUntouched) {
  GpuMesh g(ctx(), bumpy_grid(8));
  std::vector<float> before = g.coordinates();
  auto k = run(g,
               "// loop: Ver\n// field: Hash int Ver\nuint h = i;\nfloat s = VerCrd.y;\n"
               "for (int n = 0; n < 10000; ++n) {\n  h = h * 1664525u + 1013904223u;\n  s += 1e-4;\n}\n"
               "VerHash = int(h);\nVerCrd.y = s;\n");
  gpu::LoopStatus st = g.take_status();
  EXPECT_EQ(kernel_trouble(st, k, "in run 1"), "");
  auto hash = g.download("Hash");
  std::vector<float> after = g.coordinates();
  for (uint32_t v = 0; v < g.vertices(); ++v) {
    uint32_t h = v;
    float s = before[4 * v + 1];
    for (int n = 0; n < 10000; ++n) h = h * 1664525u + 1013904223u, s += 1e-4f;
    ASSERT_EQ(int32_t(hash[v]), int32_t(h)) << "vertex " << v;
    ASSERT_EQ(after[4 * v + 1], s) << "vertex " << v;
  }
}

// The lab: a runaway or a NaN kernel from --kernel stops the run at its first frame with one
// line naming it (headless ends with it, exit 3); a good kernel file afterwards runs clean.
TEST_F(MeshLoopBudget, TheLabStopsAtTheFirstRunAndTheNextBuildRunsClean) {
  auto lab = make_lab("mesh");
  lab->params().set("grid_size", "8");
  lab->params().set("kernel_file", file("hang.glsl", kHang).string());
  lab->build(ctx());
  std::string said = frame(*lab);
  EXPECT_EQ(said.find("kernel 2 (line 4, loop: Ver): its for loop at line 8 ran out"), 0u) << said;
  EXPECT_NE(said.find("in run 1"), std::string::npos) << said;

  lab->params().set("kernel_file",
                    file("inf.glsl", "// loop: Ver\nVerCrd.x = 1.0 / (VerCrd.x - VerCrd.x);\n").string());
  lab->build(ctx());
  EXPECT_EQ(frame(*lab),
            "kernel 1 (line 1, loop: Ver) made the coordinates of 64 vertices NaN or infinite in run 1: not stored, "
            "they keep their previous coordinates");

  lab->params().set("kernel_file",
                    file("ok.glsl", "// loop: Ver\nfor (int n = 0; n < 100; ++n) VerCrd.z += 0.01;\n").string());
  lab->build(ctx());
  for (int f = 0; f < 3; ++f) EXPECT_EQ(frame(*lab), "");
  EXPECT_EQ(lab->steps_done(), 3u);
  vkDeviceWaitIdle(ctx().device);
}

}  // namespace
