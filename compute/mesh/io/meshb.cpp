#include "compute/mesh/io/meshb.h"

#include "compute/io/input.h"
#include "compute/mesh/parallel.h"

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <type_traits>

namespace mesh {

namespace {
constexpr int kDimension = kGmfDimension, kEnd = kGmfEnd, kVersion = 1;
const Kind kKinds[] = {Kind::Vertices,   Kind::Edges,    Kind::Triangles, Kind::Quadrilaterals,
                       Kind::Tetrahedra, Kind::Pyramids, Kind::Prisms,    Kind::Hexahedra};
// Keywords skipped in ASCII files: a count, then that many lines of `width` integers.
struct Skippable {
  const char* name;
  int width;
};
const Skippable kSkippable[] = {{"Corners", 1},           {"RequiredVertices", 1},  {"Ridges", 1},
                                {"RequiredEdges", 1},     {"RequiredTriangles", 1}, {"RequiredQuadrilaterals", 1},
                                {"RequiredTetrahedra", 1}};

// Coordinates past this cannot go through the GPU kernels' single precision: squares and
// volumes would overflow.
constexpr double kMaxCoordinate = 1e9;

// Solution values must fit the GPU's floats.
constexpr double kMaxValue = FLT_MAX;

std::string magnitude(double limit) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", limit);
  return b;
}

bool same(const std::string& a, const char* b) {
  return a.size() == std::strlen(b) &&
         std::equal(a.begin(), a.end(), b, [](char x, char y) { return std::tolower(x) == std::tolower(y); });
}

// ---- ASCII ----
class Text {
 public:
  Text(const std::string& data, const std::string& name) : name_(name), data_(data) {}
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(name_ + ": line " + std::to_string(line_) + ": " + what);
  }
  // `count` lines of `tokens` numbers each take at least two bytes a number.
  void claim(int64_t count, uint64_t tokens, const std::string& what) const {
    if (count < 0 || !io::fits(uint64_t(count), 2 * tokens, data_.size() - pos_ + 1))
      fail(what + " count " + std::to_string(count) + " does not fit in the rest of the file");
  }
  bool next(std::string& tok) {
    for (;;) {
      while (pos_ < data_.size() && std::isspace(static_cast<unsigned char>(data_[pos_])))
        if (data_[pos_++] == '\n') ++line_;
      if (pos_ < data_.size() && data_[pos_] == '#') {
        while (pos_ < data_.size() && data_[pos_] != '\n') ++pos_;
        continue;
      }
      break;
    }
    if (pos_ >= data_.size()) return false;
    size_t b = pos_;
    while (pos_ < data_.size() && !std::isspace(static_cast<unsigned char>(data_[pos_]))) ++pos_;
    tok = data_.substr(b, pos_ - b);
    return true;
  }
  std::string word(const char* what) {
    std::string t;
    if (!next(t)) fail(std::string("the file ends where ") + what + " should be");
    return t;
  }
  double real(const char* what, double limit) {
    std::string t = word(what);
    size_t used = 0;
    double v = 0;
    try {
      v = std::stod(t, &used);
    } catch (...) {
      used = 0;
    }
    if (used != t.size() || !std::isfinite(v)) fail("'" + t + "' is not a finite number (" + what + ")");
    if (std::fabs(v) > limit) fail("'" + t + "' is beyond +-" + magnitude(limit) + " (" + what + ")");
    return v;
  }
  int64_t integer(const char* what) {
    std::string t = word(what);
    size_t used = 0;
    long long v = 0;
    try {
      v = std::stoll(t, &used);
    } catch (...) {
      used = 0;
    }
    if (used != t.size()) fail("'" + t + "' is not an integer (" + what + ")");
    return v;
  }

 private:
  std::string name_;
  const std::string& data_;
  size_t pos_ = 0;
  int line_ = 1;
};

