#include "path.h"

#include "io/input.h"
#include "tool.h"

#include <cmath>
#include <fstream>
#include <map>
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
  std::ofstream f(path);
  f << "# x y z i j k omega\n";
  for (auto& p : ps)
    f << p.tip.x << ' ' << p.tip.y << ' ' << p.tip.z << ' ' << p.axis.x << ' ' << p.axis.y << ' ' << p.axis.z << ' '
      << p.omega << '\n';
  if (!f) throw std::runtime_error(path.string() + ": cannot write");
}

std::vector<Position> read_gcode(const std::filesystem::path& path, float step) {
  return parse_gcode(io::read_input(path), path.string(), step);
}

// Long: one G-code word per branch of a single line loop, kept together so the modal state reads in one place.
std::vector<Position> parse_gcode(const std::string& data, const std::string& path, float step) {
  if (!(step >= 1e-4f)) throw std::invalid_argument("G-code: the interpolation step must be at least 1e-4");
  std::istringstream f(data);
  std::vector<Position> out;
  Position cur;
  bool have = false;
  int motion = -1;
  std::string line;
  int lineno = 0;
  while (std::getline(f, line)) {
    ++lineno;
    if (auto s = line.find(';'); s != std::string::npos) line.resize(s);
    std::string clean;
    int depth = 0;
    for (char ch : line) {  // drop (comments)
      if (ch == '(')
        ++depth;
      else if (ch == ')') {
        if (depth == 0) fail(path, lineno, "')' without '('");
        --depth;
      } else if (!depth)
        clean += char(std::toupper(static_cast<unsigned char>(ch)));
    }
    if (depth) fail(path, lineno, "unclosed '('");
    std::map<char, float> words;
    size_t i = 0;
    while (i < clean.size()) {
      char letter = clean[i];
      if (std::isspace(static_cast<unsigned char>(letter)) || letter == '%') {
        ++i;
        continue;
      }
      if (!std::isalpha(static_cast<unsigned char>(letter)))
        fail(path, lineno, std::string("unexpected '") + letter + "'");
      size_t used = 0;
      float value = 0;
      try {
        value = std::stof(clean.substr(i + 1), &used);
      } catch (...) {
        fail(path, lineno, std::string("'") + letter + "' needs a number");
      }
      if (!std::isfinite(value)) fail(path, lineno, std::string("'") + letter + "' is not finite");
      if (std::fabs(value) > kMaxCoordinate) fail(path, lineno, std::string("'") + letter + "' is beyond +-1e6");
      i += 1 + used;
      if (letter == 'G') {
        int g = value == std::floor(value) ? int(value) : -1;
        if (g == 0 || g == 1)
          motion = g;
        else if (g != 17 && g != 21 && g != 90 && g != 94)
          fail(path, lineno, "G" + std::to_string(g) + " is not supported (G0, G1, G17, G21, G90, G94)");
        continue;
      }
      if (std::string("XYZIJKAB").find(letter) != std::string::npos) {
        if (words.count(letter)) fail(path, lineno, std::string("'") + letter + "' twice");
        words[letter] = value;
      } else if (std::string("FSMTNHDP").find(letter) == std::string::npos) {
        fail(path, lineno, std::string("unknown word '") + letter + "'");
      }
    }
    if (words.empty()) continue;
    if (motion < 0) fail(path, lineno, "coordinates before any G0/G1");
    Position next = cur;
    if (words.count('X')) next.tip.x = words['X'];
    if (words.count('Y')) next.tip.y = words['Y'];
    if (words.count('Z')) next.tip.z = words['Z'];
    bool ijk = words.count('I') || words.count('J') || words.count('K');
    bool ab = words.count('A') || words.count('B');
    if (ijk && ab) fail(path, lineno, "both I J K and A B give the tool axis");
    if (ijk)
      next.axis = axis_from(path, lineno,
                            {words.count('I') ? words['I'] : 0.0f, words.count('J') ? words['J'] : 0.0f,
                             words.count('K') ? words['K'] : 0.0f});
    if (ab) {
      float a = (words.count('A') ? words['A'] : 0.0f) * 0.01745329f,
            b = (words.count('B') ? words['B'] : 0.0f) * 0.01745329f;
      // +z rotated about x by A, then about y by B
      glm::vec3 z(0, -std::sin(a), std::cos(a));
      next.axis = {z.x * std::cos(b) + z.z * std::sin(b), z.y, -z.x * std::sin(b) + z.z * std::cos(b)};
    }
    if (!have) {
      out.push_back(next);
      have = true;
    } else {
      double len = glm::length(glm::dvec3(next.tip - cur.tip));
      double steps = std::max(1.0, std::ceil(len / step));
      if (double(out.size()) + steps > double(kMaxPositions))
        fail(path, lineno,
             "the path passes " + std::to_string(kMaxPositions) + " positions at the chosen step (" +
                 std::to_string(step) + ")");
      uint32_t n = uint32_t(steps);
      for (uint32_t k = 1; k <= n; ++k) {
        float t = float(k) / float(n);
        Position p = next;
        p.tip = cur.tip + t * (next.tip - cur.tip);
        glm::vec3 ax = cur.axis + t * (next.axis - cur.axis);
        p.axis = glm::length(ax) > 1e-6f ? glm::normalize(ax) : next.axis;
        out.push_back(p);
      }
    }
    cur = next;
  }
  if (out.empty()) throw std::runtime_error(path + ":" + std::to_string(lineno) + ": no moves");
  return out;
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
    uint32_t rows = std::max(1u, uint32_t(size / stepover));
    uint32_t per_row = std::max(2u, count / rows);
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t k = 0; k < per_row; ++k) {
        float x = size * float(r % 2 ? per_row - 1 - k : k) / float(per_row - 1), y = stepover * (r + 0.5f);
        float depth = 1.0f;
        if (kind == "volcano") {  // a flattened cone with a crater: deeper away from the rim
          float d = std::hypot(x - c, y - c) / (0.5f * size);
          depth = d < 0.25f ? 2.0f - 4.0f * d : std::min(4.0f, 1.0f + 4.0f * (d - 0.25f));
        }
        add(x, y, -depth);
      }
  } else {
    throw std::invalid_argument("unknown path '" + kind + "' (single, random, spiral, downspiral, volcano, zigzag)");
  }
  return out;
}

}  // namespace machining
