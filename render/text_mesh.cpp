#include "render/text_mesh.h"

#include "compute/io/input.h"
#include "compute/io/output.h"
#include "compute/io/platform.h"
#include "compute/io/user_dirs.h"
#include "render/font_check.h"

#include <stb_truetype.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace render {

namespace {

// Why a signed-distance atlas and not coverage baked at the sizes used: text here comes at any
// size (the legend follows the picture's height, chart labels shrink continuously to their room,
// the window passes its UI scale), so one atlas must serve them all. A distance field stays
// crisp magnified (a title on a 4K capture) and is anti-aliased at every size by legend.frag
// from its own pixel footprint; coverage would need a bake per size or blur when scaled.
constexpr float kBakeCap = 28;  // atlas pixels a capital is high
constexpr int kSpread = 6;      // atlas pixels of distance stored each side of an outline (FontAtlas::kPerPixel)
constexpr uint32_t kAtlasWidth = 1024;
// What the labs write: ASCII, Latin-1, Greek, dashes, quotes and bullets, super- and subscripts,
// the euro, arrows and the common maths signs. Code points the font lacks are left out.
constexpr uint32_t kRanges[][2] = {{0x20, 0x7E},     {0xA0, 0xFF},     {0x391, 0x3A9},   {0x3B1, 0x3C9},
                                   {0x3D1, 0x3D1},   {0x3D5, 0x3D6},   {0x2010, 0x2027}, {0x2030, 0x2033},
                                   {0x2070, 0x208E}, {0x20AC, 0x20AC}, {0x2122, 0x2122}, {0x2190, 0x2195},
                                   {0x21D0, 0x21D4}, {0x2200, 0x2213}, {0x2218, 0x221E}, {0x2227, 0x222B},
                                   {0x2248, 0x2248}, {0x2260, 0x2265}, {0x22C5, 0x22C5}};

struct Glyph {
  int index = 0;                   // the font's glyph
  float advance = 0;               // font units
  int x = 0, y = 0, w = 0, h = 0;  // its distance field in the atlas; w = 0: nothing drawn (a space)
  int xoff = 0, yoff = 0;          // the field's top-left from the pen on the baseline, atlas pixels, y down
};

struct Font {
  std::vector<unsigned char> ttf;  // stb_truetype reads it in place (kerning at layout time)
  stbtt_fontinfo info{};
  float cap_units = 0;  // a capital's height in font units
  float bake = 0;       // atlas pixels a font unit
  std::unordered_map<uint32_t, Glyph> glyphs;
  FontAtlas atlas;

  Font();
  void rasterise();
  bool load(const std::filesystem::path& file);
  void save(const std::filesystem::path& file) const;
  const Glyph& glyph(uint32_t codepoint) const {
    if (codepoint < 0x20) codepoint = ' ';  // tabs and the like
    auto it = glyphs.find(codepoint);
    return it != glyphs.end() ? it->second : glyphs.at('?');
  }
};

std::filesystem::path system_font_path() {
  // beside the program where a package carries its own (the Windows zip: fonts/DejaVuSans.ttf)
  if (auto exe = platform::executable(); !exe.empty()) {
    auto beside = exe.parent_path() / "fonts" / "DejaVuSans.ttf";
    if (std::filesystem::is_regular_file(beside)) return beside;
  }
  for (const char* p : {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",    // Debian, Ubuntu
                        "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",  // Fedora
                        "/usr/share/fonts/TTF/DejaVuSans.ttf",                // Arch
                        "/usr/share/fonts/dejavu/DejaVuSans.ttf", "/usr/local/share/fonts/DejaVuSans.ttf"})
    if (std::filesystem::is_regular_file(p)) return p;
  throw std::runtime_error(
      "render: the font of the pictures' text, DejaVu Sans (DejaVuSans.ttf), is missing: install Debian's "
      "fonts-dejavu-core (scripts/install-deps.sh does) or set VKLAB_FONT to a .ttf file");
}

// The font file's bytes, or why it cannot be used (font_check.h).
std::vector<unsigned char> read_font(const std::filesystem::path& path, std::string& problem) {
  try {
    std::string bytes = io::read_input(path, 32u << 20);
    std::vector<unsigned char> ttf(bytes.begin(), bytes.end());
    problem = font_problem(ttf);
    return ttf;
  } catch (const std::runtime_error& e) {
    problem = e.what();
    return {};
  }
}

// The atlas's cache (font_cache_file()): a file a font and atlas parameters, read instead of
// rasterising (about 0.15 CPU-seconds, paid by every vklab that draws a legend otherwise).
constexpr char kCacheMagic[8] = {'v', 'k', 'l', 'a', 'b', 'S', 'D', 'F'};

// FNV-1a, 64 bits: the cache file's name from the font's bytes and what shapes the atlas.
uint64_t fnv1a(uint64_t h, const void* data, size_t n) {
  for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<const unsigned char*>(data)[i]) * 0x100000001b3ull;
  return h;
}