// ---- binary ----
class Bytes {
 public:
  Bytes(const std::string& data, const std::string& name) : name_(name), data_(data) {
    if (data_.size() < 8) fail("too short for a GMF header");
    int32_t code = i32();
    if (code == 16777216)
      swap_ = true;
    else if (code != 1)
      at_ = 0, fail("not a GMF binary file (the first integer is " + std::to_string(code) + ", not 1)");
    version = i32();
    if (version < 1 || version > 4) at_ = 4, fail("unknown GMF version " + std::to_string(version) + " (1 to 4)");
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(name_ + ": offset " + std::to_string(at_) + ": " + what);
  }
  void claim(int64_t count, uint64_t bytes_each, const std::string& what) const {
    if (count < 0 || !io::fits(uint64_t(count), bytes_each, data_.size() - at_))
      fail(what + " count " + std::to_string(count) + " does not fit in the rest of the file");
  }
  void need(size_t n) const {
    if (at_ + n > data_.size()) fail("the file ends inside a keyword");
  }
  template <class T>
  T get() {
    need(sizeof(T));
    T v = decode<T>(data_.data() + at_);
    at_ += sizeof(T);
    return v;
  }
  // The value at `p` in the file's byte order.
  template <class T>
  T decode(const char* p) const {
    T v;
    char b[sizeof(T)];
    std::memcpy(b, p, sizeof(T));
    if (swap_) std::reverse(b, b + sizeof(T));
    std::memcpy(&v, b, sizeof(T));
    return v;
  }
  const char* here() const { return data_.data() + at_; }
  int32_t i32() { return get<int32_t>(); }
  int64_t integer() { return version >= 4 ? get<int64_t>() : get<int32_t>(); }
  int64_t position() { return version >= 3 ? get<int64_t>() : get<int32_t>(); }
  double real(double limit) {
    double v = version == 1 ? double(get<float>()) : get<double>();
    if (!std::isfinite(v)) at_ -= version == 1 ? 4 : 8, fail("a real is not finite");
    if (std::fabs(v) > limit) at_ -= version == 1 ? 4 : 8, fail("a real is beyond +-" + magnitude(limit));
    return v;
  }
  size_t at_ = 0;
  int version = 0;
  size_t size() const { return data_.size(); }

 private:
  std::string name_;
  const std::string& data_;
  bool swap_ = false;
};

int kind_index(Kind k) { return int(std::find(std::begin(kKinds), std::end(kKinds), k) - std::begin(kKinds)); }
}  // namespace

bool gmf_binary(const std::filesystem::path& p) {
  auto e = p.extension().string();
  return !e.empty() && e.back() == 'b';
}

const char* kind_name(Kind k) {
  static const char* n[] = {"Vertices",   "Edges",    "Triangles", "Quadrilaterals",
                            "Tetrahedra", "Pyramids", "Prisms",    "Hexahedra"};
  return n[kind_index(k)];
}
uint32_t nodes_of(Kind k) {
  static const uint32_t n[] = {1, 2, 3, 4, 4, 5, 6, 8};
  return n[kind_index(k)];
}
int keyword_of(Kind k) {
  static const int n[] = {4, 5, 6, 7, 8, 49, 9, 10};
  return n[kind_index(k)];
}
int solution_keyword_of(Kind k) {
  static const int n[] = {62, 63, 64, 65, 66, 26, 67, 68};
  return n[kind_index(k)];
}

const Elements* Mesh::find(Kind k) const {
  for (auto& e : elements)
    if (e.kind == k) return &e;
  return nullptr;
}

size_t Solution::width(int dim) const {
  size_t w = 0;
  for (int t : types) w += t == 1 ? 1 : t == 2 ? size_t(dim) : t == 3 ? size_t(dim * (dim + 1) / 2) : size_t(dim * dim);
  return w;
}

namespace {

// A binary file's elements, `n` records of fixed size, parsed on every core; false (nothing
// read) where one is wrong, for the serial reader to say which and why.
bool read_binary_elements(Bytes& in, Mesh& m, Kind k, int64_t n, Elements& e) {
  const uint32_t nodes = nodes_of(k);
  const size_t isz = in.version >= 4 ? 8 : 4, record = (nodes + 1) * isz;
  in.need(size_t(n) * record);
  const char* base = in.here();
  auto integer = [&](const char* p) { return isz == 8 ? in.decode<int64_t>(p) : int64_t(in.decode<int32_t>(p)); };
  e.kind = k;
  e.v.resize(size_t(n) * nodes);
  e.ref.resize(size_t(n));
  std::atomic<bool> wrong{false};
  const uint64_t vertices = m.vertices();
  parallel_for(size_t(n), [&](size_t from, size_t to) {
    bool bad = false;
    for (size_t l = from; l < to && !bad; ++l) {
      const char* r = base + l * record;
      uint32_t* v = &e.v[l * nodes];
      for (uint32_t c = 0; c < nodes; ++c) {
        int64_t idx = integer(r + c * isz);
        bad |= idx < 1 || uint64_t(idx) > vertices;
        v[c] = uint32_t(uint64_t(idx) - 1);  // unsigned: a wrong index (INT64_MIN too) wraps, and is refused
        for (uint32_t d = 0; d < c; ++d) bad |= v[d] == v[c];
      }
      e.ref[l] = integer(r + nodes * isz);
    }
    if (bad) wrong = true;
  });
  if (wrong) return false;
  in.at_ += size_t(n) * record;
  return true;
}

template <class Src>
void read_elements(Src& in, Mesh& m, Kind k, int64_t n) {
  Elements e;
  if constexpr (std::is_same_v<Src, Bytes>) {
    if (read_binary_elements(in, m, k, n, e)) {
      m.elements.push_back(std::move(e));
      return;
    }
    e = Elements{};  // a wrong record: read again one by one, to say where
  }
  e.kind = k;
  uint32_t nodes = nodes_of(k);
  e.v.reserve(size_t(n) * nodes);
  e.ref.reserve(size_t(n));
  for (int64_t l = 0; l < n; ++l) {
    for (uint32_t c = 0; c < nodes; ++c) {
      int64_t idx;
      if constexpr (std::is_same_v<Src, Text>)
        idx = in.integer("a vertex index");
      else
        idx = in.integer();
      if (idx < 1 || uint64_t(idx) > m.vertices())
        in.fail(std::string(kind_name(k)) + " " + std::to_string(l + 1) + ": vertex " + std::to_string(idx) +
                " is not in 1.." + std::to_string(m.vertices()));
      e.v.push_back(uint32_t(idx - 1));
    }
    auto first = e.v.end() - nodes;
    for (auto a = first; a != e.v.end(); ++a)
      if (std::find(first, a, *a) != a)
        in.fail(std::string(kind_name(k)) + " " + std::to_string(l + 1) + ": vertex " + std::to_string(*a + 1) +
                " appears twice (a degenerate element)");
    if constexpr (std::is_same_v<Src, Text>)
      e.ref.push_back(in.integer("a reference"));
    else
      e.ref.push_back(in.integer());
  }
  m.elements.push_back(std::move(e));
}
}  // namespace

