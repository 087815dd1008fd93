// compute/machining/io/gcode: the RS274NGC words a milling program holds — arcs in the three
// planes against their circles, units, distance modes, home, what is ignored and what is
// refused — and the programs Debian's CAM tools wrote (assets/machining, from
// scripts/make-cam-assets.sh).
#include "compute/machining/io/gcode.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

using namespace machining;

namespace {

constexpr double kPi = 3.14159265358979323846;

Gcode parse(const std::string& text, float step = 0.1f) { return parse_gcode(text, "t.ngc", step); }

// Every position from `first` on lies on the circle (centre c, radius r) of the plane
// (axes a, b) and the path turns one way; returns the angle it swept.
double on_circle(const std::vector<Position>& p, size_t first, int a, int b, glm::vec2 c, float r, bool ccw) {
  double swept = 0, last = std::atan2(p[first].tip[b] - c.y, p[first].tip[a] - c.x);
  for (size_t i = first; i < p.size(); ++i) {
    glm::vec2 q(p[i].tip[a] - c.x, p[i].tip[b] - c.y);
    EXPECT_NEAR(glm::length(q), r, 1e-4f * r) << "position " << i;
    double ang = std::atan2(q.y, q.x), d = std::remainder(ang - last, 2 * kPi);
    EXPECT_TRUE(ccw ? d >= -1e-9 : d <= 1e-9) << "position " << i << " turns back";
    swept += d, last = ang;
  }
  return swept;
}

}  // namespace

TEST(Gcode, ArcsInTheirPlanesFollowTheirCircles) {
  // G17: a quarter clockwise from (10, 0) to (0, -10) around the origin, Z rising (a helix).
  auto g = parse("G0 X10 Y0 Z0\nG2 X0 Y-10 Z2 I-10 J0\n");
  EXPECT_NEAR(on_circle(g.positions, 0, 0, 1, {0, 0}, 10, false), -kPi / 2, 1e-5);
  EXPECT_EQ(g.positions.back().tip, glm::vec3(0, -10, 2));
  EXPECT_NEAR(g.positions[g.positions.size() / 2].tip.z, 1.0f, 0.05f) << "Z in step with the angle";
  EXPECT_NEAR(g.summary.length, std::hypot(kPi / 2 * 10, 2.0), 1e-9);
  EXPECT_EQ(g.positions.size(), 1 + size_t(std::ceil(std::hypot(kPi / 2 * 10, 2.0) / 0.1)));
  // G18 (Z, X around Y, centre K I) and G19 (Y, Z around X, centre J K), counter-clockwise halves.
  g = parse("G18 G0 X0 Y3 Z5\nG3 X0 Z-5 I0 K-5\n");
  EXPECT_NEAR(on_circle(g.positions, 0, 2, 0, {0, 0}, 5, true), kPi, 1e-5);
  for (auto& p : g.positions) ASSERT_EQ(p.tip.y, 3.0f);
  EXPECT_NEAR(g.positions[g.positions.size() / 2].tip.x, 5.0f, 1e-3f) << "G18, G3: from +Z towards +X (seen from +Y)";
  g = parse("G19 G0 X7 Y5 Z0\nG3 Y-5 J-5 K0\n");
  EXPECT_NEAR(on_circle(g.positions, 0, 1, 2, {0, 0}, 5, true), kPi, 1e-5);
  // A full circle, then two turns (P2), centre absolute (G90.1).
  g = parse("G0 X1 Y0 Z0\nG90.1 G3 X1 Y0 I0 J0 P2\n");
  EXPECT_NEAR(on_circle(g.positions, 0, 0, 1, {0, 0}, 1, true), 4 * kPi, 1e-5);
  EXPECT_EQ(g.summary.arcs, 1u);
  // R: the short arc, and with -R the long one (three quarters).
  g = parse("G0 X10 Y0 Z0\nG3 X0 Y10 R10\n");
  EXPECT_NEAR(on_circle(g.positions, 0, 0, 1, {0, 0}, 10, true), kPi / 2, 1e-5);
  g = parse("G0 X10 Y0 Z0\nG2 X0 Y10 R-10\n");
  EXPECT_NEAR(on_circle(g.positions, 0, 0, 1, {0, 0}, 10, false), -3 * kPi / 2, 1e-5);
}

