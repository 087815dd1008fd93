// render/: the offscreen capture shows exactly the colour map of the field.
#include "diffusion/diffusion.h"
#include "heatmap_view.h"
#include "helpers.h"
#include "target.h"

#include <cmath>

using Render = GpuTest;

namespace {

// The field drawn from the diffusion lab's buffer, or from an R32F image (the float lab's).
void expect_heatmap(gpu::Context& ctx, const std::string& colormap, bool smooth, bool from_image = false) {
  diffusion::Config c;
  c.width = 24;
  c.height = 16;
  diffusion::Simulation sim(ctx, c);
  auto field = random_floats(size_t(c.width) * c.height, -0.2f, 1.2f, 21);  // beyond [lo, hi] too
  field[5] = NAN;
  sim.upload(field);
  gpu::Image image(ctx, c.width, c.height, VK_FORMAT_R32_SFLOAT, VK_IMAGE_USAGE_STORAGE_BIT);
  image.upload(field);
  const uint32_t W = 200, H = 120;
  render::OffscreenTarget target(ctx, W, H);
  render::HeatmapView view(ctx);
  render::HeatmapStyle style{colormap, 0.0f, 1.0f, smooth};
  const float bg[4] = {0.25f, 0.5f, 0.75f, 1.0f};
  ctx.submit_now([&](VkCommandBuffer cmd) {
    render::begin_rendering(cmd, target.frame(), bg);
    if (from_image)
      view.draw(cmd, target.frame(), image, style);
    else
      view.draw(cmd, target.frame(), sim.field(), c.width, c.height, style);
    render::end_rendering(cmd);
  });
  auto px = target.read_rgba();
  auto table = render::colormap_table(colormap);
  auto rect = render::fit_rect(target.frame().area, c.width, c.height);
  for (uint32_t y = 0; y < c.height; ++y)
    for (uint32_t x = 0; x < c.width; ++x) {
      // the pixel whose centre is nearest the cell's centre
      int u = int(rect.x + (x + 0.5f) * rect.w / c.width), v = int(rect.y + (y + 0.5f) * rect.h / c.height);
      auto want = render::colormap_color(table, field[y * c.width + x], 0.0f, 1.0f);
      const uint8_t* got = &px[(size_t(v) * W + u) * 4];
      for (int k = 0; k < 3; ++k)
        ASSERT_NEAR(got[k], want[k] * 255.0f, 1.5f) << colormap << " cell " << x << "," << y << " channel " << k;
    }
  // outside the picture: the clear colour
  for (auto [u, v] : {std::pair{0, 0}, std::pair{int(W) - 1, int(H) - 1}, std::pair{int(rect.x) - 2, int(H) / 2}}) {
    const uint8_t* got = &px[(size_t(v) * W + u) * 4];
    // (0.25, 0.5, 0.75) in UNORM8: 0.5·255 = 127.5 rounds either way within Vulkan's precision
    EXPECT_NEAR(got[0], 64, 1);
    EXPECT_NEAR(got[1], 128, 1);
    EXPECT_NEAR(got[2], 191, 1);
  }
}

}  // namespace

TEST_F(Render, CaptureShowsTheColourMapOfEveryCell) {
  for (auto& name : render::colormap_names()) expect_heatmap(ctx(), name, false);
  expect_heatmap(ctx(), "heat", false, true);
}

// Bilinear smoothing passes through the cell values at cell centres... but sampling at
// the nearest pixel is not the exact centre, so only the nearest-cell mode is checked per
// cell; smoothing is checked to stay within the range of the 4 neighbours.
TEST_F(Render, SmoothModeStaysBetweenNeighbours) {
  diffusion::Config c;
  c.width = c.height = 8;
  diffusion::Simulation sim(ctx(), c);
  std::vector<float> ramp(64);
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) ramp[y * 8 + x] = x / 7.0f;
  sim.upload(ramp);
  render::OffscreenTarget target(ctx(), 160, 160);
  render::HeatmapView view(ctx());
  const float bg[4] = {0, 0, 0, 1};
  ctx().submit_now([&](VkCommandBuffer cmd) {
    render::begin_rendering(cmd, target.frame(), bg);
    view.draw(cmd, target.frame(), sim.field(), 8, 8, {"gray", 0.0f, 1.0f, true});
    render::end_rendering(cmd);
  });
  auto px = target.read_rgba();
  auto rect = render::fit_rect(target.frame().area, 8, 8);
  // a horizontal ramp drawn smoothly in gray: brightness rises monotonically across a row
  int v = int(rect.y + rect.h / 2), last = -1;
  for (int u = int(rect.x + rect.w / 16) + 1; u < int(rect.x + rect.w * 15 / 16) - 1; ++u) {
    int g = px[(size_t(v) * 160 + u) * 4];
    EXPECT_GE(g, last) << "pixel " << u;
    last = g;
  }
  EXPECT_GT(last, 200);
}

TEST(Colormap, TablesAreContinuousAndNamed) {
  for (auto& name : render::colormap_names()) {
    auto t = render::colormap_table(name);
    for (int i = 1; i < 256; ++i)
      for (int k = 0; k < 3; ++k) EXPECT_LT(std::fabs(t[i][k] - t[i - 1][k]), 0.02f) << name << " entry " << i;
  }
  EXPECT_THROW(render::colormap_table("rainbow"), std::invalid_argument);
  auto magenta = render::colormap_color(render::colormap_table("heat"), NAN, 0, 1);
  EXPECT_EQ(magenta, (render::Rgb{1, 0, 1}));
}
