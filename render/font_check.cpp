// Checks of a font's tables before stb_truetype reads them (font_check.h). Offsets from the
// OpenType specification's table layouts (head, hhea, maxp, loca, glyf, cmap, kern).
#include "render/font_check.h"

#include <algorithm>
#include <map>
#include <set>

namespace render {

namespace {

struct Reader {
  const std::vector<unsigned char>& d;
  bool has(uint64_t at, uint64_t n) const { return at <= d.size() && n <= d.size() - at; }
  uint32_t u16(uint64_t at) const { return has(at, 2) ? uint32_t(d[at] << 8 | d[at + 1]) : 0; }
  int32_t s16(uint64_t at) const { return int16_t(u16(at)); }
  uint32_t u32(uint64_t at) const { return has(at, 4) ? uint32_t(u16(at)) << 16 | u16(at + 2) : 0; }
};

struct Table {
  uint32_t at = 0, size = 0;
};

// The bytes of one glyph's outline, or why they are wrong; `parts` gets a composite's glyphs.
std::string glyph_problem(const Reader& r, uint64_t at, uint64_t size, std::vector<uint32_t>& parts) {
  if (size == 0) return "";
  if (size < 10) return "a glyph shorter than its header";
  int32_t contours = r.s16(at);
  uint64_t p = at + 10, end = at + size;
  if (contours >= 0) {
    uint32_t points = 0;
    for (int32_t c = 0; c < contours; ++c, p += 2) {
      if (p + 2 > end) return "a glyph's contour ends past the glyph";
      uint32_t last = r.u16(p) + 1;
      if (last < points) return "a glyph's contours out of order";
      points = last;
    }
    if (p + 2 > end) return "a glyph's instructions past the glyph";
    p += 2 + r.u16(p);
    uint64_t xbytes = 0, ybytes = 0;
    for (uint32_t k = 0; k < points;) {
      if (p >= end) return "a glyph's flags past the glyph";
      uint32_t flag = r.d[p++], repeat = 1;
      if (flag & 8) {
        if (p >= end) return "a glyph's flags past the glyph";
        repeat += r.d[p++];
      }
      uint32_t xb = flag & 2 ? 1 : flag & 16 ? 0 : 2, yb = flag & 4 ? 1 : flag & 32 ? 0 : 2;
      xbytes += uint64_t(xb) * repeat, ybytes += uint64_t(yb) * repeat;
      k += repeat;
    }
    if (p + xbytes + ybytes > end) return "a glyph's points past the glyph";
    return "";
  }
  for (uint32_t flags = 0x20; flags & 0x20;) {  // MORE_COMPONENTS
    if (p + 4 > end) return "a composite glyph past its bytes";
    flags = r.u16(p);
    // stb_truetype reads the glyph number as signed and knows components placed by x, y only
    if (!(flags & 2) || r.u16(p + 2) >= 0x8000) return "a composite glyph stb_truetype cannot read";
    parts.push_back(r.u16(p + 2));
    p += 4 + (flags & 1 ? 4 : 2);                                  // ARG_1_AND_2_ARE_WORDS
    p += flags & 8 ? 2 : flags & 0x40 ? 4 : flags & 0x80 ? 8 : 0;  // a scale, x and y scales, a 2x2
    if (p > end) return "a composite glyph past its bytes";
  }
  return "";
}

}  // namespace

std::string font_problem(const std::vector<unsigned char>& ttf) {
  Reader r{ttf};
  if (ttf.size() < 12) return "too short to be a font";
  uint32_t version = r.u32(0);
  if (version != 0x00010000 && version != 0x74727565)
    return version == 0x74746366 ? "a font collection (.ttc), not one font" : "not a TrueType font file";
  uint32_t tables = r.u16(4);
  if (tables == 0 || tables > 256 || !r.has(12, uint64_t(tables) * 16)) return "its table directory is cut short";
  std::map<std::string, Table> t;
  for (uint32_t i = 0; i < tables; ++i) {
    uint64_t rec = 12 + uint64_t(i) * 16;
    Table tb{r.u32(rec + 8), r.u32(rec + 12)};
    if (!r.has(tb.at, tb.size)) return "a table lies past the end of the file";
    if (!t.emplace(std::string(reinterpret_cast<const char*>(&ttf[rec]), 4), tb).second)
      return "a table named twice";  // stb_truetype would read the first, this check the last
  }
  for (const char* need : {"cmap", "head", "hhea", "hmtx", "loca", "glyf", "maxp"})
    if (!t.count(need)) return std::string("no '") + need + "' table";
  const Table head = t["head"], hhea = t["hhea"], hmtx = t["hmtx"], loca = t["loca"], glyf = t["glyf"],
              maxp = t["maxp"], cmap = t["cmap"];
  if (head.size < 54 || r.u32(head.at + 12) != 0x5F0F3CF5) return "a damaged 'head' table";
  uint32_t long_loca = r.u16(head.at + 50);
  if (long_loca > 1) return "a damaged 'head' table";
  if (maxp.size < 6) return "a damaged 'maxp' table";
  uint32_t glyphs = r.u16(maxp.at + 4);
  if (glyphs == 0) return "no glyphs";
  if (hhea.size < 36) return "a damaged 'hhea' table";
  uint32_t metrics = r.u16(hhea.at + 34);
  if (metrics == 0 || metrics > glyphs || uint64_t(hmtx.size) < 4ull * metrics + 2ull * (glyphs - metrics))
    return "a damaged 'hmtx' table";
  if (uint64_t(loca.size) < uint64_t(glyphs + 1) * (long_loca ? 4 : 2)) return "a 'loca' table too short";
  std::vector<std::vector<uint32_t>> parts(glyphs);
  uint64_t previous = 0;
  for (uint32_t g = 0; g <= glyphs; ++g) {
    uint64_t off = long_loca ? r.u32(loca.at + 4ull * g) : 2ull * r.u16(loca.at + 2ull * g);
    if (off < previous || off > glyf.size) return "a 'loca' entry past the 'glyf' table";
    if (g > 0) {
      std::string why = glyph_problem(r, glyf.at + previous, off - previous, parts[g - 1]);
      if (!why.empty()) return why + " (glyph " + std::to_string(g - 1) + ")";
      for (uint32_t p : parts[g - 1])
        if (p >= glyphs) return "a composite glyph names a glyph the font does not have";
    }
    previous = off;
  }
  // Composites: no cycle, at most 8 deep (stb_truetype follows them recursively): each glyph's
  // height, the longest chain of components below it, kept once known.
  std::vector<int> height(glyphs, -1);  // -2: being visited
  auto visit = [&](auto&& self, uint32_t g, int level) -> int {
    if (level > 8 || height[g] == -2) return 99;
    if (height[g] >= 0) return height[g];
    height[g] = -2;
    int h = 0;
    for (uint32_t p : parts[g]) h = std::max(h, 1 + self(self, p, level + 1));
    return height[g] = std::min(h, 99);
  };
  for (uint32_t g = 0; g < glyphs; ++g)
    if (visit(visit, g, 0) > 8) return "composite glyphs that name each other in a cycle, or nest past 8";
  // cmap: the subtable stb_truetype picks (the last Unicode record: platform 0, or 3 with
  // encoding 1 or 10) must be of format 4 or 12 and within the table.
  uint32_t encodings = r.u16(cmap.at + 2);
  if (!r.has(cmap.at, 4 + 8ull * encodings) || 4 + 8ull * encodings > cmap.size) return "a damaged 'cmap' table";
  uint64_t sub = 0;
  for (uint32_t e = 0; e < encodings; ++e) {
    uint64_t rec = cmap.at + 4 + 8ull * e;
    uint32_t platform = r.u16(rec), encoding = r.u16(rec + 2);
    if (platform == 0 || (platform == 3 && (encoding == 1 || encoding == 10))) sub = r.u32(rec + 4);
  }
  if (sub == 0) return "no Unicode 'cmap' subtable";
  if (sub + 16 > cmap.size) return "a 'cmap' subtable past its table";
  const uint64_t at = cmap.at + sub, room = cmap.size - sub;
  const uint32_t format = r.u16(at);
  if (format == 4) {
    uint64_t length = r.u16(at + 2), segs = r.u16(at + 6) / 2;
    if (length > room || segs == 0 || 16 + 8 * segs > length) return "a damaged 'cmap' subtable (format 4)";
    // the binary search's own fields, as the format defines them from the segment count
    uint64_t search = 2;
    uint32_t selector = 0;
    while (search * 2 <= 2 * segs) search *= 2, ++selector;
    if (r.u16(at + 8) != search || r.u16(at + 10) != selector || r.u16(at + 12) != 2 * segs - search)
      return "a damaged 'cmap' subtable (format 4)";
    for (uint64_t s = 0; s < segs; ++s) {
      uint64_t end = r.u16(at + 14 + 2 * s), start = r.u16(at + 16 + 2 * segs + 2 * s);
      uint64_t range_at = at + 16 + 6 * segs + 2 * s, range = r.u16(range_at);
      if (range && start <= end && range_at + range + 2 * (end - start) + 2 > at + length)
        return "a 'cmap' subtable (format 4) points past its end";
    }
  } else if (format == 12) {
    if (r.u32(at + 4) > room || 16 + 12ull * r.u32(at + 12) > r.u32(at + 4))
      return "a damaged 'cmap' subtable (format 12)";
  } else {
    return "a 'cmap' subtable of format " + std::to_string(format) + " (4 and 12 are read)";
  }
  if (t.count("kern")) {  // stb_truetype reads the first subtable's pairs (format 0)
    const Table kern = t["kern"];
    if (kern.size < 18 || 18 + 6ull * r.u16(kern.at + 10) > kern.size) return "a damaged 'kern' table";
  }
  return "";
}

}  // namespace render
