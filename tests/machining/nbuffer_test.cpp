// compute/machining/nbuffer.h, surface.h, shaders/machining/nbuffer.prec.comp: the N-buffer
// (seed 003 §5.3). The GPU kernel gives its CPU twin's lengths bit for bit (where divisions
// round correctly: every fp64 device), on flat, cylindrical and domed stock, 3- and 5-axis; on
// a flat stock it is the Z-buffer; the lengths are the exact ball's within the mesh's error;
// the exact ball's scallops are the closed form's; and what a Z-buffer says along the normals
// is off by the slope unless its surface is followed along the ray.
#include "compute/machining/nbuffer.h"
#include "tests/helpers.h"

#include <cfloat>
#include <cmath>

using namespace machining;

namespace {

Stock small_stock(SurfaceShape shape, float radius, bool nbuffer) {
  Stock s;
  s.nx = 44, s.ny = 44, s.d = 0.5f;
  s.surface.shape = shape, s.surface.radius = radius, s.surface.centre = {10.75f, 10.75f};
  s.nbuffer = nbuffer;
  return s;
}

std::vector<Position> finishing(const Stock& s, float r) {
  return finishing_path(s.surface, s.top, float(s.nx - 1) * s.d, r, 2.0f, 400, 0.6f);
}

class MachiningNbuffer : public GpuTest {};

}  // namespace

TEST_F(MachiningNbuffer, GpuGivesTheCpuTwinsLengthsOnEveryStock) {
  Mesh ball = make_tool("sphere", 5.0f, 320);
  for (SurfaceShape shape : {SurfaceShape::Flat, SurfaceShape::Cylinder, SurfaceShape::Dome})
    for (bool five_axis : {false, true}) {
      Stock s = small_stock(shape, 40.0f, true);
      auto path = finishing(s, 2.5f);
      if (five_axis)
        for (size_t i = 0; i < path.size(); ++i)
          path[i].axis = glm::normalize(glm::vec3(0.4f * std::sin(float(i)), 0.3f * std::cos(float(2 * i)), 1.0f)),
          path[i].omega = 0.05f * float(i);
      std::string what = surface_names()[size_t(shape)] + (five_axis ? ", 5-axis" : ", 3-axis");
      std::vector<float> cpu(size_t(s.nx) * s.ny, 0.0f);
      mill_nbuffer_cpu(s, cpu, ball, path, 2);
      for (double pairs : {1e9, 3000.0}) {  // one submission, or many and dispatches split
        Machine m(ctx(), s, ball, path);
        m.run(Engine::PerBrin, pairs);
        auto gpu = m.heights();
        size_t cut = 0;
        for (size_t i = 0; i < gpu.size(); ++i) {
          if (ctx().info.fp64)
            ASSERT_EQ(height_key(gpu[i]), height_key(cpu[i]))
                << what << ", brin " << i << ": " << gpu[i] << " vs " << cpu[i];
          else
            ASSERT_NEAR(gpu[i], cpu[i], 1e-5f) << what << ", brin " << i;
          cut += gpu[i] < -0.1f;
        }
        EXPECT_GT(cut, gpu.size() / 2) << what << ": the finishing path cuts most of the stock";
      }
    }
}

TEST_F(MachiningNbuffer, OnAFlatStockItIsTheZbuffer) {
  Mesh ball = make_tool("sphere", 5.0f, 320);
  Stock n = small_stock(SurfaceShape::Flat, 0, true), z = small_stock(SurfaceShape::Flat, 0, false);
  auto path = generate_path("random", 21.5f, 60, 1.0f);
  Machine nb(ctx(), n, ball, path), zb(ctx(), z, ball, path);
  nb.run(Engine::PerBrin);
  zb.set_hit_test(HitTest::General);  // the same ray test, vertical
  zb.run(Engine::Fine);
  auto l = nb.heights(), h = zb.heights();
  size_t cut = 0;
  for (size_t i = 0; i < l.size(); ++i) {
    ASSERT_NEAR(z.top + l[i], h[i], 4e-6f) << "brin " << i;
    cut += h[i] < -0.1f;
  }
  EXPECT_GT(cut, 200u);
}

// The sphere mesh's facets lie inside the sphere, at most `sag` from it; a ray meets them at
// most sag / cos(incidence) further on. The finishing passes meet the surface near its normal.
TEST(MachiningNbufferCpu, LengthsAreTheExactBallsWithinTheMeshError) {
  const float r = 2.5f;
  Mesh ball = make_tool("sphere", 2 * r, 12482);
  double sag = 0;
  for (size_t t = 0; t < ball.triangles(); ++t) {
    glm::dvec3 c = (glm::dvec3(ball.vertices[3 * t]) + glm::dvec3(ball.vertices[3 * t + 1]) +
                    glm::dvec3(ball.vertices[3 * t + 2])) /
                   3.0;
    sag = std::max(sag, r - glm::length(c - glm::dvec3(0, 0, r)));
  }
  ASSERT_LT(sag, 0.02);
  for (SurfaceShape shape : {SurfaceShape::Cylinder, SurfaceShape::Dome}) {
    Stock s = small_stock(shape, 30.0f, true);
    auto path = finishing(s, r);
    std::vector<float> l(size_t(s.nx) * s.ny, 0.0f);
    mill_nbuffer_cpu(s, l, ball, path);
    auto exact = nbuffer_exact_ball(s, r, path);
    double worst = 0;
    for (size_t i = 0; i < l.size(); ++i) {
      ASSERT_LE(exact[i], 0.0);
      ASSERT_GE(double(l[i]), exact[i] - 1e-5) << "brin " << i << ": the mesh lies inside the ball";
      worst = std::max(worst, double(l[i]) - exact[i]);
    }
    EXPECT_LT(worst, 3 * sag) << surface_names()[size_t(shape)];
    EXPECT_GT(worst, 0.1 * sag) << "a mesh is not the sphere";
  }
}

