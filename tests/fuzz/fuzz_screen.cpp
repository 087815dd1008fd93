// The screening front end of a user's kernel (compute/io/user_text.h) and the loop budget behind
// it (compute/gpu/loop_budget.h): any text is refused with its line or comes out as text the
// compiler reads line for line as the budget did: no BOM, no carriage return, no line
// continuation, no NUL, within the limits; and the budget either refuses it or leaves every
// byte outside loop headers as written (the text only grows).
#include "compute/gpu/loop_budget.h"
#include "compute/io/user_text.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  io::TextLimits limits{4096, 200, 64};
  std::string normal;
  try {
    normal = io::normalized_user_text(text, limits);
  } catch (const io::TextRefused& e) {
    if (e.line < 0 || size_t(e.line) > limits.max_lines + 1) __builtin_trap();
    return 0;
  }
  if (normal.find('\r') != std::string::npos || normal.find('\0') != std::string::npos ||
      normal.find("\\\n") != std::string::npos || normal.compare(0, 3, "\xEF\xBB\xBF") == 0 ||
      normal.size() > text.size() || (!normal.empty() && normal.back() == '\\'))
    __builtin_trap();
  for (size_t at = 0; (at = normal.find("#extension", at)) != std::string::npos; ++at) {
    size_t b = normal.rfind('\n', at), e = normal.find('\n', at);
    b = b == std::string::npos ? 0 : b + 1;
    try {
      io::check_extension_line(normal.substr(b, e == std::string::npos ? std::string::npos : e - b), 1);
    } catch (const io::TextRefused&) {}
  }
  try {
    gpu::BudgetedCode code = gpu::budget_loops(normal);
    if (code.text.size() < normal.size()) __builtin_trap();
  } catch (const std::invalid_argument&) {}
  return 0;
}