// Reads the font; the atlas from the cache where it holds this font's, else rasterised (and
// cached).
Font::Font() {
  auto path = font_path();
  std::string problem;
  ttf = read_font(path, problem);  // checked before stb_truetype reads a byte (font_check.h)
  if (!problem.empty()) throw std::runtime_error("render: " + path.string() + ": " + problem);
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  if (!stbtt_InitFont(&info, ttf.data(), 0) || !stbtt_GetCodepointBox(&info, 'H', &x0, &y0, &x1, &y1) || y1 <= 0)
    throw std::runtime_error("render: " + path.string() + " is not a TrueType font with Latin letters");
  const char* env = std::getenv("VKLAB_FONT");
  if (env && path == env) info.gpos = 0;  // a font of the user's: GPOS is not checked, the kern table alone
  cap_units = float(y1);
  bake = kBakeCap / cap_units;
  auto file = font_cache_file(ttf);
  if (!file.empty() && load(file)) return;
  rasterise();
  if (!file.empty()) save(file);
}

// Rasterises every glyph's distance field and packs them on shelves in the atlas.
void Font::rasterise() {
  std::vector<std::pair<uint32_t, unsigned char*>> fields;
  for (auto [lo, hi] : kRanges)
    for (uint32_t cp = lo; cp <= hi; ++cp) {
      Glyph g;
      g.index = stbtt_FindGlyphIndex(&info, int(cp));
      if (g.index == 0 || g.index >= info.numGlyphs) continue;  // a cmap may name glyphs the font lacks
      int advance = 0, bearing = 0;
      stbtt_GetGlyphHMetrics(&info, g.index, &advance, &bearing);
      g.advance = float(advance);
      unsigned char* px = stbtt_GetGlyphSDF(&info, bake, g.index, kSpread, static_cast<unsigned char>(FontAtlas::kEdge),
                                            FontAtlas::kPerPixel, &g.w, &g.h, &g.xoff, &g.yoff);
      if (px)
        fields.push_back({cp, px});
      else
        g.w = g.h = 0;
      glyphs[cp] = g;
    }
  if (!glyphs.count('?')) throw std::runtime_error("render: " + font_path().string() + " has no '?'");
  // Shelves, tallest fields first, a texel of gap between fields (their borders are all "outside").
  std::sort(fields.begin(), fields.end(), [&](auto& a, auto& b) { return glyphs[a.first].h > glyphs[b.first].h; });
  uint32_t x = 0, y = 0, shelf = 0;
  for (auto& [cp, px] : fields) {
    Glyph& g = glyphs[cp];
    if (x + uint32_t(g.w) > kAtlasWidth) x = 0, y += shelf + 1, shelf = 0;
    g.x = int(x), g.y = int(y);
    x += uint32_t(g.w) + 1, shelf = std::max(shelf, uint32_t(g.h));
  }
  atlas.width = kAtlasWidth;
  atlas.height = y + shelf;
  atlas.texels.assign(size_t(atlas.width) * atlas.height, 0);
  for (auto& [cp, px] : fields) {
    const Glyph& g = glyphs[cp];
    for (int row = 0; row < g.h; ++row)
      std::copy_n(px + row * g.w, g.w,
                  atlas.texels.begin() + std::ptrdiff_t((size_t(g.y) + size_t(row)) * atlas.width + size_t(g.x)));
    stbtt_FreeSDF(px, nullptr);
  }
}

