// The mesh lab's kernel text: the scanner that replaced std::regex (kernel_words.h).
#include "compute/mesh/io/kernel_words.h"
#include "tests/fuzz/fuzz_common.h"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  using namespace mesh::words;
  size_t n = 0;
  for (auto& w : identifiers(text)) {
    if (w.at + w.text.size() > text.size() || text.compare(w.at, w.text.size(), w.text) != 0) __builtin_trap();
    n += names(text, w.text) ? 1 : 0;
  }
  if (strip_comments(text).size() > text.size()) __builtin_trap();
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) n += loop_line(line).size();
  for (auto& d : field_declarations(text)) n += d.name.size() + d.type.size();
  for (auto& d : param_declarations(text)) {
    if (d.line < 1 || d.line > text.size() + 1) __builtin_trap();
    n += d.name.size() + d.type.size() + d.values.size();
  }
  return int(n & 0);
}
