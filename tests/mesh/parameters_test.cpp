// GmlNewParameters (manual §4.18): the Par structure kernels read and write, set from the host
// without compiling, read back after a launch; its std430 layout; bad declarations.
#include "compute/mesh/generate.h"
#include "compute/mesh/kernel_text.h"
#include "tests/mesh/helpers.h"

#include <cmath>

using namespace mesh;

namespace {

// The example: Par.Weight from the host moves each vertex that part of the way to the mean
// barycentre of its ball; Par.Moved counts those that moved more than Par.Tolerance.
TEST_F(MeshEntities, ParametersSetWithoutCompilingAndReadBackAfterALaunch) {
  Mesh m = bumpy_grid(9);
  GpuMesh g(ctx(), m);
  auto kernels = compile_text(g, mesh_examples().at("smoothing with parameters").text);
  ASSERT_EQ(g.parameters().size(), 3u);
  EXPECT_EQ(g.parameters()[0].values, std::vector<double>{0.5});  // the text's value
  const GpuMesh::Kernel* first = kernels[1].get();
  for (double weight : {0.25, 0.75}) {
    g.set_parameter("Weight", {weight});  // no compiling: the same kernels run
    g.set_parameter("Tolerance", {0.002});
    auto before = g.coordinates();
    ctx().submit_now([&](VkCommandBuffer cmd) {
      g.record(cmd, *kernels[0], 0);
      g.record(cmd, *kernels[1], 1);
    });
    ASSERT_EQ(kernels[1].get(), first);
    auto after = g.coordinates();
    const Ball& b = g.upward(Kind::Vertices, Kind::Triangles);
    const Elements& t = g.elements(Kind::Triangles);
    auto at = [&](const std::vector<float>& c, uint32_t v) { return glm::dvec3(c[4 * v], c[4 * v + 1], c[4 * v + 2]); };
    int moved = 0;
    for (uint32_t v = 0; v < m.vertices(); ++v) {
      glm::dvec3 s(0.0);
      for (uint32_t k = 0; k < b.degree[v]; ++k) {
        uint32_t f = b.member(v, k);
        s += (at(before, t.v[3 * f]) + at(before, t.v[3 * f + 1]) + at(before, t.v[3 * f + 2])) / 3.0;
      }
      glm::dvec3 target = s / double(b.degree[v]), want = at(before, v) + weight * (target - at(before, v));
      for (int c = 0; c < 3; ++c)
        ASSERT_NEAR(after[4 * v + c], want[c], 1e-6) << "weight " << weight << " vertex " << v;
      double d = weight * glm::distance(target, at(before, v));
      if (std::fabs(d - 0.002) > 1e-6)
        moved += d > 0.002;  // away from the threshold: no rounding doubt
      else
        moved += float(d) > 0.002f;
    }
    auto first_launch = g.parameters_after(0), second = g.parameters_after(1);
    EXPECT_EQ(first_launch[2].values[0], 0.0) << "kernel 1 cleared the flag";
    EXPECT_EQ(second[2].values[0], moved) << "weight " << weight;
    EXPECT_EQ(second[0].values[0], weight);
    EXPECT_GT(moved, 0);
    g.adopt_parameters(1);  // the host's copy is now the GPU's
    EXPECT_EQ(g.parameters()[2].values[0], moved);
  }
  // A value the host changed after the launch wins over the read-back one.
  g.set_parameter("Moved", {-7});
  g.adopt_parameters(1);
  EXPECT_EQ(g.parameters()[2].values[0], -7);
}

// std430: a vec3 aligns to 16 bytes, a vec2 to 8, a double to 8. A kernel writes each member;
// the host reads back what it wrote, and what it read from the host.
TEST_F(MeshEntities, ParametersFollowStd430) {
  Mesh m = bumpy_grid(3);
  GpuMesh g(ctx(), m);
  std::string text =
      "// param: A float = 1.5\n// param: B vec3 = 1, 2, 3\n// param: C int = -4\n// param: D vec2 = 0.25, 0.5\n"
      "// param: E ivec4 = 7\n"
      "// loop: Ver\n"
      "if (i == 0u) { Par.A += Par.B.z; Par.B = vec3(Par.C, Par.D); Par.C = int(Par.E.w) * 2; Par.D *= 4.0; "
      "Par.E = ivec4(1, 2, 3, 4); }\n";
  auto k = compile_text(g, text);
  ASSERT_EQ(g.parameters()[4].values, (std::vector<double>{7, 7, 7, 7})) << "one value fills a vector";
  ctx().submit_now([&](VkCommandBuffer cmd) { g.record(cmd, *k[0], 3); });
  auto p = g.parameters_after(3);
  EXPECT_EQ(p[0].values, std::vector<double>{4.5});
  EXPECT_EQ(p[1].values, (std::vector<double>{-4, 0.25, 0.5}));
  EXPECT_EQ(p[2].values, std::vector<double>{14});
  EXPECT_EQ(p[3].values, (std::vector<double>{1, 2}));
  EXPECT_EQ(p[4].values, (std::vector<double>{1, 2, 3, 4}));
  // A new layout makes the old kernel stale; compiling again makes it run.
  g.set_parameters({{"A", {Scalar::Float, 1}, {0}}});
  EXPECT_FALSE(g.valid(*k[0]));
}

TEST_F(MeshEntities, BadParameterDeclarationsSayWhich) {
  Mesh m = bumpy_grid(3);
  GpuMesh g(ctx(), m);
  const std::pair<std::string, std::string> bad[] = {
      {"// param: TriCount int\n", "TriCount"},        {"// param: alpha float\n", "alpha"},
      {"// param: Alpha quaternion\n", "quaternion"},  {"// param: Alpha float = x\n", "Alpha"},
      {"// param: Alpha vec2 = 1, 2, 3\n", "Alpha"},   {"// param: Alpha int\n// param: Alpha int\n", "twice"},
      {"// param: Alpha vec4[2] = 1, 2\n", "vec4[2]"}, {"// param: Alpha float 0.5\n", "0.5"}};
  for (auto& [text, says] : bad) {
    try {
      compile_text(g, text + "// loop: Ver\nVerX.x = 1.0;\n");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const KernelError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  }
}

// A text that does not compile leaves the running kernels and the structure as they were,
// values set from the host included; a field may not be called Par.
TEST_F(MeshEntities, AFailedCompileKeepsTheParameters) {
  GpuMesh g(ctx(), bumpy_grid(5));
  auto good = compile_text(g, "// param: Weight float = 0.5\n// loop: Ver\nVerX.x = Par.Weight;\n");
  g.set_parameter("Weight", {0.25});
  EXPECT_THROW(compile_text(g, "// param: Other ivec2 = 3\n// loop: Ver\nVerX.x = Par.Other.x +;\n"), KernelError);
  ASSERT_EQ(g.parameters().size(), 1u);
  EXPECT_EQ(g.parameters()[0].name, "Weight");
  EXPECT_EQ(g.parameters()[0].values, std::vector<double>{0.25});
  ASSERT_TRUE(g.valid(*good[0]));
  ctx().submit_now([&](VkCommandBuffer cmd) { g.record(cmd, *good[0]); });
  EXPECT_EQ(g.download("X")[0], 0.25);
  EXPECT_THROW(g.add_field("Par", Kind::Vertices), std::invalid_argument);
}

}  // namespace