TEST(Gcode, UnitsModesAndHome) {
  auto g = parse("G20 G0 X1 Y0 Z0\nG91 G1 X 1 Y0.5 E3\n", 1.0f);  // a space after a letter; E: a printer's
  EXPECT_TRUE(g.summary.inches);
  EXPECT_EQ(g.positions.front().tip, glm::vec3(25.4f, 0, 0));
  EXPECT_NEAR(g.positions.back().tip.x, 50.8f, 1e-4f);
  EXPECT_NEAR(g.positions.back().tip.y, 12.7f, 1e-4f);
  // G28 goes home, X0 Y0 Z0 until G28.1 sets it; with axis words, through their point and
  // then only those axes home.
  g = parse("G0 X5 Y5 Z5\nG28 Z10\nG0 X3 Y4 Z6\nG28.1\nG0 X9 Y9 Z9\nG28\n", 100.0f);
  std::vector<glm::vec3> tips;
  for (auto& p : g.positions) tips.push_back(p.tip);
  EXPECT_EQ(tips, (std::vector<glm::vec3>{{5, 5, 5}, {5, 5, 10}, {5, 5, 0}, {3, 4, 6}, {9, 9, 9}, {3, 4, 6}}))
      << "G28 Z10: through Z10, then Z alone home";
  g = parse("G0 X1 Y1 Z1\nG30.1\nG0 X5 Y5 Z5\nG30\n", 100.0f);
  EXPECT_EQ(g.positions.back().tip, glm::vec3(1, 1, 1)) << "G30 to the home G30.1 set";
  // An arc in inches, incremental: the centre offsets are inches too.
  g = parse("G20 G91 G0 X1 Y0 Z0\nG3 X-1 Y1 I-1 J0\n", 0.01f);
  EXPECT_NEAR(on_circle(g.positions, 0, 0, 1, {0, 0}, 25.4f, true), kPi / 2, 1e-5);
  // Blanks anywhere ("X1 0" is X10), CRLF lines, a program between '%' lines, a printer's E.
  g = parse("%\r\nG0 X0 Y0 Z0\r\nG1 X1 0 E2\r\nG92E0\r\nG1 X 1 2\r\n%\r\nG1 X99\r\n", 100.0f);
  EXPECT_EQ(g.positions.back().tip.x, 12.0f);
  EXPECT_EQ(g.positions[1].tip.x, 10.0f);
  EXPECT_TRUE(is_gcode_file("PART.NGC") && is_gcode_file("a.tap") && !is_gcode_file("p.csv"));
  // M2 ends the program: the lines after it are not read.
  g = parse("G0 X0 Y0 Z0\nG1 X1\nM2\nG1 X7\n", 1.0f);
  EXPECT_EQ(g.positions.back().tip.x, 1.0f);
}

TEST(Gcode, WordsThatDoNotMoveAreListedOnceAndGeometryChangesRefused) {
  auto g = parse(
      "%\nN10 G21 G90 G64 P0.01 G17 G40 G49 (preamble)\nT1 M6\nS6000 M3 M8\nG0 X0 Y0 Z5 F300\n/G1 Z-1\nG4 P1\n"
      "G1 X1 F200 ; again\nM5 M9\n%\n",
      1.0f);
  EXPECT_EQ(g.summary.ignored,
            (std::vector<std::string>{"G64", "G40", "G49", "P", "T", "M6", "S", "M3", "M8", "F", "G4", "M5", "M9"}));
  EXPECT_EQ(g.positions.back().tip, glm::vec3(1, 0, -1)) << "a block delete line runs (the switch off)";
  EXPECT_EQ(g.summary.moves, 3u);
  struct Bad {
    std::string text, says;
  };
  for (const Bad& b : std::vector<Bad>{{"G0 X0\nG41 D1 G1 X5\n", "t.ngc:2: G41: cutter radius compensation"},
                                       {"G43 H1\n", "t.ngc:1: G43: tool length offsets"},
                                       {"G0 X0 Y0 Z5\nG81 X1 Y1 Z-2 R1\n", "t.ngc:2: G81: canned cycles"},
                                       {"G92 X0 Y0\n", "t.ngc:1: G92: coordinate system offsets"},
                                       {"G55\n", "t.ngc:1: G55: the work offset"},
                                       {"O100 sub\n", "O-word"},
                                       {"G0 X0 C90\n", "the C axis"},
                                       {"G0 X0 Y0\nG2 X3 Y0 I1 J0\n", "t.ngc:2: the arc's end is not on its circle"},
                                       {"G0 X0 Y0\nG2 X0 Y0 R5\n", "full circle needs its centre"},
                                       {"G0 X0 Y0\nG2 X1 Y0 R0.2\n", "shorter than half the chord"},
                                       {"G17 G0 X0 Y0\nG2 X1 Y1 I1 K1\n", "'K' is not in the arc's plane"},
                                       {"G80 X1\n", "no motion mode"},
                                       {"G1 X--1\n", "'X' needs a number"},
                                       {"G1 X1e3\n", "'X': a number with an exponent"},
                                       {"G0 X0 Y0 Z0\nG1 X+-1\n", "t.ngc:2: 'X' needs a number"},
                                       {"G0 (a (nested) comment)\n", "a comment inside a comment"},
                                       {"G0 G1 X1\n", "two motion codes"},
                                       {"G0 X0 Y0 Z0\nG2 I5\n", "an arc needs its end"},
                                       {"G0 X0 Y0\nG90.1 G2 X2 Y0 I1\n", "needs both I and J"},
                                       {"G0 X0 Y0\nG2 X2.5 Y0 I1 J0\n", "not on its circle"},
                                       {"G20 G0 X900000\n", "t.ngc:1: the path leaves +-1e6"},
                                       {"G91 G0 X900000\nG0 X900000\n", "t.ngc:2: the path leaves +-1e6"},
                                       {"G38.2 Z-5\n", "G38.2 is not supported"}}) {
    try {
      parse(b.text);
      ADD_FAILURE() << b.text << " was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(b.says), std::string::npos) << e.what();
    }
  }
}

