#include "compute/mesh/gmlib_dialect.h"

#include "compute/mesh/io/kernel_words.h"
#include "compute/mesh/kernel_text.h"
#include "compute/mesh/links.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace mesh {

namespace {

// A token of a section's text; the output is pre + out + post, so the lines stay as written.
struct GmlToken {
  enum Type { Ident, Number, Punct, Blank, Comment } type;
  std::string text;
  int line = 1;  // in the section
  std::string pre, out, post;
};

std::vector<GmlToken> gml_tokens(const std::string& s) {
  std::vector<GmlToken> out;
  int line = 1;
  size_t i = 0;
  auto is = [&](size_t k, char c) { return k < s.size() && s[k] == c; };
  while (i < s.size()) {
    size_t b = i;
    unsigned char c = static_cast<unsigned char>(s[i]);
    GmlToken::Type t;
    if (c == '/' && is(i + 1, '/')) {
      while (i < s.size() && s[i] != '\n') ++i;
      t = GmlToken::Comment;
    } else if (c == '/' && is(i + 1, '*')) {
      size_t e = s.find("*/", i + 2);
      i = e == std::string::npos ? s.size() : e + 2;
      t = GmlToken::Comment;
    } else if (std::isspace(c)) {
      while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
      t = GmlToken::Blank;
    } else if (std::isalpha(c) || c == '_') {
      while (i < s.size() && words::is_identifier_char(s[i])) ++i;
      t = GmlToken::Ident;
    } else if (std::isdigit(c) ||
               (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      bool hex = c == '0' && (is(i + 1, 'x') || is(i + 1, 'X'));
      ++i;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.' ||
                              (!hex && (s[i] == '+' || s[i] == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E'))))
        ++i;
      t = GmlToken::Number;
    } else {
      ++i;
      t = GmlToken::Punct;
    }
    GmlToken tok{t, s.substr(b, i - b), line, "", s.substr(b, i - b), ""};
    line += int(std::count(tok.text.begin(), tok.text.end(), '\n'));
    out.push_back(std::move(tok));
  }
  return out;
}

// OpenCL's vector types and their GLSL names.
const std::map<std::string, std::string>& opencl_vector_types() {
  static const std::map<std::string, std::string> m = {
      {"float2", "vec2"},   {"float3", "vec3"},   {"float4", "vec4"},     {"int2", "ivec2"},
      {"int3", "ivec3"},    {"int4", "ivec4"},    {"uint2", "uvec2"},     {"uint3", "uvec3"},
      {"uint4", "uvec4"},   {"double2", "dvec2"}, {"double3", "dvec3"},   {"double4", "dvec4"},
      {"uchar", "uint8_t"}, {"char", "int8_t"},   {"ushort", "uint16_t"}, {"short", "int16_t"}};
  return m;
}
bool gml_is_type(const std::string& t) {
  static const std::set<std::string> scalars = {"float", "int",   "uint",  "double", "bool",  "vec2",
                                                "vec3",  "vec4",  "ivec2", "ivec3",  "ivec4", "uvec2",
                                                "uvec3", "uvec4", "dvec2", "dvec3",  "dvec4"};
  return scalars.count(t) || opencl_vector_types().count(t);
}
std::string gml_glsl_type(const std::string& t) {
  auto it = opencl_vector_types().find(t);
  return it == opencl_vector_types().end() ? t : it->second;
}
uint32_t gml_components(const std::string& glsl) {
  char last = glsl.empty() ? '1' : glsl.back();
  return glsl.find("vec") != std::string::npos && last >= '2' && last <= '4' ? uint32_t(last - '0') : 1u;
}

// GMlib's and OpenCL's names of a solution's type (GmlFlt4, GmlFloat4, float4, GmlInt, GmlDbl2...)
// as the lab's field type; the lab's own names pass.
std::string gml_field_type(const std::string& t) {
  std::string s = t.rfind("Gml", 0) == 0 ? t.substr(3) : t;
  size_t d = s.size();
  while (d > 0 && std::isdigit(static_cast<unsigned char>(s[d - 1]))) --d;
  std::string base = s.substr(0, d), n = s.substr(d);
  std::string scalar = base == "Flt" || base == "Float" || base == "float"     ? "float"
                       : base == "Int" || base == "int"                        ? "int"
                       : base == "Dbl" || base == "Double" || base == "double" ? "double"
                                                                               : "";
  if (scalar.empty() || (t.rfind("Gml", 0) != 0 && base != scalar)) return t;  // vec4, ivec2...: the lab's own
  if (n.empty() || n == "1") return scalar;
  std::string prefix = scalar == "float" ? "" : scalar == "int" ? "i" : "d";
  return prefix + "vec" + n;
}

Kind gml_kind(const std::string& w) {
  std::string s = w.rfind("Gml", 0) == 0 ? w.substr(3) : w;
  for (Kind k : {Kind::Vertices, Kind::Edges, Kind::Triangles, Kind::Quadrilaterals, Kind::Tetrahedra, Kind::Pyramids,
                 Kind::Prisms, Kind::Hexahedra})
    if (s == short_name(k) || s == kind_name(k)) return k;
  throw std::invalid_argument(w);
}

// A "// data:" line: a solution the section's GmlCompileKernel call names.
struct GmlData {
  std::string name, lab, type;  // as printed, the lab's field name, the lab's type
  Kind at = Kind::Vertices;
  bool read = true, write = true, neighbours = false;
};

// "// data: Name Type Kind [modes]" at the line's start (blanks allowed), or nullopt.
std::optional<GmlData> gml_data_line(const std::string& line, int number) {
  size_t b = line.find_first_not_of(" \t");
  if (b == std::string::npos || line.compare(b, 2, "//") != 0) return std::nullopt;
  size_t k = line.find_first_not_of(" \t", b + 2);
  if (k == std::string::npos || line.compare(k, 5, "data:") != 0) return std::nullopt;
  std::istringstream in(line.substr(k + 5));
  std::string name, type, kind, w;
  in >> name >> type >> kind;
  auto bad = [&](const std::string& why) {
    return KernelError("line " + std::to_string(number) + ": '" + line.substr(b) + "': " + why +
                       " (// data: Name Type Kind [read] [write] [neighbours], Type as GmlNewSolutionData's: "
                       "GmlFlt, GmlFlt4, GmlInt, GmlDbl2... or float4, int...)");
  };
  GmlData d;
  d.name = name;
  if (name.empty() || !std::all_of(name.begin(), name.end(), words::is_identifier_char) ||
      std::isdigit(static_cast<unsigned char>(name[0])))
    throw bad("a name first");
  try {
    d.at = gml_kind(kind);
    d.type = glsl_type(parse_field_type(gml_field_type(type)));
  } catch (const std::invalid_argument&) {
    throw bad("a type and an entity kind (Ver, Tri, ... or GmlVertices, GmlTriangles, ...) after the name");
  }
  bool any_mode = false, r = false, wr = false;
  while (in >> w) {
    if (w == "read" || w == "GmlReadMode")
      r = true, any_mode = true;
    else if (w == "write" || w == "GmlWriteMode")
      wr = true, any_mode = true;
    else if (w == "neighbours" || w == "neighbors")
      d.neighbours = true;
    else if (w.rfind("//", 0) == 0 || w == "(" || w[0] == '(')
      break;  // a comment after it
    else
      throw bad("'" + w + "' is none of read, write, neighbours");
  }
  if (any_mode) d.read = r, d.write = wr;
  if (d.neighbours && d.type.find('[') != std::string::npos) throw bad("neighbours of an array field");
  // A solution named after its loop's kind (the manual's "VerSol" on the vertices) is the lab's
  // field Sol: the kernel's name VerSol is then the same in both.
  std::string s = short_name(d.at);
  bool kind_first = name.size() > 3 && name.rfind(s, 0) == 0 && std::isupper(static_cast<unsigned char>(name[3]));
  d.lab = kind_first ? name.substr(3) : name;
  // The lab's field names are capitalised: the manual's "relaxed" is the field Relaxed (its kernel
  // still says relaxed).
  d.lab[0] = char(std::toupper(static_cast<unsigned char>(d.lab[0])));
  return d;
}

// The manual's misprints that no rule finds, by the printed line (blanks aside): what is wrong
// and the evident fix (the one word `from` becomes `to`).
struct GmlErratum {
  std::string printed, what, from, to, fix;
};
const std::vector<GmlErratum>& gml_errata() {
  static const std::string kMaxWhat =
      "the manual's text (§2.4) says this kernel finds the largest distance between a triangle's centre and its "
      "neighbours' (\"la distance maximum\"), its code takes min";
  static const std::vector<GmlErratum> e = {
      {"distance=min(d1,d2);", kMaxWhat, "min", "max", "max for min, as the text says"},
      {"distance=min(distance,d3);", kMaxWhat, "min", "max", "max for min, as the text says"}};
  return e;
}

const std::set<std::string>& gml_builtin_functions() {
  static const std::set<std::string> f = {"distance", "length", "dot",  "cross", "normalize", "min",   "max",
                                          "abs",      "sqrt",   "pow",  "exp",   "log",       "sin",   "cos",
                                          "tan",      "clamp",  "mix",  "floor", "ceil",      "fract", "sign",
                                          "step",     "mod",    "atan", "asin",  "acos",      "fma",   "round"};
  return f;
}

// One section (its text, its first line in the whole text) in the lab's dialect.
std::string gml_section(const std::string& section, int first, std::vector<Misprint>& found) {
  // The lines: the loop, the data lines (made field lines) and the errata (fixed in place).
  std::vector<std::string> lines;
  {
    std::istringstream in(section);
    std::string l;
    while (std::getline(in, l)) lines.push_back(l);
  }
  Kind loop = Kind::Triangles;
  std::vector<GmlData> data;
  for (size_t n = 0; n < lines.size(); ++n) {
    std::string& l = lines[n];
    int number = first + int(n);
    if (auto k = words::loop_line(l); !k.empty()) loop = kind_of(std::string(k));
    if (auto d = gml_data_line(l, number)) {
      l = "// field: " + d->lab + " " + d->type + " " + short_name(d->at);
      data.push_back(*d);
      continue;
    }
    std::string code = l.substr(0, l.find("//")), squeezed;
    for (char c : code)
      if (!std::isspace(static_cast<unsigned char>(c))) squeezed += c;
    for (auto& e : gml_errata())
      if (squeezed == e.printed) {
        found.push_back({number, e.what, e.fix});
        size_t at = l.find(e.from);  // the first word `from` (the line is only that statement)
        if (at != std::string::npos) l.replace(at, e.from.size(), e.to);
      }
  }
  std::string text;
  for (auto& l : lines) text += l + "\n";

  const std::string s = short_name(loop);
  auto t = gml_tokens(text);
  auto sig = [&](size_t j, int dir) {  // the next (dir 1) or previous (dir -1) significant token, or npos
    if (j == std::string::npos) return std::string::npos;
    for (long k = long(j) + dir; k >= 0 && size_t(k) < t.size(); k += dir)
      if (t[size_t(k)].type != GmlToken::Blank && t[size_t(k)].type != GmlToken::Comment) return size_t(k);
    return std::string::npos;
  };
  auto is = [&](size_t j, const char* text) { return j != std::string::npos && t[j].text == text; };
  auto matching = [&](size_t j, const char* open, const char* close) {  // the bracket closing t[j]
    int depth = 0;
    for (size_t k = j; k < t.size(); ++k) {
      if (t[k].text == open) ++depth;
      if (t[k].text == close && --depth == 0) return k;
    }
    return std::string::npos;
  };
  auto error = [&](size_t j, const std::string& why) {
    return KernelError("line " + std::to_string(first + t[j].line - 1) + ": " + why);
  };
  // Is t[j] (a variable) stored into, read, or both? Past a swizzle or a subscript, `=` stores;
  // `+=` and the like, ++ and -- do both.
  auto use_of = [&](size_t j) {
    size_t k = sig(j, 1);
    while (k != std::string::npos && (is(k, ".") || is(k, "["))) {
      k = is(k, ".") ? sig(sig(k, 1), 1) : sig(matching(k, "[", "]"), 1);
    }
    size_t before = sig(j, -1);
    bool incdec = (is(before, "+") && is(sig(before, -1), "+")) || (is(before, "-") && is(sig(before, -1), "-"));
    if (k == std::string::npos) return std::make_pair(false, true);
    size_t k2 = sig(k, 1);
    if (is(k, "=") && !is(k2, "=")) return std::make_pair(true, incdec);
    if ((is(k, "+") || is(k, "-") || is(k, "*") || is(k, "/")) && is(k2, "=") && !is(sig(k2, 1), "="))
      return std::make_pair(true, true);
    if ((is(k, "+") && is(k2, "+")) || (is(k, "-") && is(k2, "-"))) return std::make_pair(true, true);
    return std::make_pair(incdec, true);
  };

  // The arrays of fixed size: the element's vertices (LCrd) and a data with its neighbours.
  std::map<std::string, std::pair<uint32_t, std::string>> sized;  // name -> size, what it holds
  uint32_t facets = uint32_t(local_topology(loop).facets.size());
  if (loop != Kind::Vertices)
    sized[s + "Crd"] = {nodes_of(loop), std::string("an element of ") + kind_name(loop) + " has " +
                                            std::to_string(nodes_of(loop)) + " vertices"};
  for (auto& d : data)
    if (d.neighbours && d.at == loop)
      sized[s + d.name] = {facets + 1, "its own value then its " + std::to_string(facets) + " neighbours'"};
  // Constant subscripts past the end: the evident fix is the one index the section leaves out.
  std::map<size_t, std::string> index_fix;
  for (auto& [name, size_what] : sized) {
    auto [size, what] = size_what;
    std::set<unsigned long> used;
    std::vector<std::pair<size_t, unsigned long>> past;
    for (size_t j = 0; j < t.size(); ++j) {
      if (t[j].type != GmlToken::Ident || t[j].text != name || !is(sig(j, 1), "[")) continue;
      size_t n = sig(sig(j, 1), 1);
      if (n == std::string::npos || t[n].type != GmlToken::Number || !is(sig(n, 1), "]")) continue;
      std::string digits = t[n].text;
      if (!digits.empty() && (digits.back() == 'u' || digits.back() == 'U')) digits.pop_back();
      if (digits.empty() || !std::all_of(digits.begin(), digits.end(), ::isdigit)) continue;
      unsigned long v = std::stoul(digits);
      if (v < size)
        used.insert(v);
      else
        past.push_back({n, v});
    }
    std::vector<unsigned long> missing;
    for (unsigned long v = 0; v < size; ++v)
      if (!used.count(v)) missing.push_back(v);
    bool evident = missing.size() == 1 &&
                   std::all_of(past.begin(), past.end(), [&](auto& p) { return p.second == past[0].second; });
    for (auto& [n, v] : past) {
      std::string printed = name + "[" + std::to_string(v) + "]";
      std::string fix;
      if (evident) {
        fix = name + "[" + std::to_string(missing[0]) + "], the one index the kernel leaves out";
        index_fix[n] = std::to_string(missing[0]);
      }
      found.push_back({first + t[n].line - 1,
                       printed + " reads past the end of " + name + ", whose entries are " + name + "[0] to " + name +
                           "[" + std::to_string(size - 1) + "] (" + what +
                           "): GMlib would read whatever lies beyond the array",
                       fix});
    }
  }

  // The rewriting.
  bool crd4 = false, ver_crd = false, ver_crd_stored = false;
  std::set<std::string> with_neighbours;
  struct Seen {
    int read = 0, write = 0, call = 0;  // the first line of each, 0: none
    int read_unset = 0;                 // the first read before the first store's statement ends
    size_t stored = std::string::npos;  // where that statement ends (its ';')
  };
  std::map<std::string, Seen> seen;  // a data at the loop's kind, by name
  auto line_of = [&](size_t j) { return first + t[j].line - 1; };
  for (size_t j = 0; j < t.size(); ++j) {
    GmlToken& tok = t[j];
    if (tok.type == GmlToken::Number && index_fix.count(j)) tok.out = index_fix[j];
    if (tok.type == GmlToken::Ident && (tok.text == "while" || tok.text == "if")) {  // OpenCL's while (1): GLSL's true
      size_t open = sig(j, 1), n = sig(open, 1), close = sig(n, 1);
      if (is(open, "(") && n != std::string::npos && t[n].type == GmlToken::Number && is(close, ")") &&
          t[n].text.find_first_not_of("0123456789uU") == std::string::npos)
        t[n].out = t[n].text.find_first_not_of("0uU") == std::string::npos ? "false" : "true";
    }
    if (tok.type == GmlToken::Punct && tok.text == "(") {  // casts: (float)x, (float4)(...)
      size_t ty = sig(j, 1), close = sig(ty, 1), before = sig(j, -1);
      if (ty == std::string::npos || t[ty].type != GmlToken::Ident || !gml_is_type(t[ty].text) || !is(close, ")"))
        continue;
      if (before != std::string::npos &&
          ((t[before].type == GmlToken::Ident && t[before].text != "return") || is(before, ")") || is(before, "]")))
        continue;
      size_t operand = sig(close, 1);
      if (operand == std::string::npos) continue;
      tok.out.clear();
      t[close].out.clear();
      if (is(operand, "(")) continue;  // (float4)(a, b, c, d): vec4(a, b, c, d)
      if (t[operand].type != GmlToken::Ident && t[operand].type != GmlToken::Number)
        throw error(j, "a cast (" + t[ty].text +
                           ") of an expression that does not start with a name or a number: "
                           "write (" +
                           t[ty].text + ")(...)");
      size_t end = operand;  // x, x[k], x.y, f(x)
      for (size_t k = sig(end, 1); k != std::string::npos; k = sig(end, 1)) {
        if (is(k, "[") || (is(k, "(") && t[end].type == GmlToken::Ident))
          end = matching(k, t[k].text.c_str(), is(k, "[") ? "]" : ")");
        else if (is(k, ".") && sig(k, 1) != std::string::npos && t[sig(k, 1)].type == GmlToken::Ident)
          end = sig(k, 1);
        else
          break;
        if (end == std::string::npos) throw error(j, "an unclosed bracket after a cast");
      }
      t[operand].pre = "(" + t[operand].pre;
      t[end].post += ")";
      continue;
    }
    if (tok.type == GmlToken::Punct && tok.text == "{") {  // T x = {0}; T x = {a, b, c, d};
      size_t eq = sig(j, -1), var = sig(eq, -1), ty = sig(var, -1);
      if (!is(eq, "=") || var == std::string::npos || ty == std::string::npos || t[ty].type != GmlToken::Ident ||
          !gml_is_type(t[ty].text))
        continue;
      size_t close = matching(j, "{", "}");
      if (close == std::string::npos) throw error(j, "an unclosed {");
      int depth = 0, items = 1;
      for (size_t k = j + 1; k < close; ++k) {
        if (t[k].text == "(" || t[k].text == "[" || t[k].text == "{") ++depth;
        if (t[k].text == ")" || t[k].text == "]" || t[k].text == "}") --depth;
        if (depth == 0 && t[k].text == ",") ++items;
      }
      std::string glsl = gml_glsl_type(t[ty].text);
      uint32_t n = gml_components(glsl);
      if (items != 1 && uint32_t(items) != n)
        throw error(j, "{...} gives " + std::to_string(items) + " of the " + std::to_string(n) + " components of a " +
                           t[ty].text + ": GLSL needs one, or all of them");
      tok.out = glsl + "(";
      t[close].out = ")";
      continue;
    }
    if (tok.type != GmlToken::Ident || is(sig(j, -1), ".")) continue;  // a member: .x, Par.Weight
    const std::string& w = tok.text;
    if (opencl_vector_types().count(w)) {
      tok.out = gml_glsl_type(w);
      continue;
    }
    if (w == "get_global_id") {
      size_t open = sig(j, 1), zero = sig(open, 1), close = sig(zero, 1);
      if (!is(open, "(") || !is(zero, "0") || !is(close, ")"))
        throw error(j, "get_global_id(0) is the loop's index; a loop here has one dimension");
      tok.out = "gml_i_";
      t[open].out = t[zero].out = t[close].out = "";
      continue;
    }
    if (loop != Kind::Vertices && w == s + "Crd") {
      crd4 = true;
      tok.out = "gmlib_" + w;
      continue;
    }
    if (loop == Kind::Vertices && w == "VerCrd") {
      ver_crd = true;
      if (use_of(j).first) ver_crd_stored = true;
      tok.out = "gmlib_VerCrd";
      continue;
    }
    for (auto& d : data) {
      if (d.at == loop && (w == d.name || w == s + d.name)) {
        bool call = w == d.name && is(sig(j, 1), "(") && gml_builtin_functions().count(w);
        Seen& sn = seen[d.name];
        if (call) {
          if (!sn.call) sn.call = line_of(j);
          break;
        }
        if (d.neighbours && w == s + d.name && is(sig(j, 1), "[")) {
          with_neighbours.insert(d.name);
          tok.out = "gmlib_" + s + d.lab;
          if (!sn.read) sn.read = line_of(j);
          if (!sn.read_unset && (sn.stored == std::string::npos || j < sn.stored)) sn.read_unset = line_of(j);
          break;
        }
        auto [stores, reads] = use_of(j);
        if (stores && !sn.write) {
          sn.write = line_of(j);
          for (size_t k = j; k < t.size() && sn.stored == std::string::npos; ++k)
            if (t[k].text == ";") sn.stored = k;
        }
        if (reads && !sn.read) sn.read = line_of(j);
        if (reads && !sn.read_unset && (sn.stored == std::string::npos || j < sn.stored)) sn.read_unset = line_of(j);
        tok.out = s + d.lab;
        break;
      }
      if (d.at != loop && d.lab != d.name && w == s + short_name(d.at) + d.name) {
        tok.out = s + short_name(d.at) + d.lab;
        break;
      }
    }
  }
  // What the manual's GmlCompileKernel calls and the solutions' names get wrong.
  for (auto& d : data) {
    if (!seen.count(d.name)) continue;
    const Seen& sn = seen.at(d.name);
    if (sn.call)
      found.push_back(
          {sn.call,
           "the solution '" + d.name + "' hides the function " + d.name +
               "() that this line calls: GMlib declares the solution as a variable before the body, so OpenCL "
               "cannot call " +
               d.name + "() here and the kernel as printed does not compile",
           d.name + "(...) calls the function, " + d.name + " alone is the solution"});
    if (sn.read_unset && !d.read)
      found.push_back({sn.read_unset,
                       "'" + d.name +
                           "' is read here before the kernel stores it, but it is given in write mode only "
                           "(GmlWriteMode, no GmlReadMode): GMlib would not load it, so its value is undefined",
                       "loaded as with GmlReadMode | GmlWriteMode: its value from the last run, zero at first"});
    if (sn.write && !d.write)
      found.push_back({sn.write,
                       "'" + d.name +
                           "' is written here but given to the kernel in read mode only (GmlReadMode): "
                           "GMlib would not store it",
                       "stored as with GmlReadMode | GmlWriteMode"});
  }

  // The block around the body: the aliases' arrays first, VerCrd stored after.
  std::string prologue = "{ ", epilogue;
  if (crd4) {
    uint32_t n = nodes_of(loop);
    prologue += "vec4 gmlib_" + s + "Crd[" + std::to_string(n) + "] = vec4[" + std::to_string(n) + "](";
    for (uint32_t c = 0; c < n; ++c)
      prologue += std::string(c ? ", " : "") + "vec4(" + s + "VerCrd[" + std::to_string(c) + "], 0.0)";
    prologue += "); ";
  }
  if (ver_crd) prologue += "vec4 gmlib_VerCrd = vec4(VerCrd, 0.0); ";
  if (ver_crd_stored) epilogue += " VerCrd = gmlib_VerCrd.xyz;";
  for (auto& d : data)
    if (with_neighbours.count(d.name)) {
      std::string n = std::to_string(facets + 1);
      prologue += d.type + " gmlib_" + s + d.lab + "[" + n + "] = " + d.type + "[" + n + "](" + s + d.lab;
      for (uint32_t f = 0; f < facets; ++f) prologue += ", " + s + s + d.lab + "[" + std::to_string(f) + "]";
      prologue += "); ";
    }
  size_t first_code = std::string::npos, last_code = std::string::npos;
  for (size_t j = 0; j < t.size(); ++j)
    if (t[j].type != GmlToken::Blank && t[j].type != GmlToken::Comment) {
      if (first_code == std::string::npos) first_code = j;
      last_code = j;
    }
  if (first_code != std::string::npos) {
    t[first_code].pre = prologue + t[first_code].pre;
    t[last_code].post += epilogue + " }";
  }
  // Comments go (their words would read as names: VerIdx as the field Idx at the vertices), their
  // lines stay; the lines the lab reads stay, a loop line without what follows its kind.
  for (auto& tok : t) {
    if (tok.type != GmlToken::Comment) continue;
    if (tok.text.rfind("/*", 0) == 0) {
      tok.out = "/*" + std::string(size_t(std::count(tok.text.begin(), tok.text.end(), '\n')), '\n') + "*/";
      continue;
    }
    std::string after = tok.text.substr(2);
    after.erase(0, after.find_first_not_of(" \t"));
    if (auto k = words::loop_line(tok.text); !k.empty())
      tok.out = "// loop: " + std::string(k);
    else if (after.rfind("field:", 0) != 0 && after.rfind("param:", 0) != 0 && after.rfind("write:", 0) != 0)
      tok.out = "//";
  }
  std::string out;
  for (auto& tok : t) out += tok.pre + tok.out + tok.post;
  return out;
}

}  // namespace

bool is_gmlib(const std::string& text) {
  std::istringstream in(text);
  std::string l;
  while (std::getline(in, l)) {
    std::string squeezed;
    for (char c : l)
      if (!std::isspace(static_cast<unsigned char>(c))) squeezed += c;
    if (squeezed == "//dialect:gmlib") return true;
  }
  return false;
}

GmlibText from_gmlib(const std::string& text, Misprints policy) {
  GmlibText r;
  std::istringstream in(text);
  std::string line, section;
  int n = 0, first = 1;
  while (std::getline(in, line)) {
    ++n;
    if (line == "---") {
      r.glsl += gml_section(section, first, r.misprints) + "---\n";
      section.clear();
      first = n + 1;
      continue;
    }
    section += line + "\n";
  }
  r.glsl += gml_section(section, first, r.misprints);
  std::stable_sort(r.misprints.begin(), r.misprints.end(), [](auto& a, auto& b) { return a.line < b.line; });
  bool unfixable = std::any_of(r.misprints.begin(), r.misprints.end(), [](auto& m) { return m.fix.empty(); });
  if (!r.misprints.empty() && (policy == Misprints::Refuse || unfixable))
    throw KernelError(std::string(policy == Misprints::Refuse
                                      ? "refused (misprints = refuse): the manual's text as printed has "
                                      : "refused: a misprint without an evident fix; the text has ") +
                      std::to_string(r.misprints.size()) + " misprint" + (r.misprints.size() > 1 ? "s" : "") + ":\n" +
                      misprint_report(r.misprints));
  return r;
}

std::string misprint_report(const std::vector<Misprint>& m) {
  std::string out;
  for (auto& p : m)
    out += "line " + std::to_string(p.line) + ": " + p.what +
           (p.fix.empty() ? "; no evident fix" : "; with misprints = fix it runs: " + p.fix) + "\n";
  return out;
}

const std::vector<ManualKernel>& manual_kernels() {
  static const std::vector<ManualKernel> k = {
      {"manual as printed: §2.3 iteration.cl", "s2_3_iteration.cl", "Vitesse"},
      {"manual as printed: §2.4 barycentre", "s2_4_barycentre.cl", "Bar"},
      {"manual as printed: §2.4 distance", "s2_4_distance.cl", "Distance"},
      {"manual as printed: §2.4 smoothing", "s2_4_smoothing.cl", "Relaxed"},
      {"manual as printed: §2.5 scatter/gather", "s2_5_scatter_gather.cl", "Sol"}};
  return k;
}

}  // namespace mesh
