#include "compute/machining/io/path.h"
#include "compute/io/output.h"

#include "compute/io/input.h"
#include "compute/machining/io/tool.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace machining {

namespace {
[[noreturn]] void fail(const std::string& p, int line, const std::string& what) {
  throw std::runtime_error(p + ":" + std::to_string(line) + ": " + what);
}

glm::vec3 axis_from(const std::string& p, int line, glm::vec3 a) {
  float l = glm::length(a);
  if (!(l > 1e-6f) || !std::isfinite(l)) fail(p, line, "the tool axis (i j k) is zero or not finite");
  return a / l;
}
}  // namespace

std::vector<Position> read_positions(const std::filesystem::path& path) {
  return parse_positions(io::read_input(path), path.string());
}

std::vector<Position> parse_positions(const std::string& data, const std::string& path) {
  std::istringstream f(data);
  std::vector<Position> out;
  std::string line;
  int lineno = 0;
  size_t kind = 0;
  while (std::getline(f, line)) {
    ++lineno;
    if (auto h = line.find('#'); h != std::string::npos) line.resize(h);
    for (char& ch : line)
      if (ch == ',' || ch == ';' || ch == '\t') ch = ' ';
    std::istringstream in(line);
    std::vector<float> v;
    std::string word;
    while (in >> word) {
      size_t used = 0;
      float x = 0;
      try {
        x = std::stof(word, &used);
      } catch (...) {
        used = 0;
      }
      if (used != word.size()) fail(path, lineno, "'" + word + "' is not a number");
      if (!std::isfinite(x)) fail(path, lineno, "'" + word + "' is not finite");
      if (std::fabs(x) > kMaxCoordinate) fail(path, lineno, "'" + word + "' is beyond +-1e6");
      v.push_back(x);
    }
    if (v.empty()) continue;
    if (v.size() != 3 && v.size() != 4 && v.size() != 6 && v.size() != 7)
      fail(path, lineno, std::to_string(v.size()) + " values; expected 3 (x y z), 4 (+ omega), 6 (+ i j k) or 7");
    if (kind && v.size() != kind)
      fail(path, lineno, std::to_string(v.size()) + " values where earlier lines have " + std::to_string(kind));
    kind = v.size();
    Position p;
    p.tip = {v[0], v[1], v[2]};
    if (v.size() >= 6) p.axis = axis_from(path, lineno, {v[3], v[4], v[5]});
    if (v.size() == 4 || v.size() == 7) p.omega = v.back();
    if (out.size() == kMaxPositions) fail(path, lineno, "more than " + std::to_string(kMaxPositions) + " positions");
    out.push_back(p);
  }
  if (out.empty()) throw std::runtime_error(path + ":" + std::to_string(lineno) + ": no positions");
  return out;
}

void write_positions(const std::filesystem::path& path, const std::vector<Position>& ps) {
  std::ostringstream f;
  f << "# x y z i j k omega\n";
  for (auto& p : ps)
    f << p.tip.x << ' ' << p.tip.y << ' ' << p.tip.z << ' ' << p.axis.x << ' ' << p.axis.y << ' ' << p.axis.z << ' '
      << p.omega << '\n';
  io::write_file(path, f.str());
}

const std::vector<std::string>& path_kinds() {
  static const std::vector<std::string> k = {"single", "random", "spiral", "downspiral", "volcano", "zigzag"};
  return k;
}

std::vector<Position> generate_path(const std::string& kind, float size, uint32_t count, float stepover,
                                    uint32_t seed) {
  std::vector<Position> out;
  float c = size / 2;
  auto add = [&](float x, float y, float z) {
    Position p;
    p.tip = {x, y, z};
    out.push_back(p);
  };
  if (kind == "single") {
    add(c, c, -1.0f);
  } else if (kind == "random") {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, size), d(0.5f, 2.0f);
    for (uint32_t i = 0; i < count; ++i) add(u(rng), u(rng), -d(rng));
  } else if (kind == "spiral" || kind == "downspiral") {
    // r = b·θ with `stepover` between turns, reaching 0.45·size after `count` positions
    float b = stepover / (2 * 3.14159265f), theta_max = 0.45f * size / b;
    for (uint32_t i = 0; i < count; ++i) {
      float t = theta_max * std::sqrt(float(i) / float(std::max(1u, count - 1)));  // even spacing along the arc
      float depth = kind == "downspiral" ? 0.5f + 3.0f * float(i) / float(std::max(1u, count - 1)) : 1.0f;
      add(c + b * t * std::cos(t), c + b * t * std::sin(t), -depth);
    }
  } else if (kind == "volcano" || kind == "zigzag") {
    // `count` positions exactly (the report's 47837 and 53667): rows of count / rows, the
    // remainder spread over them (no row of fewer than 2 but where count is 1)
    const uint32_t rows = std::clamp(uint32_t(size / stepover), 1u, std::max(1u, count / 2));
    for (uint32_t r = 0; r < rows; ++r) {
      const uint32_t per_row = uint32_t(uint64_t(count) * (r + 1) / rows - uint64_t(count) * r / rows);
      for (uint32_t k = 0; k < per_row; ++k) {
        float x = per_row > 1 ? size * float(r % 2 ? per_row - 1 - k : k) / float(per_row - 1) : c;
        float y = stepover * (r + 0.5f);
        float depth = 1.0f;
        if (kind == "volcano") {  // a flattened cone with a crater: deeper away from the rim
          float d = std::hypot(x - c, y - c) / (0.5f * size);
          depth = d < 0.25f ? 2.0f - 4.0f * d : std::min(4.0f, 1.0f + 4.0f * (d - 0.25f));
        }
        add(x, y, -depth);
      }
    }
  } else {
    throw std::invalid_argument("unknown path '" + kind + "' (single, random, spiral, downspiral, volcano, zigzag)");
  }
  return out;
}

}  // namespace machining
