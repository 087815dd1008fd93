// A figure in a table, or a dash where it does not apply (a pass that moves no counted bytes
// or flops, a row without a CPU reference): never a misleading 0.0. Terminal and panel both
// show "—" (the window's DejaVu Sans has U+2014).
#pragma once
#include <cstdio>
#include <string>

inline std::string figure(double value, const char* format, const char* none = "\u2014") {
  if (!(value > 0)) return none;
  char text[48];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// `text` right-aligned in `width` columns (a dash is three bytes, one column).
inline std::string right(const std::string& text, int width) {
  int shown = int(text.size()) - (text == "\u2014" ? 2 : 0);
  return std::string(size_t(shown < width ? width - shown : 0), ' ') + text;
}
