// The one front end for code a user writes (an exercise's kernel, a mesh kernel in either
// dialect): what the GPU compiler will read, made to be exactly what vklab's screening reads.
// glslang ends a line at "\r" as well as "\n" and joins a line ending in "\" to the next, so a
// scanner that splits on "\n" alone could be shown one text while the compiler sees another
// (a hidden #include, a loop keyword cut in two). Here a UTF-8 byte order mark is dropped and
// "\r\n" becomes "\n"; what could still make the two readings differ is refused, with its line:
// a lone "\r", a "\" ending a line, a NUL byte; and so are texts past the sizes below (a text's
// bytes, lines, line length and identifiers), before anything is scanned or compiled. docs/SECURITY.md says
// what a kernel may and may not do, and why.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>

namespace io {

struct TextLimits {
  size_t max_bytes = 256 * 1024;  // the longest shipped kernel file is under 8 KiB
  size_t max_lines = 8000;
  size_t max_identifier = 128;  // characters of one name
  size_t max_line = 4096;       // characters of one line
};

// A refusal, with the user's line (0: the text as a whole). what() is "line N: why".
struct TextRefused : std::invalid_argument {
  TextRefused(int line, const std::string& why);
  int line;
  std::string why;
};

// The text as it goes to the compiler (see above); throws TextRefused.
std::string normalized_user_text(const std::string& text, const TextLimits& limits = {});

// An "#extension NAME : behaviour" line of a user's kernel: refused (TextRefused on `line`)
// unless NAME is on the allow-list (arithmetic types, 8/16-bit storage, float atomics,
// subgroup operations, control-flow attributes, scalar layout) and the line holds nothing else.
// The device's own limits are checked later, on the SPIR-V (compute/gpu/spirv_screen.h).
void check_extension_line(const std::string& text, int line);

}  // namespace io