// Passes along the cylinder's axis: two balls' centres at D = R + r - depth from the axis,
// angles a and b; material stands between the surface (R) and the nearer point where the
// spheres meet, on the bisector: rho = D cos(h) - sqrt(r² - D² sin²(h)), h = (b - a) / 2.
TEST(MachiningNbufferCpu, ExactBallsScallopsAreTheClosedForms) {
  const double r = 2.5, depth = 0.6, R = 30;
  Stock s = small_stock(SurfaceShape::Cylinder, float(R), true);
  s.d = 0.05f, s.nx = 4, s.ny = 470;  // fine across the passes
  s.surface.centre = {0.0f, 11.75f};
  auto path = finishing_path(s.surface, s.top, 23.5f, float(r), 2.0f, 400, float(depth));
  auto exact = nbuffer_exact_ball(s, r, path);
  const double D = R + r - depth;
  std::vector<double> ys;
  for (auto& p : path)
    if (ys.empty() || std::fabs(p.tip.y - ys.back()) > 1e-3) ys.push_back(p.tip.y);
  ASSERT_GE(ys.size(), 10u);
  size_t checked = 0;
  for (size_t k = 0; k + 1 < ys.size(); ++k) {
    double a = std::asin((ys[k] - 11.75) / (R + r - depth)), b = std::asin((ys[k + 1] - 11.75) / (R + r - depth));
    double h = 0.5 * (b - a), mid = 0.5 * (a + b);
    double rho = D * std::cos(h) - std::sqrt(r * r - D * D * std::sin(h) * std::sin(h));
    double y = 11.75 + R * std::sin(mid);  // the cusp's brin row
    uint32_t j = uint32_t(std::lround((y - s.y0) / s.d));
    if (j == 0 || j + 1 >= s.ny) continue;
    double top = std::max({exact[(j - 1) * s.nx], exact[j * s.nx], exact[(j + 1) * s.nx]});
    // the brins sample the cusp a spacing apart; its flanks slope by about (stepover / 2) / r
    EXPECT_NEAR(top, rho - R, 0.12 * s.d) << "passes " << k << " and " << k + 1;
    EXPECT_LT(rho - R, -0.1) << "the finishing leaves the scallops below the surface";
    ++checked;
  }
  EXPECT_EQ(checked, ys.size() - 1);
}

// A Z-buffer's vertical depth overstates the cut by 1 / cos(slope); its surface followed along
// the normal (lengths_from_heights) gives the N-buffer's measure within the interpolation error.
TEST_F(MachiningNbuffer, ZbufferAlongTheNormalsAgreesWhereVerticalDepthsDoNot) {
  const float r = 2.5f;
  Mesh ball = make_tool("sphere", 2 * r, 1984);
  Stock z = small_stock(SurfaceShape::Dome, 16.0f, false);
  auto path = finishing(z, r);
  Machine m(ctx(), z, ball, path);
  m.run(Engine::Fine);
  auto h = m.heights();
  auto base = surface_heights(z);
  auto exact = nbuffer_exact_ball(z, r, path);
  auto along = lengths_from_heights(z, h, 4.0);
  double vertical = 0, followed = 0;
  size_t steep = 0;
  for (uint32_t j = 2; j + 2 < z.ny; ++j)
    for (uint32_t i = 2; i + 2 < z.nx; ++i) {
      size_t b = size_t(j) * z.nx + i;
      double x = z.x0 + i * z.d, y = z.y0 + j * z.d;
      if (surface_normal(z.surface, x, y).z > 0.75 || std::isnan(along[b])) continue;
      ++steep;
      vertical += std::fabs((h[b] - base[b]) - exact[b]);
      followed += std::fabs(along[b] - exact[b]);
    }
  ASSERT_GT(steep, 100u);
  vertical /= double(steep), followed /= double(steep);
  EXPECT_GT(vertical, 0.1) << "slopes past 41 degrees: vertical depths 1 / cos(slope) too deep";
  EXPECT_LT(followed, vertical / 4);
}

TEST_F(MachiningNbuffer, RefusesWhatItCannotDo) {
  Mesh ball = make_tool("sphere", 5.0f, 320);
  Stock s = small_stock(SurfaceShape::Dome, 40.0f, true);
  auto path = finishing(s, 2.5f);
  Machine m(ctx(), s, ball, path);
  EXPECT_THROW(m.run(Engine::Fine), std::invalid_argument) << "the N-buffer runs on the brin engine";
  Stock d = s;
  d.f64 = true;
  EXPECT_THROW(Machine(ctx(), d, ball, path), std::invalid_argument) << "single precision only";
  Stock steep = small_stock(SurfaceShape::Dome, 10.0f, false);
  try {
    Machine(ctx(), steep, ball, path);
    FAIL() << "a dome of radius 10 over a 21.5 x 21.5 stock is steeper than 76 degrees";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("radius of at least"), std::string::npos) << e.what();
  }
}
