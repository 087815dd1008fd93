// A font file as VKLAB_FONT would name it: render/font_check.h looks at it first, and only a
// font it passes reaches stb_truetype, which must then read every glyph the pictures use without
// reading outside the file (AddressSanitizer watches).
#include "render/font_check.h"

// stb_truetype's code compiled here, instrumented (Debian's libstb.a is not): a read outside the
// font inside it is a finding too.
#define STB_TRUETYPE_IMPLEMENTATION
#include <stb_truetype.h>

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<unsigned char> ttf(data, data + size);
  if (!render::font_problem(ttf).empty()) return 0;
  stbtt_fontinfo info{};
  if (!stbtt_InitFont(&info, ttf.data(), 0)) return 0;
  info.gpos = 0;                               // as render/text_mesh.cpp reads a font that is not the system's
  for (int cp = 0x20; cp < 0x100; cp += 13) {  // a sample of the pictures' letters: fast enough to fuzz
    int g = stbtt_FindGlyphIndex(&info, cp), advance = 0, bearing = 0, w = 0, h = 0, x = 0, y = 0;
    stbtt_GetGlyphHMetrics(&info, g, &advance, &bearing);
    stbtt_GetGlyphKernAdvance(&info, g, stbtt_FindGlyphIndex(&info, 'A'));
    unsigned char* px = stbtt_GetGlyphSDF(&info, 0.02f, g, 2, 128, 20.0f, &w, &h, &x, &y);
    stbtt_FreeSDF(px, nullptr);
  }
  return 0;
}