// The cache's layout: the magic, the glyph count, each glyph (code point, then Glyph's fields as
// int32 and its advance as float), the atlas's width and height, its texels, and a checksum of
// all that. Anything that does not fit (a wrong checksum, a short file, a glyph outside the
// atlas, no '?') is not used.
bool Font::load(const std::filesystem::path& file) {
  std::string bytes;
  try {
    bytes = io::read_input(file, 64u << 20);
  } catch (const std::runtime_error&) {
    return false;
  }
  // The last 8 bytes: the FNV-1a of the rest (a damaged cache is rasterised again, not drawn).
  uint64_t sum = 0;
  if (bytes.size() < 8) return false;
  std::memcpy(&sum, bytes.data() + bytes.size() - 8, 8);
  bytes.resize(bytes.size() - 8);
  if (sum != fnv1a(0xcbf29ce484222325ull, bytes.data(), bytes.size())) return false;
  std::istringstream in(bytes);
  char magic[8] = {};
  uint32_t count = 0;
  if (!in.read(magic, 8) || std::memcmp(magic, kCacheMagic, 8) != 0 || !in.read(reinterpret_cast<char*>(&count), 4) ||
      count > 4096)
    return false;
  std::unordered_map<uint32_t, Glyph> read;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t cp = 0;
    int32_t f[8] = {};
    Glyph g;
    if (!in.read(reinterpret_cast<char*>(&cp), 4) || !in.read(reinterpret_cast<char*>(f), sizeof f)) return false;
    g.index = f[0], g.x = f[1], g.y = f[2], g.w = f[3], g.h = f[4], g.xoff = f[5], g.yoff = f[6];
    std::memcpy(&g.advance, &f[7], 4);
    read[cp] = g;
  }
  FontAtlas a;
  if (!in.read(reinterpret_cast<char*>(&a.width), 4) || !in.read(reinterpret_cast<char*>(&a.height), 4) ||
      a.width != kAtlasWidth || a.height == 0 || a.height > 4096)
    return false;
  a.texels.resize(size_t(a.width) * a.height);
  if (!in.read(reinterpret_cast<char*>(a.texels.data()), std::streamsize(a.texels.size())) || in.peek() != EOF)
    return false;
  for (auto& [cp, g] : read)
    if (g.w < 0 || g.h < 0 || g.x < 0 || g.y < 0 || int64_t(g.x) + g.w > a.width || int64_t(g.y) + g.h > a.height)
      return false;
  if (!read.count('?')) return false;
  glyphs = std::move(read);
  atlas = std::move(a);
  return true;
}

// Written beside and renamed into place (output.h), so that vklabs starting together never
// read half a file; a full disk leaves no cache, nothing else lost.
void Font::save(const std::filesystem::path& file) const {
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  std::string out(kCacheMagic, 8);
  auto put = [&](const void* p, size_t n) { out.append(static_cast<const char*>(p), n); };
  uint32_t count = uint32_t(glyphs.size());
  put(&count, 4);
  for (auto& [cp, g] : glyphs) {
    int32_t f[8] = {g.index, g.x, g.y, g.w, g.h, g.xoff, g.yoff, 0};
    std::memcpy(&f[7], &g.advance, 4);
    put(&cp, 4);
    put(f, sizeof f);
  }
  put(&atlas.width, 4);
  put(&atlas.height, 4);
  put(atlas.texels.data(), atlas.texels.size());
  uint64_t sum = fnv1a(0xcbf29ce484222325ull, out.data(), out.size());
  put(&sum, 8);
  try {
    io::write_file(file, out);
  } catch (const std::runtime_error&) {}
}

const Font& font() {
  static const Font f;  // thread-safe first use; a throw leaves it to the next call
  return f;
}

// The code point at s[i], i moved past it; a malformed sequence gives U+FFFD (drawn as '?').
uint32_t next_codepoint(const std::string& s, size_t& i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i++);
  if (c < 0x80) return c;
  int more = c >= 0xF8 ? -1 : c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : -1;
  if (more < 0) return 0xFFFD;
  uint32_t cp = c & (0x3Fu >> more);
  for (int k = 0; k < more; ++k) {
    if (i >= s.size() || (byte(i) & 0xC0) != 0x80) return 0xFFFD;
    cp = cp << 6 | (byte(i++) & 0x3Fu);
  }
  return cp;
}

}  // namespace

std::filesystem::path font_path() {
  static const std::filesystem::path chosen = [] {
    if (const char* env = std::getenv("VKLAB_FONT"); env && *env) {
      std::string problem;
      read_font(env, problem);
      if (problem.empty()) return std::filesystem::path(env);
      std::fprintf(stderr, "vklab: VKLAB_FONT=%s is not a usable font (%s): the pictures use DejaVu Sans\n", env,
                   problem.c_str());
    }
    return system_font_path();
  }();
  return chosen;
}

std::filesystem::path font_cache_dir() {
  const char* off = std::getenv("VKLAB_CACHE_DIR");
  if (off && std::string(off) == "off") return {};
  return io::user_dir(io::UserDir::Cache);
}

std::filesystem::path font_cache_file(const std::vector<unsigned char>& ttf) {
  auto dir = font_cache_dir();
  if (dir.empty()) return {};
  uint64_t h = fnv1a(0xcbf29ce484222325ull, ttf.data(), ttf.size());
  const float shape[] = {kBakeCap, float(kSpread), float(kAtlasWidth), FontAtlas::kEdge, FontAtlas::kPerPixel, 2};
  h = fnv1a(h, shape, sizeof shape);  // the last: the file's layout, raised when it changes
  h = fnv1a(h, kRanges, sizeof kRanges);
  char name[40];
  std::snprintf(name, sizeof name, "font-%016llx.sdf", static_cast<unsigned long long>(h));
  return dir / name;
}

