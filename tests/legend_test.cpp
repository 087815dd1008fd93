// The legend drawn into the picture: laid out in a band of its own beside or under the lab's
// picture, a box under lines of text and a colour bar in the lab's colour map; headless
// captures carry it (and leave it out with --no-legend) and the lab's picture is drawn whole
// beside it. Its text is
// DejaVu Sans from a distance-field atlas: real glyphs for the labs' UTF-8 letters, anti-aliased,
// capitals tall enough to read when the capture is projected. The atlas is kept between runs.
#include "render/legend.h"
#include "render/colormap.h"
#include "tests/helpers.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

namespace {
struct Vertex {
  float x, y, u, v, r, g, b, a;  // position in pixels, atlas uv (-1: a solid quad), colour
};
std::vector<Vertex> vertices(const render::Legend& l, VkRect2D area, float scale) {
  auto f = render::legend_vertices(l, area, scale);
  std::vector<Vertex> v(f.size() / 8);
  std::memcpy(v.data(), f.data(), v.size() * sizeof(Vertex));
  return v;
}
// The glyph quads of `text` (6 vertices each; solid quads, u < 0, left out).
std::vector<Vertex> glyphs(const std::string& text) {
  render::TextMesh m;
  const float white[4] = {1, 1, 1, 1};
  m.text(0, 0, text, 2, white);
  std::vector<Vertex> v(m.v.size() / 8);
  std::memcpy(v.data(), m.v.data(), v.size() * sizeof(Vertex));
  return v;
}
}  // namespace

TEST(Legend, SitsInItsBandWithABoxTextAndTheColourBar) {
  render::Legend l{{"Heat diffusion", "step 120"}, render::LegendBar{"heat", 0, 2, "temperature"}};
  VkRect2D area{{300, 0}, {900, 600}};
  auto v = vertices(l, area, 2);
  ASSERT_EQ(v.size() % 6, 0u);
  ASSERT_GT(v.size(), 6u * 40);  // box, letters, 32 bar segments
  // the box comes first, solid (no atlas), and holds every other vertex, beside the picture
  float x0 = v[0].x, y0 = v[0].y, x1 = v[4].x, y1 = v[4].y;
  EXPECT_NEAR(v[0].a, 0.6f, 1e-6);
  EXPECT_LT(v[0].u, 0.0f);
  EXPECT_GE(x0, 300.0f);
  EXPECT_LE(y1, 600.0f);
  auto picture = render::legend_layout(l, area, 2).picture;
  EXPECT_GE(x0, float(picture.offset.x + int32_t(picture.extent.width)));  // 900 x 600: beside it
  EXPECT_EQ(picture.extent.height, 600u);
  EXPECT_GT(y0, 300.0f);  // at the band's bottom
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
  // letters sample the atlas, bar segments do not
  size_t textured = 0;
  for (auto& p : v) {
    if (p.u < 0) continue;
    ++textured;
    EXPECT_LE(p.u, 1.0f);
    EXPECT_GE(p.v, 0.0f);
    EXPECT_LE(p.v, 1.0f);
  }
  EXPECT_GT(textured, 6u * 20);
  // without a bar: fewer triangles; non-ASCII letters are drawn as letters, not dropped
  EXPECT_LT(vertices({{"Heat diffusion", "step 120"}, {}}, area, 2).size(), v.size());
  EXPECT_EQ(vertices({{"Da Graça"}, {}}, area, 1).size(), vertices({{"Da Graca"}, {}}, area, 1).size());
}

// The bar's values: three significant digits, and a floor that is noise (the diffusion's
// 9.43e-38 before this) written 0; a small value that is the bar's own stays.
TEST(Legend, TheBarsValuesAreWrittenToTheBarsScale) {
  EXPECT_EQ(render::bar_value(9.43e-38f, 9.43e-38f, 1.0f), "0");
  EXPECT_EQ(render::bar_value(-2e-9f, -2e-9f, 50.0f), "0");
  EXPECT_EQ(render::bar_value(0.5f, 9.43e-38f, 1.0f), "0.5");
  EXPECT_EQ(render::bar_value(1.0f, 9.43e-38f, 1.0f), "1");
  EXPECT_EQ(render::bar_value(2e-9f, 2e-9f, 4e-9f), "2e-09");  // a bar of tiny values keeps them
  EXPECT_EQ(render::bar_value(1234.5f, 0.0f, 2000.0f), "1.23e+03");
  EXPECT_EQ(render::bar_value(0.0f, 0.0f, 0.0f), "0");  // a flat field
}

