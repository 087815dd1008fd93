// The max and min of a vector (Bleton 2005, §2.4.2, figure 2.10): the thesis's 4:1 passes and
// today's one-pass reduction against the CPU on random non-zero values of both signs, all
// negative and all positive, at lengths that are not powers of 4 (the padding matters); the
// pass count against its formula; the thesis's zero padding as the mistake it is.
#include "compute/linalg/extreme.h"
#include "compute/linalg/ops.h"
#include "tests/helpers.h"

#include <nlohmann/json.hpp>

#include <fstream>

using namespace linalg;

namespace {

// sign 0: both signs (every third value negated); -1, +1: all of that sign.
std::vector<float> extreme_test_values(uint32_t n, int sign, uint32_t seed) {
  auto v = random_floats(n, 0.5f, 2.0f, seed);
  for (size_t i = 0; i < v.size(); ++i)
    if (sign < 0 || (sign == 0 && i % 3 == 0)) v[i] = -v[i];
  return v;
}

}  // namespace

TEST(LinalgExtremePasses, CountIsMaxOneCeilLog4N) {
  // smallest p >= 1 with 4^p >= n, written out
  std::vector<std::pair<uint32_t, uint32_t>> known = {
      {1, 1},    {3, 1},    {4, 1},    {5, 2},     {16, 2},    {17, 3},        {1000, 5},
      {1024, 5}, {1025, 6}, {1600, 6}, {16384, 7}, {16385, 8}, {1u << 24, 12}, {(1u << 24) + 1, 13}};
  for (auto [n, p] : known) EXPECT_EQ(extreme_pass_count(n), p) << n;
  for (Layout layout : {Layout::Texture, Layout::Buffer})
    for (uint32_t n = 1; n < 5000; n += (n < 300 ? 1 : 37)) {
      auto passes = extreme_passes(layout, n);
      ASSERT_EQ(passes.size(), extreme_pass_count(n)) << layout_name(layout) << " " << n;
      uint32_t quads = (n + 3) / 4;
      if (layout == Layout::Texture) quads = texture_side(quads) * texture_side(quads);
      EXPECT_EQ(passes[0].in_quads, quads);
      for (size_t i = 0; i + 1 < passes.size(); ++i) {
        // 4 values read for each one written, the next pass reading what this one wrote
        if (layout == Layout::Texture) {
          EXPECT_EQ(passes[i].in_quads, 4 * passes[i].out_quads);
          EXPECT_EQ(passes[i].out_side, passes[i].in_side / 2);
        } else {
          EXPECT_EQ(passes[i].out_quads, (passes[i].in_quads + 3) / 4);
        }
        EXPECT_EQ(passes[i + 1].in_quads, passes[i].out_quads);
      }
      EXPECT_EQ(passes.back().in_quads, 1u);  // the last texel's 4 values -> the scalar
      EXPECT_EQ(passes.back().out_quads, 0u);
    }
  // The thesis: "n - 1 passes for a texture of dimension 2^n", 2^n the side of the square of
  // values (4 a texel): a 64x64-texel vector is 128x128 values, 6 passes to one texel, and ours
  // adds the seventh that combines its 4 channels (the thesis's CPU did).
  EXPECT_EQ(extreme_passes(Layout::Texture, 64 * 64 * 4).size(), 7u);
  EXPECT_EQ(describe_pass(extreme_passes(Layout::Texture, 64 * 64 * 4)[0], Layout::Texture),
            "64x64 texels -> 32x32 texels");
}

class LinalgExtreme : public GpuTest, public ::testing::WithParamInterface<Layout> {};

// Both forms, max and min, against the CPU exactly (a max rounds nothing), with the identity as
// padding, at lengths with a partial last quad, a partial texture and partial 4:1 groups.
TEST_P(LinalgExtreme, BothFormsEqualTheCpuAtEverySizeAndSign) {
  Layout layout = GetParam();
  Ops ops(ctx(), layout);
  for (uint32_t n : {1u, 3u, 5u, 17u, 1000u, 4099u, 70001u})
    for (int sign : {0, -1, 1}) {
      auto xs = extreme_test_values(n, sign, n + 7 * uint32_t(sign + 1));
      Vec x(ctx(), n, layout);
      x.upload(xs);
      uint32_t dispatches[4] = {};
      ctx().submit_now([&](VkCommandBuffer cmd) {
        dispatches[0] = ops.extreme(cmd, Variant::Thesis, Extreme::Max, x, 0);
        dispatches[1] = ops.extreme(cmd, Variant::Thesis, Extreme::Min, x, 1);
        dispatches[2] = ops.extreme(cmd, Variant::Modern, Extreme::Max, x, 2);
        dispatches[3] = ops.extreme(cmd, Variant::Modern, Extreme::Min, x, 3);
      });
      std::string what = std::string(layout_name(layout)) + " n " + std::to_string(n) + " sign " + std::to_string(sign);
      float mx = extreme_cpu(Extreme::Max, xs), mn = extreme_cpu(Extreme::Min, xs);
      EXPECT_EQ(ops.scalars().get(0), mx) << "thesis max, " << what;
      EXPECT_EQ(ops.scalars().get(1), mn) << "thesis min, " << what;
      EXPECT_EQ(ops.scalars().get(2), mx) << "modern max, " << what;
      EXPECT_EQ(ops.scalars().get(3), mn) << "modern min, " << what;
      EXPECT_EQ(dispatches[0], extreme_pass_count(n)) << what;
      EXPECT_EQ(dispatches[1], extreme_pass_count(n)) << what;
      EXPECT_EQ(dispatches[2], 1u) << what;
      if (sign < 0) {
        EXPECT_LT(mx, 0.0f);  // the case zero padding gets wrong
      }
      if (sign > 0) {
        EXPECT_GT(mn, 0.0f);
      }
    }
}

