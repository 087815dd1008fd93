// The front end for code a user writes (user_text.h).
#include "compute/io/user_text.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace io {

TextRefused::TextRefused(int line, const std::string& why)
    : std::invalid_argument((line ? "line " + std::to_string(line) + ": " : std::string()) + why),
      line(line),
      why(why) {}

std::string normalized_user_text(const std::string& text, const TextLimits& limits) {
  if (text.size() > limits.max_bytes)
    throw TextRefused(0, "the kernel is " + std::to_string(text.size() >> 10) + " KiB, more than the " +
                             std::to_string(limits.max_bytes >> 10) + " KiB a kernel may be");
  size_t from = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;  // a UTF-8 byte order mark
  std::string out;
  out.reserve(text.size());
  int line = 1;
  size_t word = 0, column = 0;  // characters of the name being read, of the line so far
  for (size_t i = from; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\r') {
      if (i + 1 < text.size() && text[i + 1] == '\n') continue;  // "\r\n": the "\n" ends the line
      throw TextRefused(line,
                        "a carriage return (\\r) alone: the compiler would start a new line there, so the line "
                        "would not read as written (save the file with \\n or \\r\\n line ends)");
    }
    if (c == '\0') throw TextRefused(line, "a NUL byte: a kernel is text");
    if (c == '\xEF' && text.compare(i, 3, "\xEF\xBB\xBF") == 0)  // a second one, or one inside: not a line's text
      throw TextRefused(line,
                        "a byte order mark (U+FEFF) past the start of the text: save the file as UTF-8 with at "
                        "most one, at its start");
    if (c == '\\' && (i + 1 == text.size() || text[i + 1] == '\n' ||
                      (text[i + 1] == '\r' && i + 2 < text.size() && text[i + 2] == '\n')))
      throw TextRefused(line,
                        "a '\\' ending the line: the compiler would join the next line to this one (a line "
                        "continuation), which vklab does not read; write the line whole");
    bool word_char = std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    word = word_char ? word + 1 : 0;
    if (word > limits.max_identifier)
      throw TextRefused(line, "a name or number longer than " + std::to_string(limits.max_identifier) + " characters");
    if (c == '\n' && ++line > int(limits.max_lines))
      throw TextRefused(0, "more than " + std::to_string(limits.max_lines) + " lines, more than a kernel may have");
    column = c == '\n' ? 0 : column + 1;
    if (column > limits.max_line)
      throw TextRefused(line, "a line longer than " + std::to_string(limits.max_line) + " characters");
    out += c;
  }
  return out;
}

namespace {

// The GLSL extensions a kernel may enable: types and operations, never a way to reach memory
// other than its buffers (GL_EXT_buffer_reference), nor a file (GL_GOOGLE_include_directive).
constexpr std::array<const char*, 23> kAllowed = {
    "GL_EXT_shader_explicit_arithmetic_types",
    "GL_EXT_shader_explicit_arithmetic_types_int8",
    "GL_EXT_shader_explicit_arithmetic_types_int16",
    "GL_EXT_shader_explicit_arithmetic_types_int32",
    "GL_EXT_shader_explicit_arithmetic_types_int64",
    "GL_EXT_shader_explicit_arithmetic_types_float16",
    "GL_EXT_shader_explicit_arithmetic_types_float32",
    "GL_EXT_shader_explicit_arithmetic_types_float64",
    "GL_EXT_shader_16bit_storage",
    "GL_EXT_shader_8bit_storage",
    "GL_EXT_shader_atomic_float",
    "GL_EXT_shader_atomic_int64",
    "GL_ARB_gpu_shader_int64",
    "GL_EXT_control_flow_attributes",
    "GL_EXT_scalar_block_layout",
    "GL_KHR_shader_subgroup_basic",
    "GL_KHR_shader_subgroup_vote",
    "GL_KHR_shader_subgroup_arithmetic",
    "GL_KHR_shader_subgroup_ballot",
    "GL_KHR_shader_subgroup_shuffle",
    "GL_KHR_shader_subgroup_shuffle_relative",
    "GL_KHR_shader_subgroup_clustered",
    "GL_KHR_shader_subgroup_quad",
};

}  // namespace

void check_extension_line(const std::string& text, int line) {
  // #extension NAME : require|enable|warn|disable, blanks anywhere between, a // comment after
  std::string s = text.substr(0, text.find("//"));
  size_t i = s.find('#');
  auto blanks = [&] {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  };
  auto word = [&] {
    size_t b = i;
    while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
    return s.substr(b, i - b);
  };
  ++i;
  blanks();
  bool ok = word() == "extension";
  blanks();
  std::string name = word();
  blanks();
  ok = ok && i < s.size() && s[i++] == ':';
  blanks();
  std::string behaviour = word();
  blanks();
  ok = ok && i == s.size() &&
       (behaviour == "require" || behaviour == "enable" || behaviour == "warn" || behaviour == "disable");
  if (!ok) throw TextRefused(line, "an #extension line is '#extension NAME : require' and nothing else");
  if (std::none_of(kAllowed.begin(), kAllowed.end(), [&](const char* a) { return name == a; }))
    throw TextRefused(line, "the extension " + name +
                                " is not allowed in a kernel: a kernel computes on the buffers it is given and "
                                "nothing else (docs/SECURITY.md lists the extensions it may use)");
}

}  // namespace io
