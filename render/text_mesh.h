// Triangles for flat quads and text in pixels, 2 x vec4 a vertex (position xy, texture uv;
// colour): what the legend and the charts drawn into pictures are made of. Text is DejaVu Sans
// (Debian's fonts-dejavu-core) rasterised once by stb_truetype into a signed-distance atlas
// (font_atlas()); a solid quad has u = v = -1, so legend.frag does not sample the atlas for it.
// UTF-8: ASCII, Latin-1, Greek and the dashes, arrows and maths signs the labs write; any other
// letter is drawn as '?'.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace render {

struct TextMesh {
  std::vector<float> v;
  void vertex(float x, float y, float tu, float tv, const float c[4]);                      // tu, tv: in the atlas
  void quad(float x0, float y0, float x1, float y1, const float c0[4], const float c1[4]);  // solid; c0 left, c1 right
  void text(float x, float y, const std::string& utf8, float scale, const float c[4]);  // (x, y): capitals' top-left
  static float width(const std::string& utf8);  // the advance at scale 1, in pixels
  static constexpr float kHeight = 7;           // a capital's height at scale 1 (its top at y, the baseline at y + 7)
  static constexpr float kLine = 13;            // a line of labels at scale 1 (legends, chart ticks)
};

// `text` cut into lines at most `room` pixels wide at text scale `s`, between words (inside a
// word only where one word alone is wider): what the pictures do with a line too long, never
// shrinking it.
std::vector<std::string> wrap_text(const std::string& text, float room, float s);

// The text scale for a picture `height` pixels high: capitals 1.8 % of it (about 14 px at 800,
// 19 at 1080), never under 13 px: legible in a capture and when projected.
float picture_text_scale(float height);

// The signed-distance atlas, rasterised on first use (throws std::runtime_error naming the
// package where the font is missing). A texel is 0..255: kEdge on a glyph's outline, more inside,
// kPerPixel more for each atlas pixel further in (less for each further out).
struct FontAtlas {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> texels;  // one byte a texel, row after row
  static constexpr float kEdge = 128, kPerPixel = 128.0f / 6;
};
const FontAtlas& font_atlas();
// $VKLAB_FONT if set and a font vklab can read (font_check.h; else a warning, once), else
// DejaVuSans.ttf where Debian, Fedora and Arch install it.
std::filesystem::path font_path();
// Where the rasterised atlas is kept between runs: $VKLAB_CACHE_DIR (off: nowhere), else the
// user's cache folder (compute/io/user_dirs.h); empty: not kept. font_cache_file: the file for a
// font's bytes (its name hashes them and the atlas's parameters).
std::filesystem::path font_cache_dir();
std::filesystem::path font_cache_file(const std::vector<unsigned char>& ttf);

}  // namespace render