// The thesis padded with zeros: right when the values fill 4^passes (a whole texture), 0 for
// the max of an all-negative vector (the min of an all-positive one) when they do not. The
// one-pass form makes the same mistake when its invocations start from 0 instead of -inf.
TEST_P(LinalgExtreme, ZeroPaddingSpoilsTheMaxOfNegativeValues) {
  Layout layout = GetParam();
  Ops ops(ctx(), layout);
  for (uint32_t n : {1000u, 1024u}) {  // 1024 = 4^5: no padding at all
    auto neg = extreme_test_values(n, -1, 3), pos = extreme_test_values(n, 1, 4);
    Vec xn(ctx(), n, layout), xp(ctx(), n, layout);
    xn.upload(neg);
    xp.upload(pos);
    ctx().submit_now([&](VkCommandBuffer cmd) {
      ops.extreme(cmd, Variant::Thesis, Extreme::Max, xn, 0, true);
      ops.extreme(cmd, Variant::Thesis, Extreme::Min, xp, 1, true);
      ops.extreme(cmd, Variant::Modern, Extreme::Max, xn, 2, true);
      ops.extreme(cmd, Variant::Thesis, Extreme::Max, xn, 3, false);
    });
    EXPECT_EQ(ops.scalars().get(0), extreme_zero_padded_cpu(Extreme::Max, neg)) << n;
    EXPECT_EQ(ops.scalars().get(1), extreme_zero_padded_cpu(Extreme::Min, pos)) << n;
    EXPECT_EQ(ops.scalars().get(3), extreme_cpu(Extreme::Max, neg)) << n;
    EXPECT_EQ(ops.scalars().get(2), 0.0f) << n;  // 0 beats every negative value, padding or not
    if (n == 1000) {
      EXPECT_EQ(ops.scalars().get(0), 0.0f);
      EXPECT_EQ(ops.scalars().get(1), 0.0f);
    } else {
      EXPECT_EQ(ops.scalars().get(0), extreme_cpu(Extreme::Max, neg));
      EXPECT_EQ(ops.scalars().get(1), extreme_cpu(Extreme::Min, pos));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, LinalgExtreme, ::testing::Values(Layout::Texture, Layout::Buffer),
                         [](auto& info) { return std::string(layout_name(info.param)); });

// The lab end to end, headless: the result and its check printed, the passes listed, the dump;
// zero padding on an all-negative vector caught as wrong.
TEST(LinalgExtremeCli, HeadlessPrintsTheResultThePassesAndTheCheck) {
  auto dir = scratch("linalg-extreme");
  for (std::string padding : {"identity", "zero"}) {
    auto state = dir / padding;
    auto r = run_process(vklab_args(
        "--headless --validate --lab linalg --set operator=max --set variant=thesis --set layout=texture --set side=20 "
        "--set data=negative --set padding=" +
        padding + " --steps 2 --size 320x200 --dump " + state.string()));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
    // side 20: 1600 values in 400 of a 32x32 texture's texels: 5 passes to one texel, one to the scalar
    EXPECT_NE(r.out.find("6 passes (the thesis's 4:1)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("pass 1: 32x32 texels -> 16x16 texels"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("pass 6: 1 texel (4 values) -> 1 value"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("passes = max(1, ceil(log4 n)) = 6 for n = 1600"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(padding == "zero" ? ": WRONG;" : ": exact;"), std::string::npos) << r.out;
    nlohmann::json j = nlohmann::json::parse(std::ifstream(state / "params.json"));
    auto& s = j["state"];
    EXPECT_EQ(s["passes"], 6) << s.dump();
    EXPECT_EQ(s["pass_formula"], 6) << s.dump();
    EXPECT_LT(s["cpu"].get<double>(), 0.0) << s.dump();
    if (padding == "zero") {
      EXPECT_EQ(s["scalar"].get<double>(), 0.0) << s.dump();
      EXPECT_GT(s["relative_error_vs_cpu"].get<double>(), 0.0) << s.dump();
    } else {
      EXPECT_EQ(s["scalar"].get<double>(), s["cpu"].get<double>()) << s.dump();
      EXPECT_EQ(s["relative_error_vs_cpu"].get<double>(), 0.0) << s.dump();
    }
  }
  auto r = run_process(vklab_args(
      "--headless --validate --lab linalg --set operator=min --set variant=modern --set layout=buffer --set side=20 "
      "--set data=random --steps 2 --size 320x200"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("min x = "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(": exact; 1 dispatch (one pass)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("one dispatch: 2 workgroups of 256 walk the 400 quads"), std::string::npos) << r.out;
}

// The same in the window (its panel lists the passes every frame): the thesis's max of an
// all-negative vector runs without a validation message and draws x in the cold colours only.
TEST(LinalgExtremeWindow, TheThesisMaxDrawsItsNegativeVector) {
  if (run_process("command -v xvfb-run").code != 0) GTEST_SKIP() << "xvfb-run is not installed";
  auto png = scratch("linalg-extreme-window") / "max.png";
  auto r = run_process("xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() +
                       " --validate --preset linalg/max-thesis --frames 20 --size 900x600 --capture " + png.string());
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto pic = load_picture(png);
  ASSERT_FALSE(pic.empty());
  size_t red = 0, blue = 0;  // coolwarm: negative values blue, none red (the colour bar's red end aside)
  pic.each(0, 0, pic.w, pic.h / 2, [&](const unsigned char* p) {  // the upper half: above the legend
    red += p[0] > 150 && p[2] < 100;
    blue += p[2] > 150 && p[0] < 150;
  });
  EXPECT_EQ(red, 0u);
  EXPECT_GT(blue, 5000u);
}
