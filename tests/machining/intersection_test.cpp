// compute/machining, seed 003 ch. 8: the three brin-triangle tests. Each gives the same heights
// on every compute engine and on the CPU engine (bit for bit where divisions round correctly:
// every fp64 device), 3- and 5-axis, single and double; and each cuts the surface the edge test
// cuts, to the rounding of its own arithmetic.
#include "compute/machining/zbuffer.h"
#include "tests/helpers.h"
#include "tests/machining/helpers.h"

#include <cfloat>
#include <cmath>
#include <cstring>

using namespace machining;

namespace {

class MachiningIntersection : public GpuTest {
 protected:
  template <class R>
  std::vector<R> mill(Engine e, HitTest test, const Stock& s, const Mesh& tool, const std::vector<Position>& path) {
    return mill_with<R>(ctx(), e, Atomic::Native, test, s, tool, path, 5000);
  }

  template <class R>
  void check(bool f64) {
    Stock s;
    s.nx = 64, s.ny = 48, s.d = 0.5f, s.x0 = 0.25f, s.y0 = -0.5f, s.f64 = f64;
    auto tool = make_tool("sphere", 6.0f, 320);
    for (bool five_axis : {false, true}) {
      auto path = generate_path("random", 30.0f, 40, 1.0f, 7);
      if (five_axis)
        for (size_t i = 0; i < path.size(); ++i) {
          path[i].axis = glm::normalize(glm::vec3(0.3f * std::sin(float(i)), 0.2f, 1.0f));
          path[i].omega = 0.1f * float(i);
        }
      const std::string what = std::string(f64 ? "double" : "single") + (five_axis ? ", 5-axis" : "");
      auto edge = mill<R>(Engine::Fine, HitTest::Edge, s, tool, path);
      for (HitTest test : {HitTest::Zbuffer, HitTest::General}) {
        const std::string name = hit_test_names()[size_t(test)] + ", " + what;
        auto ref = mill<R>(Engine::Fine, test, s, tool, path);
        for (Engine e : {Engine::PerPosition, Engine::PerTriangle, Engine::Persistent, Engine::PerBrin}) {
          auto h = mill<R>(e, test, s, tool, path);
          ASSERT_EQ(std::memcmp(h.data(), ref.data(), h.size() * sizeof(R)), 0)
              << engine_names()[size_t(e)] << ", " << name;
        }
        std::vector<R> cpu(ref.size(), R(0));
        mill_cpu(s, cpu, tool, path, 3, test);
        size_t cut = 0, unlike_edge = 0;
        double worst = 0;
        for (size_t i = 0; i < ref.size(); ++i) {
          if (ctx().info.fp64 || f64)
            ASSERT_EQ(height_key(cpu[i]), height_key(ref[i])) << "cpu, " << name << ", brin " << i;
          else
            ASSERT_NEAR(cpu[i], ref[i], 4 * FLT_EPSILON * (1 + std::fabs(ref[i]))) << "cpu, " << name << ", brin " << i;
          cut += ref[i] < 0;
          unlike_edge += ref[i] != edge[i];
          worst = std::max(worst, std::fabs(double(ref[i]) - double(edge[i])));
        }
        ASSERT_GT(cut, 300u) << name << ": the path should cut";
        // The same surface as the edge test's: every brin within a few float ulps of the tool's size
        // (heights below the tip come from coordinates up to 6; the tip itself is below 0).
        EXPECT_LT(worst, (f64 ? 1e-14 : 4e-6)) << name;
        std::printf("%s: %zu of %zu brins cut, %zu unlike the edge test's, at most %.3g apart\n", name.c_str(), cut,
                    ref.size(), unlike_edge, worst);
      }
    }
  }
};

TEST_F(MachiningIntersection, EveryEngineAndTheCpuAgreeOnEachTestAndEachCutsLikeTheEdgeTest) {
  check<float>(false);
  if (!ctx().int64_atomics) GTEST_SKIP() << "no 64-bit atomics / fp64 on this device";
  check<double>(true);
}

}  // namespace
