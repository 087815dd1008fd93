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