namespace {

// The keyword loop both readers share: the header, Dimension and End, the next-keyword
// positions (binary) and the skippable keywords (ASCII). `binary(kwd, in, dim)` and
// `text(word, in, dim)` read a keyword of the caller's and return true, or return false for
// one they do not know (skipped where the file says how, an error otherwise). Returns the
// dimension.
int walk(const std::string& data, const std::string& name, bool is_binary,
         const std::function<bool(int32_t, Bytes&, int)>& binary,
         const std::function<bool(const std::string&, Text&, int)>& text) {
  int dim = 0;
  auto set_dim = [&](int64_t d, auto& in) {
    if (dim) in.fail("a second Dimension keyword");
    if (d != 2 && d != 3) in.fail("dimension " + std::to_string(d) + " (2 or 3)");
    dim = int(d);
  };
  if (is_binary) {
    Bytes in(data, name);
    while (true) {
      if (in.at_ == in.size()) in.fail("no End keyword");
      size_t start = in.at_;
      int32_t kwd = in.i32();
      int64_t next = in.position();
      if (kwd == kEnd) break;
      if (next != 0 && (next <= int64_t(start) || uint64_t(next) > in.size()))
        in.at_ = start, in.fail("keyword " + std::to_string(kwd) + ": next-keyword position " + std::to_string(next) +
                                " is outside the file");
      bool known = kwd == kDimension;
      if (known)
        set_dim(in.i32(), in);
      else
        known = binary(kwd, in, dim);
      if (!known && next == 0) in.fail("keyword " + std::to_string(kwd) + " cannot be skipped (no next position)");
      if (next == 0) continue;
      if (known && uint64_t(next) != in.at_)
        in.fail("keyword " + std::to_string(kwd) + " ends at " + std::to_string(in.at_) + " but its header says " +
                std::to_string(next));
      in.at_ = size_t(next);
    }
  } else {
    Text in(data, name);
    std::string w;
    bool ended = false;
    while (in.next(w)) {
      if (same(w, "MeshVersionFormatted")) {
        int64_t v = in.integer("the version");
        if (v < 1 || v > 4) in.fail("unknown version " + std::to_string(v));
      } else if (same(w, "Dimension")) {
        set_dim(in.integer("the dimension"), in);
      } else if (same(w, "End")) {
        ended = true;
        break;
      } else if (text(w, in, dim)) {
      } else if (auto sk = std::find_if(std::begin(kSkippable), std::end(kSkippable),
                                        [&](const Skippable& s) { return same(w, s.name); });
                 sk != std::end(kSkippable)) {
        int64_t n = in.integer("a count");
        in.claim(n, sk->width, sk->name);
        for (int64_t l = 0; l < n * sk->width; ++l) in.integer("an index");
      } else {
        in.fail("unknown keyword '" + w + "'");
      }
    }
    if (!ended) in.fail("no End keyword");
  }
  if (!dim) throw std::runtime_error(name + ": no Dimension keyword");
  return dim;
}

}  // namespace

Mesh read_mesh(const std::filesystem::path& path) {
  return parse_mesh(io::read_input(path), path.string(), gmf_binary(path));
}