// The labs' UTF-8 letters are the font's own glyphs: one quad each, from the atlas, none the
// '?' that stands for a letter the atlas lacks (nor the same as its ASCII look-alike).
TEST(Legend, DrawsTheLabsLettersAsTheirOwnGlyphs) {
  auto question = glyphs("?");
  ASSERT_EQ(question.size(), 6u);
  std::set<std::pair<float, float>> seen = {{question[0].u, question[0].v}};
  for (const char* letter : {"é", "è", "ç", "à", "ö", "²", "³", "·", "—", "–", "×", "°", "−", "±", "½", "§", "α",
                             "γ", "Δ", "λ", "ω", "π", "θ", "→", "⇒", "∇", "≈", "…", "⁻", "c", "e", "w", "x", "-"}) {
    auto g = glyphs(letter);
    ASSERT_EQ(g.size(), 6u) << letter;
    EXPECT_GE(g[0].u, 0.0f) << letter;
    EXPECT_TRUE(seen.insert({g[0].u, g[0].v}).second) << letter << " drawn as another letter";
    EXPECT_GT(render::TextMesh::width(letter), 0.0f) << letter;
  }
  // a letter the atlas lacks, and a broken UTF-8 sequence, are a '?'
  for (std::string odd : {"中", "\xC3"}) {
    auto g = glyphs(odd);
    ASSERT_EQ(g.size(), 6u);
    EXPECT_EQ(g[0].u, question[0].u);
    EXPECT_EQ(g[0].v, question[0].v);
  }
  // the text's height: capitals kHeight x scale from their top to the baseline
  auto h = glyphs("H");
  float top = h[0].y, bottom = h[0].y;
  for (auto& p : h) top = std::min(top, p.y), bottom = std::max(bottom, p.y);
  EXPECT_NEAR(bottom - top, 2 * render::TextMesh::kHeight, 2.5f) << "quads reach a pixel past the ink";
  EXPECT_GT(render::TextMesh::width("WWW"), render::TextMesh::width("iii"));  // proportional
}

// Text sized for the picture: capitals 1.8 % of its height, never under 13 pixels.
TEST(Legend, TextIsSizedForThePicture) {
  EXPECT_NEAR(render::picture_text_scale(800) * render::TextMesh::kHeight, 14.4f, 0.01f);
  EXPECT_NEAR(render::picture_text_scale(1080) * render::TextMesh::kHeight, 19.44f, 0.01f);
  EXPECT_NEAR(render::picture_text_scale(300) * render::TextMesh::kHeight, 13.0f, 0.01f);
  VkRect2D area{{0, 0}, {1920, 1080}};
  render::Legend l{{"Heat diffusion"}, {}};
  auto small = vertices(l, area, 1), big = vertices(l, area, 4);  // scale: at least, not at most
  float h_small = 0, h_big = 0;
  for (size_t i = 0; i < small.size(); ++i) h_small = std::max(h_small, small[i].y - small[0].y);
  for (size_t i = 0; i < big.size(); ++i) h_big = std::max(h_big, big[i].y - big[0].y);
  EXPECT_NEAR(h_small, render::legend_height(1, false, render::picture_text_scale(1080)), 1.0f);  // whole pixels
  EXPECT_NEAR(h_big, render::legend_height(1, false, 4), 1.0f);
}

