// A font file checked before stb_truetype reads it: stb_truetype trusts every offset and count
// in the file (its author says not to give it fonts from strangers), so a file that is not a
// font, or a damaged one, made every vklab run crash. Checked here: a single TrueType font
// (sfnt 1.0 or 'true'), its table directory within the file, the tables the pictures use
// (cmap, head, hhea, hmtx, loca, glyf, maxp, and kern where present) within their bounds, every
// glyph's outline within its loca range, and composite glyphs naming existing glyphs without a
// cycle. The text's own glyphs are what is drawn; GPOS kerning is not read for such a font.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace render {

// "" when stb_truetype may read `ttf`; else why not, in a few words.
std::string font_problem(const std::vector<unsigned char>& ttf);

}  // namespace render
