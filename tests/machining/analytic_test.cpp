// compute/machining/analytic.h, shaders/machining/analytic.glsl, seed 003 ch. 12: analytic tools.
// Every compute engine gives the CPU engine's heights (bit for bit where divisions and square
// roots round correctly: every fp64 device; in double within a few ulps), 3- and 5-axis, single
// and double; the heights are
// the exact tool's (the closed forms with the axis vertical, a bisection on the solid along each
// brin's line with it tilted); and a mesh tool converges to its analytic twin.
#include "compute/machining/analytic.h"
#include "compute/machining/zbuffer.h"
#include "tests/helpers.h"
#include "tests/machining/helpers.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>

using namespace machining;

namespace {

std::vector<Position> swaying(std::vector<Position> path) {
  for (size_t i = 0; i < path.size(); ++i) {
    path[i].axis = glm::normalize(glm::vec3(0.5f * std::sin(float(i)), 0.3f * std::cos(float(3 * i)), 1.0f));
    path[i].omega = 0.1f * float(i);
  }
  return path;
}

// Whether the point q of the tool frame lies in the tool (the solids analytic.h describes).
bool inside(const AnalyticTool& t, glm::dvec3 q) {
  double r = t.radius, c = t.corner, h = t.height, rho = std::hypot(q.x, q.y);
  switch (t.shape) {
    case 0:
      return glm::length(q - glm::dvec3(0, 0, r)) <= r;
    case 1:
      return (rho - (r - c)) * (rho - (r - c)) + (q.z - c) * (q.z - c) <= c * c;
    case 2:
      return q.z >= 0 && q.z <= h && rho <= q.z * r / h;
    default:
      return q.z >= 0 && q.z <= h && rho <= r;
  }
}

// The lowest point of the tool over world point (x, y), relative to the tip, found by stepping
// up the vertical line through the solid then bisecting; `thickness`: how long the line stays in.
bool reference_hit(const AnalyticTool& t, const Position& p, double x, double y, double& z, double& thickness) {
  glm::dmat3 Rt = glm::transpose(glm::dmat3(tool_rotation(p)));
  auto in = [&](double zz) { return inside(t, Rt * glm::dvec3(x - p.tip.x, y - p.tip.y, zz)); };
  const double reach = 3 * t.radius + t.height + 2 * t.corner, step = t.radius / 400;
  for (double zz = -reach; zz <= reach; zz += step)
    if (in(zz)) {
      double lo = zz - step, hi = zz;
      for (int k = 0; k < 60; ++k) (in(0.5 * (lo + hi)) ? hi : lo) = 0.5 * (lo + hi);
      z = hi;
      double top = hi;
      while (top < reach && in(top + step)) top += step;
      thickness = top - hi;
      return true;
    }
  return false;
}

class MachiningAnalytic : public GpuTest {
 protected:
  template <class R>
  void engines_equal_cpu(bool f64) {
    Stock s;
    s.nx = 56, s.ny = 44, s.d = 0.5f, s.x0 = 0.25f, s.y0 = -0.5f, s.f64 = f64;
    for (const std::string& shape : tool_shapes())
      for (bool five_axis : {false, true}) {
        AnalyticTool tool = analytic_tool(shape, 6.0f);
        auto path = generate_path("random", 26.0f, 30, 1.0f, 5);
        if (five_axis) path = swaying(path);
        const std::string what = shape + (f64 ? ", double" : ", single") + (five_axis ? ", 5-axis" : "");
        Mesh picture = make_tool(shape, 6.0f, 320);
        std::vector<R> ref;
        for (Engine e : {Engine::Fine, Engine::PerPosition, Engine::PerTriangle, Engine::Persistent, Engine::PerBrin}) {
          Machine m(ctx(), s, picture, path, &tool);
          m.run(e, 2000);
          auto h = heights_of<R>(m);
          if (ref.empty())
            ref = h;
          else
            ASSERT_EQ(std::memcmp(h.data(), ref.data(), h.size() * sizeof(R)), 0)
                << engine_names()[size_t(e)] << ", " << what;
        }
        std::vector<R> cpu(ref.size(), R(0));
        mill_analytic_cpu(s, cpu, tool, path, 3);
        size_t cut = 0;
        for (size_t i = 0; i < ref.size(); ++i) {
          if (f64)  // lavapipe's double square root can be an ulp off: the torus's search then strays
            ASSERT_NEAR(cpu[i], ref[i], 64 * DBL_EPSILON * (1 + std::fabs(ref[i])))
                << "cpu, " << what << ", brin " << i;
          else if (ctx().info.fp64)
            ASSERT_EQ(height_key(cpu[i]), height_key(ref[i]))
                << "cpu, " << what << ", brin " << i << ": " << cpu[i] << " against " << ref[i];
          else
            ASSERT_NEAR(cpu[i], ref[i], 8 * FLT_EPSILON * (1 + std::fabs(ref[i]))) << "cpu, " << what << ", brin " << i;
          cut += ref[i] < 0;
        }
        EXPECT_GT(cut, 100u) << what << ": the path should cut";
        Machine hw(ctx(), s, picture, path, &tool);
        EXPECT_THROW(hw.run(Engine::Hardware), std::invalid_argument) << "the hardware engine draws meshes only";
      }
  }
};

TEST_F(MachiningAnalytic, EveryEngineGivesTheCpuEnginesHeightsInSingle) { engines_equal_cpu<float>(false); }

TEST_F(MachiningAnalytic, EveryEngineGivesTheCpuEnginesHeightsInDouble) {
  if (!ctx().int64_atomics) GTEST_SKIP() << "no 64-bit atomics / fp64 on this device";
  engines_equal_cpu<double>(true);
}

// Vertical axis: the closed forms in double. Tilted: the bisection on the solid.
TEST(MachiningAnalyticCpu, HeightsAreTheExactToolsUprightAndTilted) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> U(-1, 1);
  for (const std::string& shape : tool_shapes()) {
    AnalyticTool t = analytic_tool(shape, 8.0f);
    const double r = t.radius, c = t.corner, R = r - c;
    auto exact_upright = [&](double rho, double& z) {
      switch (t.shape) {
        case 0:
          return rho <= r && (z = r - std::sqrt(r * r - rho * rho), true);
        case 1:
          return std::fabs(rho - R) <= c && (z = c - std::sqrt(c * c - (rho - R) * (rho - R)), true);
        case 2:
          return rho <= r && (z = rho * t.height / r, true);
        default:
          return rho <= r && (z = 0, true);
      }
    };
    auto table = analytic_table(t);
    size_t hits = 0, checked_tilted = 0;
    for (bool upright : {true, false})
      for (int n = 0; n < 3000; ++n) {
        Position p;
        p.tip = glm::vec3(10 * U(rng), 10 * U(rng), 2 * U(rng));
        if (!upright) p.axis = glm::normalize(glm::vec3(0.7f * U(rng), 0.7f * U(rng), 1.0f));
        p.omega = 3 * U(rng);
        PackedPosition P = pack(p, t.lo(), t.hi());
        float x = p.tip.x + 5 * U(rng), y = p.tip.y + 5 * U(rng);
        double z = 0, ref = 0, thick = 0;
        float zf = 0;
        bool hit = analytic_hit<double>(t, table, P, double(x) - double(p.tip.x), double(y) - double(p.tip.y), z);
        bool hitf = analytic_hit<float>(t, table, P, x - p.tip.x, y - p.tip.y, zf);
        const std::string at = shape + (upright ? " upright" : " tilted") + ", sample " + std::to_string(n);
        if (upright) {
          double rho = std::hypot(double(x) - double(p.tip.x), double(y) - double(p.tip.y));
          bool want = exact_upright(rho, ref);
          if (std::fabs(rho - r) < 1e-4 || (t.shape == 1 && std::fabs(rho - (R - c)) < 1e-4)) continue;  // an edge
          ASSERT_EQ(hit, want) << at;
          ASSERT_EQ(hitf, want) << at;
          if (!want) continue;
          ASSERT_NEAR(z, ref, 1e-6 * r) << at;           // the cone's and cylinder's rotation rows are floats
          ASSERT_NEAR(double(zf), ref, 2e-5 * r) << at;  // a few float ulps of the tool's size, through a root
        } else {
          bool want = reference_hit(t, p, double(x), double(y), ref, thick);
          // grazing: the line barely enters, and the rotation's rounding (its rows are floats, not quite
          // orthonormal) moves the entry by much more than the arithmetic does
          if (want && thick < 0.05 * r) continue;
          if (!want && hit) {  // grazing from the other side: the hit must lie on the solid
            glm::dmat3 Rt = glm::transpose(glm::dmat3(tool_rotation(p)));
            glm::dvec3 q = Rt * glm::dvec3(double(x) - p.tip.x, double(y) - p.tip.y, z);
            ASSERT_TRUE(inside(t, q * (1 - 1e-3)) || inside(t, q * (1 + 1e-3))) << at;
            continue;
          }
          ASSERT_EQ(hit, want) << at;
          if (!want) continue;
          ++checked_tilted;
          ASSERT_NEAR(z, ref, 1e-5 * r) << at;
          ASSERT_NEAR(double(zf), ref, 1e-4 * r) << at;
        }
        ++hits;
      }
    EXPECT_GT(hits, 1500u) << shape;
    EXPECT_GT(checked_tilted, 500u) << shape;
  }
}

