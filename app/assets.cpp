#include "assets.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

std::filesystem::path find_asset(const std::string& relative) {
  std::vector<std::filesystem::path> roots;
  if (const char* env = std::getenv("VKLAB_ASSET_DIR")) roots.emplace_back(env);
  char buf[4096];
  ssize_t len = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (len > 0) {
    buf[len] = 0;
    roots.push_back(std::filesystem::path(buf).parent_path() / "assets");
  }
  roots.emplace_back(VKLAB_SOURCE_ASSET_DIR);
  for (auto& r : roots)
    if (std::filesystem::exists(r / relative)) return r / relative;
  throw std::runtime_error("asset " + relative + " not found (looked beside the executable, in VKLAB_ASSET_DIR and in " +
                           std::string(VKLAB_SOURCE_ASSET_DIR) + ")");
}

namespace {

// Reads the next header token, skipping '#' comments.
std::string token(std::istream& in, const std::string& file) {
  std::string t;
  while (in >> t) {
    if (t[0] != '#') return t;
    std::getline(in, t);
  }
  throw std::runtime_error(file + ": the header ends early");
}

uint32_t number(std::istream& in, const std::string& file, const char* what, uint32_t max) {
  std::string t = token(in, file);
  char* end = nullptr;
  unsigned long v = std::strtoul(t.c_str(), &end, 10);
  if (*end || v == 0 || v > max) throw std::runtime_error(file + ": bad " + what + " '" + t + "'");
  return uint32_t(v);
}

}  // namespace

GrayImage read_pgm(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string file = path.string();
  if (!in) throw std::runtime_error("cannot open " + file);
  std::string magic = token(in, file);
  if (magic != "P2" && magic != "P5") throw std::runtime_error(file + ": not a PGM graymap (expected P2 or P5)");
  GrayImage img;
  img.width = number(in, file, "width", 1u << 15);
  img.height = number(in, file, "height", 1u << 15);
  uint32_t maxval = number(in, file, "maximum value", 65535);
  size_t count = size_t(img.width) * img.height;
  img.values.resize(count);
  if (magic == "P2") {
    for (size_t i = 0; i < count; ++i) {
      long v;
      if (!(in >> v)) throw std::runtime_error(file + ": pixel " + std::to_string(i) + " is missing or not a number");
      if (v < 0 || v > long(maxval))
        throw std::runtime_error(file + ": pixel " + std::to_string(i) + " = " + std::to_string(v) + " exceeds " +
                                 std::to_string(maxval));
      img.values[i] = float(v) / float(maxval);
    }
  } else {
    in.get();  // the single whitespace after the header
    size_t bytes = maxval > 255 ? 2 : 1;
    std::vector<unsigned char> raw(count * bytes);
    if (!in.read(reinterpret_cast<char*>(raw.data()), std::streamsize(raw.size())))
      throw std::runtime_error(file + ": the pixel data is shorter than " + std::to_string(count) + " pixels");
    for (size_t i = 0; i < count; ++i) {
      uint32_t v = bytes == 2 ? (raw[2 * i] << 8 | raw[2 * i + 1]) : raw[i];
      img.values[i] = float(std::min(v, maxval)) / float(maxval);
    }
  }
  return img;
}
