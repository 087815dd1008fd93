#include "compute/machining/io/gcode.h"

#include "compute/io/input.h"
#include "compute/machining/io/tool.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <sstream>
#include <stdexcept>

namespace machining {

namespace {

constexpr double kPi = 3.14159265358979323846;

struct Block {                  // one line's words
  std::vector<int> g;           // G codes in tenths (G90.1: 901)
  std::vector<double> m;        // M codes
  std::map<char, double> word;  // every other word
  bool has(char c) const { return word.count(c) != 0; }
};

class Interpreter {
 public:
  Interpreter(const std::string& name, float step) : name_(name), step_(step) {}
  bool ended = false;  // M2 / M30
  Gcode out;

  void line(const std::string& text, int lineno) {
    line_ = lineno;
    Block b = words(text);
    if (b.g.empty() && b.m.empty() && b.word.empty()) return;
    settings(b);
    for (double m : b.m) {
      if (m == 2 || m == 30)
        ended = true;
      else
        ignore(std::string(1, 'M').append(number(m)));
    }
    motion_words(b);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(name_ + ":" + std::to_string(line_) + ": " + what);
  }
  static std::string number(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
  }
  void ignore(const std::string& w) {
    auto& list = out.summary.ignored;
    if (std::find(list.begin(), list.end(), w) == list.end()) list.push_back(w);
  }

  // The words of a line: comments, spaces (as LinuxCNC, "X1 0" is X10), '%' and a leading
  // '/' dropped. `spaced[k]`: a blank came before clean[k] (so "X1 E2" is X1 and a printer's
  // E2, "X1E2" an exponent).
  Block words(const std::string& text) {
    std::string clean;
    std::vector<bool> spaced;
    bool blank = false;
    int depth = 0;
    for (char ch : text) {
      if (ch == '(') {
        if (depth) fail("a comment inside a comment");
        ++depth;
      } else if (ch == ')') {
        if (depth == 0) fail("')' without '('");
        --depth;
      } else if (!depth && ch == ';') {
        break;
      } else if (!depth && std::isspace(static_cast<unsigned char>(ch))) {
        blank = true;
      } else if (!depth && ch != '%') {
        clean += char(std::toupper(static_cast<unsigned char>(ch)));
        spaced.push_back(blank);
        blank = false;
      }
    }
    if (depth) fail("unclosed '('");
    Block b;
    for (size_t i = !clean.empty() && clean[0] == '/'; i < clean.size();) {  // '/': block delete, the switch off
      char letter = clean[i++];
      if (!std::isalpha(static_cast<unsigned char>(letter))) fail(std::string("unexpected '") + letter + "'");
      if (letter == 'O') fail("O-word subroutines and loops are not read");
      size_t at = i + (i + 1 < clean.size() && clean[i] == '+' && clean[i + 1] != '-');
      double v = 0;
      auto [end, ec] = std::from_chars(clean.data() + at, clean.data() + clean.size(), v, std::chars_format::fixed);
      if (ec != std::errc() || end == clean.data() + at) fail(std::string("'") + letter + "' needs a number");
      i = size_t(end - clean.data());
      if (std::string("XYZIJKABR").find(letter) != std::string::npos && i + 1 < clean.size() && clean[i] == 'E' &&
          !spaced[i] && std::string("+-0123456789.").find(clean[i + 1]) != std::string::npos)
        fail(std::string("'") + letter + "': a number with an exponent is not G-code");
      if (!std::isfinite(v) || std::fabs(v) > kMaxCoordinate) fail(std::string("'") + letter + "' is beyond +-1e6");
      if (letter == 'G') {
        int tenths = int(std::lround(v * 10));
        if (std::fabs(v * 10 - tenths) > 1e-6) fail(std::string(1, 'G').append(number(v)).append(" is not a G code"));
        b.g.push_back(tenths);
      } else if (letter == 'M') {
        b.m.push_back(v);
      } else {
        if (b.has(letter)) fail(std::string("'") + letter + "' twice");
        b.word[letter] = v;
      }
    }
    return b;
  }