const FontAtlas& font_atlas() { return font().atlas; }

float picture_text_scale(float height) { return std::max(13.0f, 0.018f * height) / TextMesh::kHeight; }

void TextMesh::vertex(float x, float y, float tu, float tv, const float c[4]) {
  v.insert(v.end(), {x, y, tu, tv, c[0], c[1], c[2], c[3]});
}

void TextMesh::quad(float x0, float y0, float x1, float y1, const float c0[4], const float c1[4]) {
  vertex(x0, y0, -1, -1, c0), vertex(x1, y0, -1, -1, c1), vertex(x0, y1, -1, -1, c0);
  vertex(x1, y0, -1, -1, c1), vertex(x1, y1, -1, -1, c1), vertex(x0, y1, -1, -1, c0);
}

// A quad a glyph over the part of its field within a pixel of the ink (where its anti-aliased
// edge can be), the pen moved by the advance and the kerning.
void TextMesh::text(float x, float y, const std::string& utf8, float scale, const float c[4]) {
  const Font& f = font();
  const float k = scale * kHeight / f.cap_units, r = k / f.bake;  // pixels a font unit, an atlas pixel
  if (!(r > 0)) return;
  const float inset = float(kSpread) - std::clamp(1.0f / r, 0.5f, float(kSpread));
  const float aw = float(f.atlas.width), ah = float(f.atlas.height), base = y + scale * kHeight;
  float pen = x;
  int previous = 0;
  for (size_t i = 0; i < utf8.size();) {
    const Glyph& g = f.glyph(next_codepoint(utf8, i));
    if (previous) pen += k * float(stbtt_GetGlyphKernAdvance(&f.info, previous, g.index));
    previous = g.index;
    if (g.w > 0) {
      float x0 = pen + (float(g.xoff) + inset) * r, x1 = pen + (float(g.xoff + g.w) - inset) * r;
      float y0 = base + (float(g.yoff) + inset) * r, y1 = base + (float(g.yoff + g.h) - inset) * r;
      float u0 = (float(g.x) + inset) / aw, u1 = (float(g.x + g.w) - inset) / aw;
      float v0 = (float(g.y) + inset) / ah, v1 = (float(g.y + g.h) - inset) / ah;
      vertex(x0, y0, u0, v0, c), vertex(x1, y0, u1, v0, c), vertex(x0, y1, u0, v1, c);
      vertex(x1, y0, u1, v0, c), vertex(x1, y1, u1, v1, c), vertex(x0, y1, u0, v1, c);
    }
    pen += k * g.advance;
  }
}

std::vector<std::string> wrap_text(const std::string& text, float room, float s) {
  std::vector<std::string> out;
  std::string line;
  auto fits = [&](const std::string& t) { return TextMesh::width(t) * s <= room; };
  size_t i = 0;
  while (i < text.size()) {
    size_t end = text.find(' ', i);
    std::string word = text.substr(i, end == std::string::npos ? std::string::npos : end - i);
    i = end == std::string::npos ? text.size() : end + 1;
    std::string joined = line.empty() ? word : line + " " + word;
    if (fits(joined)) {
      line = joined;
      continue;
    }
    if (!line.empty()) out.push_back(line), line.clear();
    // A word wider than the room alone is cut between letters (UTF-8 sequences kept whole).
    while (!fits(word)) {
      size_t cut = 0, k = 0;
      while (k < word.size()) {
        size_t next = k + 1;
        while (next < word.size() && (uint8_t(word[next]) & 0xC0) == 0x80) ++next;
        if (cut > 0 && !fits(word.substr(0, next))) break;
        cut = k = next;
      }
      if (cut >= word.size()) break;
      out.push_back(word.substr(0, cut));
      word = word.substr(cut);
    }
    line = word;
  }
  if (!line.empty() || out.empty()) out.push_back(line);
  return out;
}

float TextMesh::width(const std::string& utf8) {
  const Font& f = font();
  float units = 0;
  int previous = 0;
  for (size_t i = 0; i < utf8.size();) {
    const Glyph& g = f.glyph(next_codepoint(utf8, i));
    if (previous) units += float(stbtt_GetGlyphKernAdvance(&f.info, previous, g.index));
    previous = g.index;
    units += g.advance;
  }
  return units * kHeight / f.cap_units;
}

}  // namespace render
