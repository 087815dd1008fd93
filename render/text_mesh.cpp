#include "text_mesh.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"  // the header's helpers we do not call
#include <stb_easy_font.h>
#pragma GCC diagnostic pop

#include <cstring>
#include <utility>

namespace render {

std::string ascii(const std::string& s) {
  static const std::pair<const char*, const char*> kMap[] = {
      {"ç", "c"}, {"é", "e"}, {"è", "e"}, {"à", "a"},    {"²", "^2"}, {"³", "^3"}, {"·", "."},
      {"—", "-"}, {"–", "-"}, {"×", "x"}, {"°", " deg"}, {"−", "-"},  {"ω", "w"},  {"π", "pi"}};
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      out += s[i++];
      continue;
    }
    bool found = false;
    for (auto& [from, to] : kMap)
      if (s.compare(i, std::strlen(from), from) == 0) {
        out += to, i += std::strlen(from), found = true;
        break;
      }
    if (!found) {
      out += '?';
      for (++i; i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80;) ++i;  // the rest of the letter
    }
  }
  return out;
}

void TextMesh::vertex(float x, float y, const float c[4]) { v.insert(v.end(), {x, y, 0, 0, c[0], c[1], c[2], c[3]}); }

void TextMesh::quad(float x0, float y0, float x1, float y1, const float c0[4], const float c1[4]) {
  vertex(x0, y0, c0), vertex(x1, y0, c1), vertex(x0, y1, c0);
  vertex(x1, y0, c1), vertex(x1, y1, c1), vertex(x0, y1, c0);
}

// stb_easy_font's quads (4 vertices of 16 bytes each), scaled, at (x, y).
void TextMesh::text(float x, float y, const std::string& utf8, float scale, const float c[4]) {
  thread_local char buf[64 * 1024];
  std::string s = ascii(utf8);
  int quads = stb_easy_font_print(0, 0, const_cast<char*>(s.c_str()), nullptr, buf, sizeof buf);
  for (int q = 0; q < quads; ++q) {
    float p[4][2];
    for (int k = 0; k < 4; ++k) std::memcpy(p[k], buf + (q * 4 + k) * 16, 8);
    quad(x + p[0][0] * scale, y + p[0][1] * scale, x + p[2][0] * scale, y + p[2][1] * scale, c, c);
  }
}

float TextMesh::width(const std::string& utf8) {
  return float(stb_easy_font_width(const_cast<char*>(ascii(utf8).c_str())));
}

}  // namespace render
