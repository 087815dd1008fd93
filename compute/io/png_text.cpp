#include "compute/io/png_text.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace io {

namespace {

const char kSignature[8] = {'\x89', 'P', 'N', 'G', '\r', '\n', '\x1a', '\n'};

}  // namespace

uint32_t png_crc32(const std::string& bytes) {  // table-driven
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t n = 0; n < 256; ++n) {
      uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  uint32_t c = 0xffffffffu;
  for (unsigned char b : bytes) c = table[(c ^ b) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

namespace {

std::string be32(uint32_t v) { return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)}; }
uint32_t read_be32(const std::string& s, size_t at) {
  return uint32_t(uint8_t(s[at])) << 24 | uint32_t(uint8_t(s[at + 1])) << 16 | uint32_t(uint8_t(s[at + 2])) << 8 |
         uint32_t(uint8_t(s[at + 3]));
}

bool is_png(const std::string& png) { return png.size() >= 8 && std::memcmp(png.data(), kSignature, 8) == 0; }

}  // namespace

std::string add_png_text(const std::string& png, const std::string& keyword, const std::string& text) {
  if (!is_png(png) || png.size() < 33 || png.compare(12, 4, "IHDR") != 0) throw std::runtime_error("not a PNG");
  // iTXt: keyword \0, compression flag 0, method 0, language "" \0, translated keyword "" \0, text
  std::string body = "iTXt" + keyword + std::string(1, '\0') + std::string(2, '\0') + std::string(2, '\0') + text;
  std::string chunk = be32(uint32_t(body.size() - 4)) + body + be32(png_crc32(body));
  const size_t after_ihdr = 8 + 8 + 13 + 4;
  return png.substr(0, after_ihdr) + chunk + png.substr(after_ihdr);
}

std::string read_png_text(const std::string& png, const std::string& keyword, const std::string& name) {
  if (!is_png(png)) throw std::runtime_error(name + ": not a PNG");
  for (size_t at = 8; at < png.size();) {
    if (png.size() - at < 12) throw std::runtime_error(name + ": a PNG chunk runs past the end of the file");
    uint32_t length = read_be32(png, at);
    if (length > png.size() - at - 12) throw std::runtime_error(name + ": a PNG chunk runs past the end of the file");
    std::string type = png.substr(at + 4, 4);
    std::string data = png.substr(at + 8, length);
    if (type == "IEND") break;
    size_t nul = data.find('\0');
    if ((type == "iTXt" || type == "tEXt") && nul == keyword.size() && data.compare(0, nul, keyword) == 0) {
      if (type == "tEXt") return data.substr(nul + 1);
      // compression flag, method, then language and translated keyword, each ending in \0
      if (data.size() < nul + 3 || data[nul + 1] != 0) throw std::runtime_error(name + ": a compressed iTXt chunk");
      size_t lang_end = data.find('\0', nul + 3);
      size_t trans_end = lang_end == std::string::npos ? lang_end : data.find('\0', lang_end + 1);
      if (trans_end == std::string::npos) throw std::runtime_error(name + ": a malformed iTXt chunk");
      return data.substr(trans_end + 1);
    }
    at += 12 + size_t(length);
  }
  return "";
}

}  // namespace io
