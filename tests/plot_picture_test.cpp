// A plot as a picture of its own (the panel's PNG button, headless --plot NAME=FILE.png): the
// run's size, the line drawn in the plot's colour inside its frame, text in the pictures' font,
// the data beside it as CSV; an unknown plot or a malformed --plot is refused with a word.
#include "render/plot_picture.h"
#include "tests/helpers.h"

#include <fstream>
#include <set>

namespace fs = std::filesystem;

TEST(PlotPicture, LaysOutTheLineInsideItsFrameWithLabels) {
  render::PlotPicture p{"Wave - Bleton 2005", "step", "energy E", false, {}, {3, 1, 4, 1, 5, 9, 2, 6}};
  render::TextMesh m;
  render::plot_vertices(m, p, {{0, 0}, {1280, 800}}, render::picture_text_scale(800));
  ASSERT_GT(m.v.size(), 8u * 6 * 20);  // frame, grid, ticks, labels, 7 segments
  size_t textured = 0;
  for (size_t i = 0; i < m.v.size(); i += 8) {
    EXPECT_GE(m.v[i], 0.0f);
    EXPECT_LE(m.v[i], 1280.0f);
    EXPECT_GE(m.v[i + 1], 0.0f);
    EXPECT_LE(m.v[i + 1], 800.0f);
    textured += m.v[i + 2] >= 0;
  }
  EXPECT_GT(textured, 6u * 30) << "the title, labels and ticks are letters from the atlas";
  render::TextMesh tiny;  // too small to hold a plot: nothing rather than a garbled one
  render::plot_vertices(tiny, p, {{0, 0}, {40, 30}}, 2);
  EXPECT_TRUE(tiny.v.empty());
}

TEST(PlotPicture, HeadlessWritesThePlotAndItsCsv) {
  auto dir = scratch("plot-picture");
  auto png = dir / "energy.png";
  auto r = run_process(vklab_args(
      "--headless --lab wave --steps 30 --size 1280x720 --plot wave-energy=" + png.string() + " --validate"));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto pic = load_picture(png);
  ASSERT_FALSE(pic.empty());
  EXPECT_EQ(pic.w, 1280);
  EXPECT_EQ(pic.h, 720);
  size_t line = 0;
  std::set<int> greys;
  pic.each(0, 0, pic.w, pic.h, [&](const unsigned char* p) {
    line += p[0] > 90 && p[0] < 130 && p[1] > 170 && p[1] < 210 && p[2] > 240;               // the plot's blue
    if (p[0] == p[1] && p[2] >= p[0] && p[2] <= p[0] + 12 && p[0] > 40) greys.insert(p[0]);  // the letters' grey
  });
  EXPECT_GT(line, 500u) << "the energy line";
  EXPECT_GT(greys.size(), 20u) << "anti-aliased letters";
  std::ifstream csv(dir / "energy.csv");
  std::string header, row;
  std::getline(csv, header);
  EXPECT_EQ(header, "step,energy E (per step)");
  size_t rows = 0;
  while (std::getline(csv, row)) ++rows;
  EXPECT_EQ(rows, 30u);
}

TEST(PlotPicture, UnknownPlotsAndMalformedFlagsAreRefused) {
  auto dir = scratch("plot-picture-bad");
  auto r = run_process(vklab_args("--headless --lab wave --steps 2 --plot nothing=" + (dir / "x.png").string()));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no plot or table 'nothing'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("wave-energy"), std::string::npos) << "names the plots it has: " << r.err;
  r = run_process(vklab_args("--headless --lab wave --steps 2 --plot energy.png"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--plot takes NAME=FILE.png"), std::string::npos) << r.err;
}