  // The modes a line sets, and the codes accepted without effect or refused.
  void settings(const Block& b) {
    home_ = 0;
    for (int g : b.g) {
      std::string name = std::string(1, 'G').append(number(g / 10.0));
      switch (g) {
        case 0:
        case 10:
        case 20:
        case 30:
          if (std::count_if(b.g.begin(), b.g.end(), [](int c) { return c == 0 || c == 10 || c == 20 || c == 30; }) > 1)
            fail("two motion codes (G0, G1, G2, G3) in one line");
          motion_ = g / 10;
          break;
        case 800:
          motion_ = -1;
          break;
        case 170:
          plane_ = 0;
          break;
        case 180:
          plane_ = 1;
          break;
        case 190:
          plane_ = 2;
          break;
        case 200:
          scale_ = 25.4, out.summary.inches = true;
          break;
        case 210:
          scale_ = 1;
          break;
        case 900:
          absolute_ = true;
          break;
        case 910:
          absolute_ = false;
          break;
        case 901:
          centre_absolute_ = true;
          break;
        case 911:
          centre_absolute_ = false;
          break;
        case 280:
        case 300:
          home_ = g;
          break;
        case 281:
          homes_[0] = cur_;
          break;
        case 301:
          homes_[1] = cur_;
          break;
        case 40:
        case 400:
        case 490:
        case 540:
        case 610:
        case 611:
        case 640:
        case 930:
        case 940:
          ignore(name);
          break;
        case 410:
        case 411:
        case 420:
        case 421:
          fail(name +
               ": cutter radius compensation moves the path by the tool's radius and is not simulated (write "
               "the path of the tool's tip)");
        case 430:
        case 431:
        case 432:
          fail(name + ": tool length offsets are not simulated");
        case 920:
        case 921:
        case 922:
        case 923:
          if (g == 920 && !b.has('X') && !b.has('Y') && !b.has('Z')) {  // G92 E0: the extruder of a printer
            ignore("G92 (no X Y Z)");
            break;
          }
          fail(name + ": coordinate system offsets are not simulated");
        case 550:
        case 560:
        case 570:
        case 580:
        case 590:
        case 591:
        case 592:
        case 593:
          fail(name + ": the work offset's values are not in the file");
        default:
          if ((g >= 730 && g <= 890 && g % 10 == 0) || g == 760) fail(name + ": canned cycles are not simulated");
          fail(name + " is not supported");
      }
    }
    for (auto& [c, v] : b.word) {
      if (std::string("XYZIJKABRPN").find(c) != std::string::npos) continue;
      if (c == 'Q' || c == 'F' || c == 'S' || c == 'T' || c == 'H' || c == 'D' || c == 'E')
        ignore(std::string(1, c));
      else if (c == 'C' || c == 'U' || c == 'V' || c == 'W')
        fail(std::string("the ") + c + " axis is not simulated");
      else
        fail(std::string("unknown word '") + c + "'");
    }
    bool g4 = std::count(b.g.begin(), b.g.end(), 40) || std::count(b.g.begin(), b.g.end(), 640);
    if (b.has('P') && g4) ignore("P");
  }

  glm::dvec3 target(const Block& b, glm::dvec3 from) const {
    for (int c = 0; c < 3; ++c)
      if (char l = "XYZ"[c]; b.has(l)) from[c] = (absolute_ ? 0.0 : from[c]) + b.word.at(l) * scale_;
    return from;
  }

  void motion_words(const Block& b) {
    bool xyz = b.has('X') || b.has('Y') || b.has('Z'), ijk = b.has('I') || b.has('J') || b.has('K');
    bool ab = b.has('A') || b.has('B');
    if (home_) {  // G28 / G30: home; with axis words, through their point, then those axes home
      glm::dvec3 home = homes_[home_ == 300];
      if (xyz) {
        linear(target(b, cur_), axis_, true);
        for (int c = 0; c < 3; ++c)
          if (!b.has("XYZ"[c])) home[c] = cur_[c];
      }
      linear(home, axis_, true);
      ++out.summary.moves;
      return;
    }
    if (!xyz && !ijk && !ab && !b.has('R')) {
      if (b.has('P') && !std::count(b.g.begin(), b.g.end(), 40) && !std::count(b.g.begin(), b.g.end(), 640))
        fail("'P' without G4, G64 or an arc");
      return;
    }
    if (motion_ < 0) fail("coordinates with no motion mode (G0, G1, G2, G3)");
    if (motion_ <= 1) {
      if (b.has('R') || b.has('P')) fail("'R' and 'P' belong to arcs (G2, G3)");
      if (ijk && ab) fail("both I J K and A B give the tool axis");
      glm::dvec3 axis = axis_;
      if (ijk)
        axis = glm::dvec3(b.has('I') ? b.word.at('I') : 0, b.has('J') ? b.word.at('J') : 0,
                          b.has('K') ? b.word.at('K') : 0);
      if (ab) {  // +z rotated about x by A, then about y by B
        double a = (b.has('A') ? b.word.at('A') : 0) * kPi / 180, c = (b.has('B') ? b.word.at('B') : 0) * kPi / 180;
        glm::dvec3 z(0, -std::sin(a), std::cos(a));
        axis = {z.x * std::cos(c) + z.z * std::sin(c), z.y, -z.x * std::sin(c) + z.z * std::cos(c)};
      }
      double l = glm::length(axis);
      if (!(l > 1e-6)) fail("the tool axis (I J K) is zero");
      linear(target(b, cur_), axis / l, motion_ == 0);
      ++out.summary.moves;
    } else {
      if (ab) fail("'A' and 'B' (the tool axis) belong to G0 and G1");
      if (!xyz) fail("an arc needs its end: at least one of X, Y, Z");
      arc(motion_ == 3, target(b, cur_), b);
      ++out.summary.arcs;
    }
  }