TEST(Legend, HeadlessCapturesCarryItAndNoLegendLeavesItOut) {
  auto dir = scratch("legend");
  auto with = dir / "with.png", without = dir / "without.png";
  for (auto [png, flag] : {std::pair{with, ""}, {without, " --no-legend"}}) {
    auto r = run_process(
        vklab_args("--headless --validate --lab diffusion --steps 5 --size 1280x800 --capture " + png.string() + flag));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  }
  auto a = load_picture(with), b = load_picture(without);
  ASSERT_TRUE(!a.empty() && !b.empty());
  ASSERT_EQ(a.w, b.w);
  // The square grid keeps its size (the band takes the margin beside it): as many hot cells.
  size_t hot_a = 0, hot_b = 0, band_a = 0, band_b = 0;
  auto hot = [](const unsigned char* p) { return p[0] > 150 && p[0] > p[2]; };
  a.each(0, 0, a.w * 2 / 3, a.h, [&](const unsigned char* p) { hot_a += hot(p); });  // the bar's colours apart
  b.each(0, 0, b.w, b.h, [&](const unsigned char* p) { hot_b += hot(p); });
  EXPECT_GT(hot_b, 2000u);
  EXPECT_NEAR(double(hot_a), double(hot_b), 0.02 * double(hot_b)) << "the picture beside the legend is drawn whole";
  // The band on the right: the legend's white letters there, none without it.
  a.each(a.w * 2 / 3, 0, a.w, a.h, [&](const unsigned char* p) { band_a += p[0] > 200 && p[1] > 200 && p[2] > 200; });
  b.each(b.w * 2 / 3, 0, b.w, b.h, [&](const unsigned char* p) { band_b += p[0] > 200 && p[1] > 200 && p[2] > 200; });
  EXPECT_GT(band_a, 500u) << "the legend's text";
  EXPECT_EQ(band_b, 0u);
}

// A chart: the image in chart_rect (its cells square unless told, room left for labels; the
// legend has its own band); y tick labels to the left of their row, x tick labels under their
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
  EXPECT_LT(r.y + r.h, 800.0f - 30);  // the x labels' room
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
  EXPECT_GE(above, 6u * 5);    // "title", a quad a letter
  EXPECT_GT(on_note, 6u * 4);  // "note" and its shade
  EXPECT_EQ(elsewhere, 0u);
  // The legend carries the chart: more triangles with it than without.
  render::Legend with{{"lab"}, {}, c}, without{{"lab"}, {}};
  EXPECT_EQ(vertices(with, area, 2).size(), vertices(without, area, 2).size() + m.v.size() / 8);
}

// The font as a projected capture shows it: at 1280x800 the legend's letters have anti-aliased
// edges (many grey levels between the box and the white, not two) and its title's capitals
// (the tallest strokes of its first line) are at least 13 pixels high.
TEST(Legend, CaptureTextIsAntiAliasedAndTallEnoughToProject) {
  auto dir = scratch("legend-font");
  auto with = dir / "with.png", without = dir / "without.png";
  for (auto [png, flag] : {std::pair{with, ""}, {without, " --no-legend"}}) {
    auto r = run_process(
        vklab_args("--headless --validate --lab diffusion --steps 3 --size 1280x800 --capture " + png.string() + flag));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  }
  auto with_legend = load_picture(with), without_legend = load_picture(without);
  ASSERT_TRUE(!with_legend.empty() && !without_legend.empty());
  ASSERT_EQ(with_legend.w, 1280);
  const int w = with_legend.w, h = with_legend.h;
  const unsigned char *a = with_legend.rgba.data(), *b = without_legend.rgba.data();
  auto px = [&](const unsigned char* img, int x, int y) { return img + (size_t(y) * size_t(w) + size_t(x)) * 4; };
  // The legend's box: in the band right of the square grid, what differs from the picture
  // without a legend (only the window's background there).
  int x0 = w, y0 = h, x1 = 0, y1 = 0;
  for (int y = 0; y < h; ++y)
    for (int x = w * 2 / 3; x < w; ++x)
      if (std::memcmp(px(a, x, y), px(b, w - 1, y), 3) != 0)
        x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
  ASSERT_LT(x0, x1);
  // Its grey pixels (the text is white on a dark box): how many levels, how many in between.
  std::set<int> levels;
  size_t white = 0, between = 0;
  auto grey = [&](int x, int y) {
    auto p = px(a, x, y);
    int lo = std::min({p[0], p[1], p[2]}), hi = std::max({p[0], p[1], p[2]});
    return hi - lo < 24 ? lo : -1;  // -1: coloured (the bar)
  };
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      int g = grey(x, y);
      if (g < 0) continue;
      levels.insert(g);
      white += g >= 200;
      between += g > 60 && g < 200;
    }
  EXPECT_GT(levels.size(), 40u) << "anti-aliased: many grey levels";
  EXPECT_GT(white, 500u) << "the letters";
  EXPECT_GT(between, white / 4) << "edges between the box and the letters";
  // The first line of text: from the box's top down to the first row without a letter after it.
  int first = -1, last = -1;
  for (int y = y0; y <= y1 && last < 0; ++y) {
    bool any = false;
    for (int x = x0; x <= x1 && !any; ++x) any = grey(x, y) >= 200;
    if (any && first < 0) first = y;
    if (!any && first >= 0) last = y;
  }
  ASSERT_GE(first, 0);
  int tallest = 0;  // the longest vertical white run in that line
  for (int x = x0; x <= x1; ++x)
    for (int y = first, run = 0; y < last; ++y) {
      run = grey(x, y) >= 160 ? run + 1 : 0;
      tallest = std::max(tallest, run);
    }
  EXPECT_GE(tallest, 13) << "capitals at least 13 px high at 1280x800";
  EXPECT_LE(tallest, 24);
}