// The programs of the shipped drawings, as dxf2gcode and slic3r wrote them.
TEST(Gcode, ProgramsDebiansCamToolsWrote) {
  const std::filesystem::path dir = std::filesystem::path(VKLAB_SOURCE_ASSET_DIR) / "machining";
  // plate.dxf: a 60 x 40 plate, corners of radius 5, holes of radius 6 at (20, 20) and 4 at
  // (45, 20); dxf2gcode cuts each in two passes (Z -1.5, -3) with the tool's centre on the line.
  auto g = read_gcode(dir / "plate.ngc", 0.05f);
  EXPECT_EQ(g.summary.arcs, 16u) << "two half circles a hole, four corners a contour, two passes each";
  EXPECT_EQ(g.summary.lo, glm::dvec3(0, 0, -3));
  EXPECT_EQ(g.summary.hi, glm::dvec3(60, 40, 15));
  size_t on_hole = 0, deep = 0;
  for (auto& p : g.positions) {
    if (p.tip.z != -3.0f) continue;
    ++deep;
    float r6 = glm::length(glm::vec2(p.tip) - glm::vec2(20, 20)),
          r4 = glm::length(glm::vec2(p.tip) - glm::vec2(45, 20));
    if (std::fabs(r6 - 6) < 1e-3f || std::fabs(r4 - 4) < 1e-3f) ++on_hole;
  }
  EXPECT_GT(on_hole, size_t(2 * kPi * 10 / 0.05 * 0.9)) << "the holes' last pass on their circles";
  EXPECT_GT(deep, on_hole);
  for (const char* w : {"G64", "G40", "G49", "T", "M6", "S", "M3", "M8", "F", "M9", "M5"})
    EXPECT_NE(std::find(g.summary.ignored.begin(), g.summary.ignored.end(), w), g.summary.ignored.end()) << w;
  // tile.stl: a 20 x 20 x 1 tile sliced by slic3r at 0.3 mm layers, centred on its bed at (100, 100).
  g = read_gcode(dir / "tile.gcode", 0.5f);
  EXPECT_EQ(g.summary.arcs, 0u);
  EXPECT_EQ(g.positions.front().tip, glm::vec3(0, 0, 0)) << "G28: home";
  size_t on_tile = 0;
  std::set<float> layers;
  for (auto& p : g.positions)
    if (p.tip.z > 0 && p.tip.z < 1.01f && std::fabs(p.tip.x - 100) <= 10.5f && std::fabs(p.tip.y - 100) <= 10.5f)
      ++on_tile, layers.insert(p.tip.z);
  EXPECT_GT(on_tile, g.positions.size() / 2) << "most of the path prints the tile";
  EXPECT_EQ(layers, (std::set<float>{0.3f, 0.6f, 0.9f}));
  EXPECT_NE(std::find(g.summary.ignored.begin(), g.summary.ignored.end(), "E"), g.summary.ignored.end());
}
