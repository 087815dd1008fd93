#include "compute/io/pgm.h"

#include "compute/io/input.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace {

struct Cursor {
  const std::string& s;
  const std::string& name;
  size_t at = 0;
  [[noreturn]] void fail(const std::string& what) const { throw std::runtime_error(name + ": " + what); }
  void skip_space_and_comments() {
    while (at < s.size()) {
      if (s[at] == '#') {
        while (at < s.size() && s[at] != '\n') ++at;
      } else if (std::isspace(static_cast<unsigned char>(s[at]))) {
        ++at;
      } else {
        break;
      }
    }
  }
  std::string token() {
    skip_space_and_comments();
    size_t b = at;
    while (at < s.size() && !std::isspace(static_cast<unsigned char>(s[at])) && s[at] != '#') ++at;
    return s.substr(b, at - b);
  }
  uint32_t number(const char* what, uint32_t max) {
    std::string t = token();
    if (t.empty()) fail(std::string("the header ends where the ") + what + " should be");
    if (t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos || std::stoul(t) == 0 ||
        std::stoul(t) > max)
      fail(std::string("bad ") + what + " '" + t + "' (1 to " + std::to_string(max) + ")");
    return uint32_t(std::stoul(t));
  }
};

}  // namespace

GrayImage read_pgm(const std::filesystem::path& path) { return parse_pgm(io::read_input(path), path.string()); }

GrayImage parse_pgm(const std::string& bytes, const std::string& name) {
  Cursor in{bytes, name};
  std::string magic = in.token();
  if (magic != "P2" && magic != "P5") in.fail("not a PGM graymap (expected P2 or P5)");
  GrayImage img;
  img.width = in.number("width", 1u << 15);
  img.height = in.number("height", 1u << 15);
  uint32_t maxval = in.number("maximum value", 65535);
  size_t count = size_t(img.width) * img.height;
  if (magic == "P2") {
    // every pixel takes a digit and a separator (the last one maybe none)
    if (!io::fits(count, 2, bytes.size() - in.at + 1))
      in.fail("the header's " + std::to_string(img.width) + "x" + std::to_string(img.height) +
              " pixels cannot fit in the file's " + std::to_string(bytes.size()) + " bytes");
    img.values.resize(count);
    for (size_t i = 0; i < count; ++i) {
      std::string t = in.token();
      if (t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos)
        in.fail("pixel " + std::to_string(i) + " is missing or not a number");
      unsigned long v = std::stoul(t);
      if (v > maxval)
        in.fail("pixel " + std::to_string(i) + " = " + t + " exceeds the maximum value " + std::to_string(maxval));
      img.values[i] = float(v) / float(maxval);
    }
  } else {
    ++in.at;  // the single whitespace after the header
    size_t each = maxval > 255 ? 2 : 1;
    if (in.at > bytes.size() || !io::fits(count, each, bytes.size() - in.at))
      in.fail("the pixel data is shorter than " + std::to_string(count) + " pixels");
    img.values.resize(count);
    auto raw = reinterpret_cast<const unsigned char*>(bytes.data() + in.at);
    for (size_t i = 0; i < count; ++i) {
      uint32_t v = each == 2 ? uint32_t(raw[2 * i] << 8 | raw[2 * i + 1]) : raw[i];
      img.values[i] = float(std::min(v, maxval)) / float(maxval);
    }
  }
  return img;
}