// The atlas is rasterised once and kept between runs (render/text_mesh.h, font_cache_dir): a
// capture with no cache, one that makes it, one that reads it and one after the file is damaged
// are the same picture; the file is read (zeroing its atlas takes text away) and a
// damaged one is rasterised again and rewritten.
TEST(Legend, TheFontCacheKeepsTheRasterisedAtlas) {
  auto dir = scratch("font-cache");
  auto cache = dir / "cache";
  auto pixels = [&](const std::string& cache_dir, const std::string& name) {
    auto png = dir / name;
    auto r = run_process("VKLAB_CACHE_DIR=" + cache_dir + " " +
                         vklab_args("--headless --lab diffusion --steps 2 --size 640x400 --capture " + png.string()));
    EXPECT_EQ(r.code, 0) << r.err;
    auto pic = load_picture(png);
    return std::string(pic.rgba.begin(), pic.rgba.end());
  };
  auto cached = [&] {
    std::vector<std::filesystem::path> files;
    if (std::filesystem::exists(cache))
      for (auto& e : std::filesystem::directory_iterator(cache)) files.push_back(e.path());
    return files;
  };
  const auto none = pixels("off", "none.png");
  ASSERT_FALSE(none.empty());
  EXPECT_TRUE(cached().empty()) << "off keeps nothing";
  EXPECT_EQ(pixels(cache.string(), "made.png"), none);
  ASSERT_EQ(cached().size(), 1u) << "one file, no part left behind";
  const auto file = cached()[0];
  const auto size = std::filesystem::file_size(file);
  const auto bytes = file_bytes(file);
  EXPECT_EQ(file.extension(), ".sdf");
  EXPECT_EQ(pixels(cache.string(), "read.png"), none);
  // Half the atlas zeroed (its texels end the file, before the 8-byte checksum of the rest).
  std::string zeros = bytes;
  std::fill(zeros.end() - std::ptrdiff_t(size / 2), zeros.end() - 8, '\0');
  std::ofstream(file, std::ios::binary) << zeros;  // the checksum no longer matches: not used
  EXPECT_EQ(pixels(cache.string(), "unsummed.png"), none) << "a cache whose checksum fails is not drawn";
  EXPECT_EQ(file_bytes(file), bytes) << "a damaged file is rasterised again and rewritten";
  uint64_t sum = 0xcbf29ce484222325ull;  // FNV-1a, as render/text_mesh.cpp sums it
  for (size_t i = 0; i + 8 < zeros.size(); ++i) sum = (sum ^ static_cast<unsigned char>(zeros[i])) * 0x100000001b3ull;
  std::memcpy(zeros.data() + zeros.size() - 8, &sum, 8);
  std::ofstream(file, std::ios::binary) << zeros;  // summed again: the glyphs there are no longer drawn
  EXPECT_NE(pixels(cache.string(), "zeros.png"), none) << "the cached atlas is what is drawn";
  std::filesystem::resize_file(file, size / 2);
  EXPECT_EQ(pixels(cache.string(), "damaged.png"), none);
  EXPECT_EQ(file_bytes(file), bytes) << "a damaged file is rasterised again and rewritten";
}