// A mesh tool converges to the analytic one: the seed's sphere resolutions (vertices on the
// sphere, so inside the ball) never cut below the exact ball, and less far above it at each one.
TEST_F(MachiningAnalytic, MeshToolsConvergeToTheExactTool) {
  Stock s;
  s.nx = s.ny = 64, s.d = 0.25f;
  auto path = generate_path("spiral", 63 * 0.25f, 200, 2.0f);
  AnalyticTool exact = analytic_tool("sphere", 6.0f);
  Machine a(ctx(), s, make_tool("sphere", 6.0f, 320), path, &exact);
  a.run(Engine::Fine);
  auto ha = a.heights();
  double previous = INFINITY;
  for (uint32_t tris : {320u, 1984u, 12482u}) {
    Machine m(ctx(), s, make_tool("sphere", 6.0f, tris), path);
    m.run(Engine::Fine);
    auto hm = m.heights();
    double worst = 0;
    for (size_t i = 0; i < hm.size(); ++i) {
      ASSERT_GE(hm[i], ha[i] - 1e-5f) << tris << " triangles, brin " << i << ": a mesh inside the ball cuts less";
      worst = std::max(worst, double(hm[i]) - double(ha[i]));
    }
    std::printf("sphere of %u triangles: at most %.4g above the exact ball\n", tris, worst);
    EXPECT_LT(worst, previous) << tris;
    previous = worst;
  }
}

}  // namespace
