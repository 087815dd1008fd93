// The legend drawn into the picture: laid out in the picture's bottom-left corner, a box
// under lines of text and a colour bar in the lab's colour map; headless captures carry it
// (and leave it out with --no-legend) while the rest of the picture is unchanged.
#include "colormap.h"
#include "helpers.h"
#include "legend.h"

#include <stb_image.h>

#include <cstring>

namespace {
struct Vertex {
  float x, y, z, w, r, g, b, a;
};
std::vector<Vertex> vertices(const render::Legend& l, VkRect2D area, float scale) {
  auto f = render::legend_vertices(l, area, scale);
  std::vector<Vertex> v(f.size() / 8);
  std::memcpy(v.data(), f.data(), v.size() * sizeof(Vertex));
  return v;
}
}  // namespace

TEST(Legend, SitsInTheBottomLeftWithABoxTextAndTheColourBar) {
  render::Legend l{{"Heat diffusion", "step 120"}, render::LegendBar{"heat", 0, 2, "temperature"}};
  VkRect2D area{{300, 0}, {900, 600}};
  auto v = vertices(l, area, 2);
  ASSERT_EQ(v.size() % 6, 0u);
  ASSERT_GT(v.size(), 6u * 40);  // box, letters, 32 bar segments
  // the box comes first and holds every other vertex
  float x0 = v[0].x, y0 = v[0].y, x1 = v[4].x, y1 = v[4].y;
  EXPECT_NEAR(v[0].a, 0.6f, 1e-6);
  EXPECT_GE(x0, 300.0f);
  EXPECT_LE(y1, 600.0f);
  EXPECT_LT(x1, 300.0f + 450);  // the left half
  EXPECT_GT(y0, 300.0f);        // the bottom half
  for (auto& p : v) {
    EXPECT_GE(p.x, x0);
    EXPECT_LE(p.x, x1);
    EXPECT_GE(p.y, y0);
    EXPECT_LE(p.y, y1);
  }
  // the bar's two ends have the colour map's end colours
  auto table = render::colormap_table("heat");
  bool low = false, high = false;
  for (auto& p : v) {
    low |= std::abs(p.r - table[0][0]) < 1e-6 && std::abs(p.g - table[0][1]) < 1e-6 && p.a == 1;
    high |= std::abs(p.r - table[255][0]) < 1e-6 && std::abs(p.b - table[255][2]) < 1e-6 && p.a == 1;
  }
  EXPECT_TRUE(low && high);
  // without a bar: fewer triangles; non-ASCII letters are spelled in ASCII, not dropped
  EXPECT_LT(vertices({{"Heat diffusion", "step 120"}, {}}, area, 2).size(), v.size());
  EXPECT_EQ(vertices({{"Da Graça"}, {}}, area, 1).size(), vertices({{"Da Graca"}, {}}, area, 1).size());
}

TEST(Legend, HeadlessCapturesCarryItAndNoLegendLeavesItOut) {
  auto dir = scratch("legend");
  auto with = dir / "with.png", without = dir / "without.png";
  for (auto [png, flag] : {std::pair{with, ""}, {without, " --no-legend"}}) {
    auto r = run_process(
        vklab_args("--headless --validate --lab diffusion --steps 5 --size 640x400 --capture " + png.string() + flag));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  }
  int w = 0, h = 0, n = 0, w2 = 0, h2 = 0;
  unsigned char* a = stbi_load(with.c_str(), &w, &h, &n, 4);
  unsigned char* b = stbi_load(without.c_str(), &w2, &h2, &n, 4);
  ASSERT_TRUE(a && b);
  ASSERT_EQ(w, w2);
  size_t changed_corner = 0, changed_elsewhere = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      size_t i = (size_t(y) * w + x) * 4;
      bool differs = std::memcmp(a + i, b + i, 3) != 0;
      (x < w / 2 && y > h / 2 ? changed_corner : changed_elsewhere) += differs;
    }
  stbi_image_free(a);
  stbi_image_free(b);
  EXPECT_GT(changed_corner, 2000u) << "the legend's box, text and bar";
  EXPECT_EQ(changed_elsewhere, 0u);
}

// A chart: the image in chart_rect (its cells square unless told, room left for labels and
// below for the legend); y tick labels to the left of their row, x tick labels under their
// column, notes centred on their cell, the title above.
TEST(Chart, LabelsSitAroundTheImageAndNotesOnIt) {
  render::Chart c;
  c.grid_w = 20, c.grid_h = 10, c.cell_aspect = 2;
  c.title = "title";
  c.y_ticks = {{0.5f, "top row"}, {9.5f, "last"}};
  c.x_ticks = {{0.0f, "0"}, {20.0f, "20"}};
  c.notes = {{15.0f, 5.0f, "note"}};
  VkRect2D area{{100, 0}, {1000, 800}};
  auto r = render::chart_rect(area, c);
  EXPECT_NEAR(r.h / r.w, 10.0 * 2 / 20, 1e-4);
  EXPECT_GT(r.x, 100.0f + 50);
  EXPECT_LT(r.x + r.w, 1100.0f);
  EXPECT_GT(r.y, 40.0f);
  EXPECT_LT(r.y + r.h, 800.0f - 150);  // the legend's room
  render::TextMesh m;
  render::chart_vertices(m, c, area, 2);
  ASSERT_EQ(m.v.size() % (6 * 8), 0u);
  float cw = r.w / 20, ch = r.h / 10;
  // Sort every triangle's vertices into the regions they fall in.
  size_t left = 0, below = 0, above = 0, on_note = 0, elsewhere = 0;
  for (size_t i = 0; i < m.v.size(); i += 8) {
    float x = m.v[i], y = m.v[i + 1];
    if (x <= r.x && y >= r.y && y <= r.y + r.h)
      ++left;
    else if (y >= r.y + r.h && y < r.y + r.h + 60)
      ++below;
    else if (y < r.y)
      ++above;
    else if (std::abs(x - (r.x + 15 * cw)) < 30 && std::abs(y - (r.y + 5 * ch)) < 12)
      ++on_note;
    else
      ++elsewhere;
  }
  EXPECT_GT(left, 6u * 8);     // "top row", "last" and their marks
  EXPECT_GT(below, 6u * 2);    // "0", "20" and their marks
  EXPECT_GT(above, 6u * 5);    // "title"
  EXPECT_GT(on_note, 6u * 4);  // "note" and its shade
  EXPECT_EQ(elsewhere, 0u);
  // The legend carries the chart: more triangles with it than without.
  render::Legend with{{"lab"}, {}, c}, without{{"lab"}, {}};
  EXPECT_EQ(vertices(with, area, 2).size(), vertices(without, area, 2).size() + m.v.size() / 8);
}