  void emit(glm::dvec3 p, glm::dvec3 axis) {
    if (glm::any(glm::greaterThan(glm::abs(p), glm::dvec3(kMaxCoordinate))))
      fail("the path leaves +-1e6 mm (units, incremental moves or an arc took it there)");
    if (out.positions.size() == kMaxPositions)
      fail("the path passes " + std::to_string(kMaxPositions) + " positions at the chosen step (" +
           std::to_string(step_) + ")");
    Position q;
    q.tip = glm::vec3(p), q.axis = glm::vec3(axis);
    auto& s = out.summary;
    if (out.positions.empty()) s.lo = s.hi = p;
    s.lo = glm::min(s.lo, p), s.hi = glm::max(s.hi, p);
    out.positions.push_back(q);
  }
  // The first move starts the path at its end (where the tool was before is unknown).
  bool start(glm::dvec3 to, glm::dvec3 axis) {
    if (!out.positions.empty()) return false;
    emit(to, axis);
    cur_ = to, axis_ = axis;
    return true;
  }
  size_t steps(double length) const {
    double n = std::max(1.0, std::ceil(length / step_));
    if (double(out.positions.size()) + n > double(kMaxPositions))
      fail("the path passes " + std::to_string(kMaxPositions) + " positions at the chosen step (" +
           std::to_string(step_) + ")");
    return size_t(n);
  }

  void linear(glm::dvec3 to, glm::dvec3 axis, bool rapid) {
    if (start(to, axis)) return;
    double len = glm::length(to - cur_);
    size_t n = steps(len);
    for (size_t k = 1; k <= n; ++k) {
      double t = double(k) / double(n);
      glm::dvec3 ax = axis_ + t * (axis - axis_);
      emit(cur_ + t * (to - cur_), glm::length(ax) > 1e-6 ? glm::normalize(ax) : axis);
    }
    (rapid ? out.summary.rapid : out.summary.length) += len;
    cur_ = to, axis_ = axis;
  }

