// render/: the offscreen capture shows exactly the colour map of the field.
#include "compute/diffusion/diffusion.h"
#include "render/heatmap_view.h"
#include "render/target.h"
#include "render/wave/water_view.h"
#include "tests/helpers.h"

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

// The wave's top view (shaded by a compute pass, then copied into the frame): through still
// water every pixel of the water's rectangle is the pool floor, bilinear from its image at
// the pixel's place, lit along the normal (0, 0, 1) as shaders/wave/water.glsl lights it;
// a bump in the middle moves the floor under it and leaves the far corners as they were;
// pixels whose centre is off the water keep the background.
TEST_F(Render, WaterTopViewIsTheLitFloorThroughStillWater) {
  const std::string floor_path = std::string(VKLAB_SOURCE_ASSET_DIR) + "/wave/pool.png";
  const Picture floor = load_picture(floor_path);
  ASSERT_FALSE(floor.empty());
  const int fw = floor.w, fh = floor.h;
  auto texel = [&](int x, int y, int c) {
    return floor.rgba[(size_t(std::clamp(y, 0, fh - 1)) * fw + std::clamp(x, 0, fw - 1)) * 4 + c] / 255.0f;
  };
  const uint32_t gw = 40, gh = 30, W = 221, H = 152;  // the rectangle starts 0.83 px into a pixel
  render::WaterView view(ctx(), floor_path);
  render::OffscreenTarget target(ctx(), W, H);
  render::WaterStyle style;
  gpu::Buffer heights(ctx(), gw * gh * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  auto picture = [&](const std::vector<float>& h) {
    heights.upload(h);
    const float bg[4] = {0, 0, 0, 1};
    ctx().submit_now([&](VkCommandBuffer cmd) {
      view.shade_top(cmd, target.frame(), heights, gw, gh, style);
      render::begin_rendering(cmd, target.frame(), bg);
      view.draw_top(cmd, target.frame());
      render::end_rendering(cmd);
    });
    return target.read_rgba();
  };
  auto still = picture(std::vector<float>(gw * gh, 0.0f));
  glm::vec3 to_light = glm::normalize(glm::vec3(style.light.x, style.light.z, style.light.y));
  float diffuse = std::max(to_light.z, 0.0f);
  float spec = std::pow(std::max(glm::normalize(to_light + glm::vec3(0, 0, 1)).z, 0.0f), 120.0f);
  auto r = render::fit_rect(target.frame().area, gw, gh);
  uint32_t checked = 0;
  for (uint32_t y = 0; y < H; ++y)
    for (uint32_t x = 0; x < W; ++x) {
      float u = (x + 0.5f - r.x) / r.w, v = (y + 0.5f - r.y) / r.h;
      if (u < 0 || v < 0 || u > 1 || v > 1) {  // off the water: the background
        for (int c = 0; c < 3; ++c) ASSERT_EQ(still[(size_t(y) * W + x) * 4 + c], 0) << "pixel " << x << "," << y;
        continue;
      }
      float px = u * fw - 0.5f, py = v * fh - 0.5f;
      int ix = int(std::floor(px)), iy = int(std::floor(py));
      float fx = px - ix, fy = py - iy;
      for (int c = 0; c < 3; ++c) {
        float top = texel(ix, iy, c) * (1 - fx) + texel(ix + 1, iy, c) * fx;
        float bottom = texel(ix, iy + 1, c) * (1 - fx) + texel(ix + 1, iy + 1, c) * fx;
        float want = std::min(1.0f, (top * (1 - fy) + bottom * fy) * (0.5f + 0.5f * diffuse) + 0.8f * spec);
        ASSERT_NEAR(still[(size_t(y) * W + x) * 4 + c], want * 255.0f, 2.0f) << "pixel " << x << "," << y;
      }
      ++checked;
    }
  EXPECT_GT(checked, uint32_t(0.9 * r.w * r.h));
  std::vector<float> bump(gw * gh);
  for (uint32_t y = 0; y < gh; ++y)
    for (uint32_t x = 0; x < gw; ++x)
      bump[y * gw + x] = 2.0f * std::exp(-(std::pow(x - 20.0f, 2.0f) + std::pow(y - 15.0f, 2.0f)) / 16.0f);
  auto moved = picture(bump);
  auto differs = [&](uint32_t x, uint32_t y) {
    size_t at = (size_t(y) * W + x) * 4;
    return std::abs(moved[at] - still[at]) + std::abs(moved[at + 1] - still[at + 1]) +
               std::abs(moved[at + 2] - still[at + 2]) >
           6;
  };
  uint32_t around = 0, corners = 0;
  for (uint32_t y = 0; y < H; ++y)
    for (uint32_t x = 0; x < W; ++x) {
      float gx = (x + 0.5f - r.x) / r.w * gw, gy = (y + 0.5f - r.y) / r.h * gh;
      float d = std::hypot(gx - 20.5f, gy - 15.5f);
      if (d < 6) around += differs(x, y);
      if (d > 16 && gx > 0 && gy > 0 && gx < gw && gy < gh) corners += differs(x, y);
    }
  EXPECT_GT(around, 100u);
  EXPECT_EQ(corners, 0u);
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