Mesh parse_mesh(const std::string& data, const std::string& name, bool binary) {
  Mesh m;
  auto kind_of = [](auto match) { return std::find_if(std::begin(kKinds), std::end(kKinds), match); };
  auto read_vertices = [&](auto& in, int64_t n, auto real, auto integer) {
    if (m.vertices()) in.fail("a second Vertices keyword");
    for (int64_t l = 0; l < n; ++l) {
      for (int c = 0; c < m.dim; ++c) m.xyz.push_back(real(kMaxCoordinate));
      m.vref.push_back(integer());
    }
  };
  m.dim = walk(
      data, name, binary,
      [&](int32_t kwd, Bytes& in, int dim) {
        auto it = kind_of([&](Kind k) { return keyword_of(k) == kwd; });
        if (it == std::end(kKinds)) return false;
        if (!dim) in.fail("a mesh keyword before Dimension");
        m.dim = dim;
        int64_t n = in.integer();
        size_t per =
            *it == Kind::Vertices ? m.dim * (in.version == 1 ? 4 : 8) : nodes_of(*it) * (in.version >= 4 ? 8 : 4);
        per += in.version >= 4 ? 8 : 4;
        in.claim(n, per, kind_name(*it));
        if (*it == Kind::Vertices) {
          read_vertices(
              in, n, [&](double limit) { return in.real(limit); }, [&] { return in.integer(); });
        } else {
          if (m.find(*it)) in.fail(std::string("a second ") + kind_name(*it) + " keyword");
          read_elements(in, m, *it, n);
        }
        return true;
      },
      [&](const std::string& w, Text& in, int dim) {
        auto it = kind_of([&](Kind k) { return same(w, kind_name(k)); });
        if (it == std::end(kKinds)) return false;
        if (!dim) in.fail(w + " before Dimension");
        m.dim = dim;
        int64_t n = in.integer("a count");
        in.claim(n, (*it == Kind::Vertices ? m.dim : nodes_of(*it)) + 1, kind_name(*it));
        if (*it == Kind::Vertices) {
          read_vertices(
              in, n, [&](double limit) { return in.real("a coordinate", limit); },
              [&] { return in.integer("a reference"); });
        } else {
          if (m.find(*it)) in.fail(std::string("a second ") + kind_name(*it) + " keyword");
          read_elements(in, m, *it, n);
        }
        return true;
      });
  if (!m.vertices()) throw std::runtime_error(name + ": no vertices");
  return m;
}

Solutions read_solution(const std::filesystem::path& path) {
  return parse_solution(io::read_input(path), path.string(), gmf_binary(path));
}

Solutions parse_solution(const std::string& data, const std::string& name, bool binary) {
  Solutions s;
  auto kind_of = [](auto match) { return std::find_if(std::begin(kKinds), std::end(kKinds), match); };
  s.dim = walk(
      data, name, binary,
      [&](int32_t kwd, Bytes& in, int dim) {
        auto it = kind_of([&](Kind k) { return solution_keyword_of(k) == kwd; });
        if (it == std::end(kKinds)) return false;
        if (!dim) in.fail("a solution before Dimension");
        Solution f{*it, {}, {}};
        int64_t n = in.integer();
        int32_t nt = in.i32();
        if (nt < 1 || nt > 1000) in.fail(std::to_string(nt) + " field types");
        for (int t = 0; t < nt; ++t) {
          int32_t ty = in.i32();
          if (ty < 1 || ty > 4) in.fail("field type " + std::to_string(ty) + " (1 to 4)");
          f.types.push_back(ty);
        }
        size_t width = f.width(dim);
        in.claim(n, width * (in.version == 1 ? 4 : 8), "solution");
        for (int64_t l = 0; l < n * int64_t(width); ++l) f.values.push_back(in.real(kMaxValue));
        s.fields.push_back(std::move(f));
        return true;
      },
      [&](const std::string& w, Text& in, int dim) {
        auto it = kind_of([&](Kind k) { return same(w, (std::string("SolAt") + kind_name(k)).c_str()); });
        if (it == std::end(kKinds)) return false;
        if (!dim) in.fail(w + " before Dimension");
        Solution f{*it, {}, {}};
        int64_t n = in.integer("a count");
        int64_t nt = in.integer("the number of field types");
        if (nt < 1 || nt > 1000) in.fail(std::to_string(nt) + " field types (1 to 1000)");
        for (int64_t t = 0; t < nt; ++t) {
          int64_t ty = in.integer("a field type");
          if (ty < 1 || ty > 4) in.fail("field type " + std::to_string(ty) + " (1 to 4)");
          f.types.push_back(int(ty));
        }
        in.claim(n, f.width(dim), "solution");
        for (int64_t l = 0; l < n * int64_t(f.width(dim)); ++l) f.values.push_back(in.real("a value", kMaxValue));
        s.fields.push_back(std::move(f));
        return true;
      });
  return s;
}

}  // namespace mesh
