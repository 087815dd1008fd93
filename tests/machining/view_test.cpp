// The machining viewer (seed 003 ch. 16, §15.4.2, §15.5): the per-brin fields (a comparison in
// ulps, the Laplacian, the zoom's preview), the displays run headless with their comparisons
// dumped, a click that re-mills a window and a drag that pans, and the fast-math kernels built
// without NoContraction.
#include "app/core/lab.h"
#include "compute/machining/stats.h"
#include "tests/helpers.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <numeric>

using namespace machining;

namespace {

TEST(MachiningView, FieldsAreTheirFormulas) {
  Stock s;
  s.nx = 20, s.ny = 16, s.d = 0.5f, s.x0 = -3, s.y0 = 1;
  std::vector<float> h(size_t(s.nx) * s.ny), lin(h.size());
  for (uint32_t j = 0; j < s.ny; ++j)
    for (uint32_t i = 0; i < s.nx; ++i) {
      float x = s.x0 + float(i) * s.d, y = s.y0 + float(j) * s.d;
      h[j * s.nx + i] = 0.25f * (x * x + y * y);  // Laplacian 1
      lin[j * s.nx + i] = 2 * x - 3 * y + 1;      // bilinear interpolation is exact
    }
  auto l = laplacian(s, h);
  for (uint32_t j = 0; j < s.ny; ++j)
    for (uint32_t i = 0; i < s.nx; ++i) {
      bool border = i == 0 || j == 0 || i + 1 == s.nx || j + 1 == s.ny;
      EXPECT_NEAR(l[j * s.nx + i], border ? 0.0f : 1.0f, 1e-4f) << i << ", " << j;
    }
  Stock z = s;  // a window 2x finer in the middle, as a zoom click makes
  z.d = s.d / 2, z.x0 = s.x0 + 0.25f * float(s.nx - 1) * s.d, z.y0 = s.y0 + 0.25f * float(s.ny - 1) * s.d;
  auto r = resample(s, lin, z);
  for (uint32_t j = 0; j < z.ny; ++j)
    for (uint32_t i = 0; i < z.nx; ++i) {
      float x = z.x0 + float(i) * z.d, y = z.y0 + float(j) * z.d;
      ASSERT_NEAR(r[j * z.nx + i], 2 * x - 3 * y + 1, 1e-4f) << i << ", " << j;
    }
  // ulps of max(|reference|, 1), the ulp above it: +1 at 1, −2 at 4, equal, and a far one in the tail
  std::vector<float> a = {std::nextafter(1.0f, 2.0f), 4.0f - 8 * FLT_EPSILON, 0.5f, 100.0f};
  std::vector<double> ref = {1.0, 4.0, 0.5, 90.0};
  auto c = compare_ulps(a, ref);
  EXPECT_FLOAT_EQ(c.ulps[0], 1.0f);
  EXPECT_FLOAT_EQ(c.ulps[1], -2.0f);
  EXPECT_EQ(c.ulps[2], 0.0f);
  EXPECT_EQ(c.differing, 3u);
  EXPECT_EQ(c.histogram[UlpComparison::kSpan + 2], 1u);  // +1
  EXPECT_EQ(c.histogram[UlpComparison::kSpan - 1], 1u);  // −2
  EXPECT_EQ(c.histogram[UlpComparison::kSpan + 1], 1u);  // 0
  EXPECT_EQ(c.histogram.back(), 1u);                     // beyond +8
  EXPECT_NEAR(c.max_abs, 10.0, 1e-9);
}

TEST(Cli, MachiningDisplaysCompareAndDump) {
  auto dir = scratch("machining-view");
  auto run = [&](const std::string& sets, const std::string& out) {
    auto r = run_process(
        vklab_args("--headless --validate --lab machining --set stock_size=64 --set "
                   "path_positions=400 --set positions_per_frame=100 --steps 6 " +
                   sets + " --capture " + (dir / (out + ".png")).string() + " --dump " + (dir / out).string()));
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
    return nlohmann::json::parse(std::ifstream(dir / out / "params.json"))["state"];
  };
  auto total = [](const nlohmann::json& c) {
    auto h = c["histogram_ulps"].get<std::vector<uint64_t>>();
    return std::accumulate(h.begin(), h.end(), uint64_t(0));
  };
  // single − double (§15.4.2): the rounding moves some brins by an ulp or two, never far
  auto e = run("--set display=error", "error");
  ASSERT_TRUE(e["comparison"].contains("with")) << e.dump();
  EXPECT_EQ(e["comparison"]["with"], "precision");
  EXPECT_GT(e["comparison"]["brins_differing"].get<uint64_t>(), 10u);
  EXPECT_LT(e["comparison"]["max_ulps"].get<double>(), 8.0);
  EXPECT_EQ(total(e["comparison"]), 64u * 64u);
  EXPECT_TRUE(std::filesystem::exists(dir / "error" / "compared_ulps.npy"));
  // the fine engine against the CPU engine: bit for bit where divisions round correctly
  auto c = run("--set display=engines --set compare_engine=cpu", "engines");
  EXPECT_EQ(c["comparison"]["with"], "cpu");
  EXPECT_EQ(c["comparison"]["brins_differing"], 0) << c.dump();
  // the hardware rasterizer snaps vertices to its sub-pixel grid: it differs
  auto hw = run("--set display=engines --set compare_engine=hardware", "hardware");
  EXPECT_GT(hw["comparison"]["brins_differing"].get<uint64_t>(), 10u) << hw.dump();
  // fast math on this device: the same surface within a few ulps of the tool's size
  auto f = run("--set display=engines --set compare_engine=fine --set arithmetic=fast", "fast");
  EXPECT_EQ(f["arithmetic"], "fast");
  EXPECT_LT(f["comparison"]["max_ulps"].get<double>(), 64.0) << f.dump();
  auto l = run("--set display=laplacian --set colormap=gray", "laplacian");
  EXPECT_TRUE(l["comparison"].is_null());
  EXPECT_GT(l["brins_cut"].get<uint64_t>(), 500u);
  EXPECT_LT(l["min_height"].get<double>(), -0.9);
  EXPECT_EQ(l["max_height"], 0.0);
  EXPECT_NEAR(l["mean_depth"].get<double>() * l["brins_cut"].get<double>() * 0.25 * 0.25,
              l["removed_volume"].get<double>(), 1e-6 * l["removed_volume"].get<double>());
}

// SPIR-V words: how many OpDecorate … NoContraction (opcode 71, decoration 42) a module holds.
size_t no_contractions(const std::vector<uint32_t>& spv) {
  size_t n = 0;
  for (size_t i = 5; i < spv.size();) {
    uint32_t words = spv[i] >> 16, op = spv[i] & 0xffff;
    if (words == 0) break;
    if (op == 71 && i + 2 < spv.size() && spv[i + 2] == 42) ++n;
    i += words;
  }
  return n;
}

class MachiningViewGpu : public GpuTest {};

TEST_F(MachiningViewGpu, FastMathKernelsHaveNoNoContraction) {
  for (const char* k : {"machining/fine", "machining/per_brin"}) {
    EXPECT_GT(no_contractions(gpu::load_spirv(ctx(), std::string(k) + ".f32x")), 20u) << k;
    EXPECT_EQ(no_contractions(gpu::load_spirv(ctx(), std::string(k) + ".f32fast")), 0u) << k;
  }
}

// A left click re-mills a window twice as fine centred where it points; a drag pans instead.
TEST_F(MachiningViewGpu, AClickZoomsThereAndADragPans) {
  auto lab = make_lab("machining");
  lab->params().set("stock_size", "32");
  lab->params().set("path_positions", "50");
  lab->build(ctx());
  render::Frame frame;
  frame.extent = {800, 600};
  frame.area = {{0, 0}, {800, 600}};
  auto pointer = [&](float x, float y, bool left) {
    Pointer p;
    p.x = x, p.y = y, p.left = left;
    lab->pointer(p, frame);
  };
  pointer(400, 300, true);  // a drag: pans, no zoom
  pointer(450, 320, true);
  pointer(500, 340, true);
  pointer(500, 340, false);
  EXPECT_EQ(lab->params().get("zoom"), 1.0);
  EXPECT_FALSE(lab->params().rebuild_pending);
  pointer(400, 300, true);  // a click at the centre: the point the pan brought there
  pointer(400, 300, false);
  EXPECT_EQ(lab->params().get("zoom"), 2.0);
  EXPECT_TRUE(lab->params().rebuild_pending);
  double zx = lab->params().get("zoom_x"), zy = lab->params().get("zoom_y");
  EXPECT_TRUE(std::fabs(zx - 0.5) > 0.02 || std::fabs(zy - 0.5) > 0.02) << zx << ", " << zy;
  EXPECT_GT(zx, 0.0);
  EXPECT_LT(zx, 1.0);
  lab->build(ctx());  // the window re-milled from the start, the old surface shown meanwhile
  auto state = lab->dump(scratch("machining-zoom"));
  EXPECT_EQ(state["positions_done"], 0);
  EXPECT_TRUE(state["zoom_preview"].get<bool>());
}

}  // namespace