  // G2 / G3 in the plane (first axis a, second b, normal c: G17 X Y Z, G18 Z X Y, G19 Y Z X).
  void arc(bool ccw, glm::dvec3 to, const Block& b) {
    static const int kAxes[3][3] = {{0, 1, 2}, {2, 0, 1}, {1, 2, 0}};
    const int A = kAxes[plane_][0], B = kAxes[plane_][1], C = kAxes[plane_][2];
    const char oa = "IJK"[A], ob = "IJK"[B];
    if (b.has("IJK"[C]))
      fail(std::string("'") + "IJK"[C] + "' is not in the arc's plane (G" + std::to_string(17 + plane_) + ")");
    glm::dvec3 from = cur_;
    double sa = from[A], sb = from[B], ea = to[A], eb = to[B], ca, cb;
    if (b.has('R')) {
      if (b.has(oa) || b.has(ob)) fail("an arc has either a radius R or a centre, not both");
      double r = b.word.at('R') * scale_, dx = ea - sa, dy = eb - sb, d = std::hypot(dx, dy);
      if (d < 1e-9) fail("a full circle needs its centre (I J K), not R");
      if (std::fabs(r) < d / 2 - 1e-6) fail("the radius R " + number(r) + " is shorter than half the chord");
      double h = std::sqrt(std::max(0.0, r * r - d * d / 4)), side = (ccw ? 1.0 : -1.0) * (r > 0 ? 1.0 : -1.0);
      ca = (sa + ea) / 2 - side * h * dy / d, cb = (sb + eb) / 2 + side * h * dx / d;
    } else {
      if (!b.has(oa) && !b.has(ob)) fail("an arc needs its centre (I J K) or a radius R");
      if (centre_absolute_ && (!b.has(oa) || !b.has(ob)))
        fail(std::string("an absolute centre (G90.1) needs both ") + oa + " and " + ob);
      double ia = b.has(oa) ? b.word.at(oa) * scale_ : 0, ib = b.has(ob) ? b.word.at(ob) * scale_ : 0;
      ca = centre_absolute_ ? ia : sa + ia, cb = centre_absolute_ ? ib : sb + ib;
    }
    double rs = std::hypot(sa - ca, sb - cb), re = std::hypot(ea - ca, eb - cb);
    if (rs < 1e-9) fail("the arc's centre is its start");
    // LinuxCNC's test: more than 0.5 mm apart, or more than 0.005 mm and 0.1 % of the radius
    if (double diff = std::fabs(rs - re); diff > 0.5 || (diff > 0.005 && diff > 1e-3 * rs))
      fail("the arc's end is not on its circle: radius " + number(rs) + " at the start, " + number(re) + " at the end");
    double ts = std::atan2(sb - cb, sa - ca), d = std::atan2(eb - cb, ea - ca) - ts;
    if (ccw && d <= 1e-12) d += 2 * kPi;
    if (!ccw && d >= -1e-12) d -= 2 * kPi;
    if (b.has('P')) {
      double p = b.word.at('P');
      if (p < 1 || p != std::floor(p)) fail("'P' (turns) must be a whole number from 1");
      d += (ccw ? 2 : -2) * kPi * (p - 1);
    }
    start(from, axis_);  // an arc first: the path starts where the tool is
    double len = std::hypot(std::fabs(d) * (rs + re) / 2, to[C] - from[C]);
    size_t n = steps(len);
    for (size_t k = 1; k <= n; ++k) {
      double t = double(k) / double(n), ang = ts + d * t, r = rs + (re - rs) * t;
      glm::dvec3 p;
      p[A] = ca + r * std::cos(ang), p[B] = cb + r * std::sin(ang), p[C] = from[C] + (to[C] - from[C]) * t;
      emit(k == n ? to : p, axis_);
    }
    out.summary.length += len;
    cur_ = to;
  }

  std::string name_;
  float step_;
  int line_ = 0;
  int motion_ = -1, plane_ = 0, home_ = 0;
  double scale_ = 1;
  bool absolute_ = true, centre_absolute_ = false;
  glm::dvec3 cur_{0.0}, axis_{0.0, 0.0, 1.0}, homes_[2] = {glm::dvec3(0.0), glm::dvec3(0.0)};
};

}  // namespace

std::string describe(const GcodeSummary& s) {
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(2);
  o << s.lines << " lines: " << s.moves << " moves, " << s.arcs << " arcs, " << s.length << " mm cutting and "
    << s.rapid << " mm rapid (G0, G28), within (" << s.lo.x << ", " << s.lo.y << ", " << s.lo.z << ") .. (" << s.hi.x
    << ", " << s.hi.y << ", " << s.hi.z << ") mm" << (s.inches ? " (inches read as 25.4 mm)" : "");
  for (size_t i = 0; i < s.ignored.size(); ++i) o << (i ? ", " : "; ignored: ") << s.ignored[i];
  return o.str();
}

bool is_gcode_file(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".nc" || ext == ".ngc" || ext == ".gcode" || ext == ".tap";
}

Gcode read_gcode(const std::filesystem::path& path, float step) {
  return parse_gcode(io::read_input(path), path.string(), step);
}

Gcode parse_gcode(const std::string& data, const std::string& name, float step) {
  if (!(step >= 1e-4f)) throw std::invalid_argument("G-code: the interpolation step must be at least 1e-4");
  Interpreter g(name, step);
  std::istringstream f(data);
  std::string line;
  int lineno = 0;
  bool opened = false, started = false;  // a program opened by a '%' line ends at the next
  while (!g.ended && std::getline(f, line)) {
    ++lineno;
    size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string::npos && line[first] == '%') {
      if (opened) break;
      opened = !started;
      continue;
    }
    started = started || first != std::string::npos;
    g.line(line, lineno);
  }
  g.out.summary.lines = size_t(lineno);
  if (g.out.positions.empty()) throw std::runtime_error(name + ":" + std::to_string(lineno) + ": no moves");
  return std::move(g.out);
}

}  // namespace machining
