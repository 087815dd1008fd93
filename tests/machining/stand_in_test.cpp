// compute/machining: our stand-ins for the report's configurations (seed 003 §13.2) have its
// counts of positions and triangles, zooms included (its table's "Taille" columns), and the
// generators give exactly the counts asked for.
#include "compute/machining/bench_seed.h"
#include "compute/machining/zoom_window.h"
#include "tests/helpers.h"

#include <cmath>
#include <map>
#include <random>

using namespace machining;

// The report's §13.2.2 table (and §13.2.3's, the same sizes): path size, tool, tool size.
TEST(MachiningStandIns, TheBenchConfigurationsHaveTheReportsCounts) {
  struct Sizes {
    size_t positions;
    const char* tool;
    size_t triangles;
  };
  const std::map<std::string, Sizes> report = {
      {"single", {1, "sphere", 1984}},         {"random", {200000, "sphere", 320}},
      {"random zoom", {135, "sphere", 320}},   {"spiral", {200000, "sphere", 1984}},
      {"spiral zoom", {191, "sphere", 1984}},  {"downspiral", {200000, "cone", 64}},
      {"downspiral zoom", {201, "cone", 64}},  {"volcano", {200000, "sphere", 1984}},
      {"volcano zoom", {121, "sphere", 1984}}, {"ebauche", {47837, "torus", 25904}},
      {"ebauche zoom", {619, "torus", 25904}}, {"finition", {53667, "sphere", 12482}}};
  ASSERT_EQ(seed_configs().size(), report.size());
  for (const auto& sc : seed_configs()) {
    SCOPED_TRACE(sc.name);
    ASSERT_TRUE(report.count(sc.name));
    const Sizes& want = report.at(sc.name);
    auto su = setup(sc, false, 16);
    ASSERT_TRUE(su.has_value());
    EXPECT_EQ(su->path.size(), want.positions);
    EXPECT_EQ(std::string(sc.tool), want.tool);
    EXPECT_EQ(su->tool.triangles(), want.triangles);
    if (sc.zoom > 1) {  // the window is the zoom's, and keeps exactly the positions reaching it
      EXPECT_FLOAT_EQ(su->window, sc.surface / sc.zoom);
      auto whole = setup(seed_config(std::string(sc.name).substr(0, std::string(sc.name).find(' '))), false, 16);
      EXPECT_EQ(reaching(whole->path, {su->st.x0, su->st.y0}, su->window, 0.5f * sc.diameter).size(), want.positions);
      std::printf("%s: window [%.3f, %.3f] x [%.3f, %.3f] of a surface of %g\n", sc.name, su->st.x0,
                  su->st.x0 + su->window, su->st.y0, su->st.y0 + su->window, sc.surface);
    }
    EXPECT_FALSE(std::string(sc.stand_in).empty());
  }
  EXPECT_TRUE(seed_config("finition").five_axis);  // a synthetic tilt: the report's is a CATIA program
  auto fin = setup(seed_config("finition"), false, 16);
  EXPECT_NE(fin->path[1000].axis, glm::vec3(0, 0, 1));
}

// A window (16 x 16 with the tool's reach) keeping any count up to about the most it can hold on
// a random path (2000 positions over 100 x 100: 51 on average); none keeps more than the path.
TEST(MachiningStandIns, AWindowKeepsExactlyTheCountAskedFor) {
  auto path = generate_path("random", 100.0f, 2000, 1.0f, 5);
  for (size_t count : {1u, 7u, 30u, 51u, 60u}) {
    auto lo = window_keeping(path, glm::vec2(50.0f), 10.0f, 3.0f, count);
    ASSERT_TRUE(lo.has_value()) << count;
    EXPECT_EQ(reaching(path, *lo, 10.0f, 3.0f).size(), count);
  }
  EXPECT_FALSE(window_keeping(path, glm::vec2(50.0f), 10.0f, 3.0f, 2001).has_value());
}

// The generators: a zigzag or volcano of exactly the positions asked for, a torus of exactly the
// triangles asked for (even counts; a closed torus has no odd one), its extra triangles lying on
// the tool (within the tool's box, tip at z = 0).
TEST(MachiningStandIns, GeneratorsGiveExactlyTheCountsAskedFor) {
  for (const char* kind : {"zigzag", "volcano"})
    for (uint32_t count : {47837u, 53667u, 200000u, 4000u, 2u, 1u}) {
      auto p = generate_path(kind, 50.0f, count, 2.5f);
      EXPECT_EQ(p.size(), count) << kind;
      for (auto& q : p) ASSERT_TRUE(q.tip.x >= 0 && q.tip.x <= 50 && q.tip.y >= 0 && q.tip.y <= 50) << kind;
    }
  std::mt19937 rng(3);
  for (uint32_t count : {25904u, 25760u, 400u, 1000u, 5000u, 128u}) {
    auto torus = make_tool("torus", 10, count);
    EXPECT_EQ(torus.triangles(), count);
    EXPECT_NEAR(torus.lo().z, 0.0f, 1e-5f) << count;
    EXPECT_NEAR(torus.hi().x, 5.0f, 0.01f) << count;
    for (auto& v : torus.vertices) {  // every vertex on the torus: tube radius 1.25 about a circle of 3.75
      float rho = std::hypot(v.x, v.y) - 3.75f, z = v.z - 1.25f;
      ASSERT_NEAR(std::hypot(rho, z), 1.25f, 1e-5f) << count;
    }
  }
  EXPECT_EQ(make_tool("torus", 10, 25905).triangles(), 25904u) << "odd: one fewer";
}
