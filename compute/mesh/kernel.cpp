// GmlCompileKernel: the shader around the user's loop body (naming rule in gpu_mesh.h).
#include "compute/mesh/gpu_mesh.h"

#include "compute/gpu/shader_compile.h"
#include "compute/gpu/spirv_screen.h"
#include "compute/mesh/io/kernel_words.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>
#include <set>
#include <sstream>

namespace mesh {

class KernelWriter {
 public:
  // `classes`: for each ball (or shell) the body reads by slot, the degree class of the
  // entities this part of the loop runs over (links.h).
  KernelWriter(GpuMesh& g, Kind loop, const std::string& body, int first_line, GpuMesh::Kernel& k,
               const std::map<Kind, BallClass>& classes = {}, bool lazy = true)
      : g_(g),
        loop_(loop),
        L_(short_name(loop)),
        body_(body),
        code_(body),
        first_line_(first_line),
        k_(k),
        classes_(classes),
        lazy_(lazy) {}

  // The element kinds whose ball (shell) the body reads by slot or through LXDegMax: the
  // loop is cut where one of their classes changes.
  std::vector<Kind> classed() const {
    std::vector<Kind> out;
    for (Kind x : upward_kinds()) {
      std::string up = L_ + short_name(x);
      if (reaches(x, up) || named(up + "DegMax") || named(up + "Voy")) out.push_back(x);
    }
    return out;
  }

  // Compiled by colour: invocation j of a launch runs on element LByColour[first + j].
  void by_colour() { by_colour_ = true; }

  std::string write() {
    std::string index = by_colour_ ? table(L_ + "ByColour") + "[gml_first_ + gl_GlobalInvocationID.x]"
                                   : std::string("gml_first_ + gl_GlobalInvocationID.x");
    // A vertex loop that moves the vertex stores its coordinates as one vec4 (their w kept).
    bool stores_crd = loop_ == Kind::Vertices && assigned("VerCrd");
    if (loop_ == Kind::Vertices) {
      if (stores_crd)
        load_ << "  vec4 gml_crd_ = " << decl("VerCrd", "vec4", false) << "[i];\n  vec3 VerCrd = gml_crd_.xyz;\n";
      else if (named("VerCrd"))
        load_ << "  vec3 VerCrd = " << decl("VerCrd", "vec4", !writes("VerCrd")) << "[i].xyz;\n";
      if (named("VerRef")) load_ << "  int VerRef = " << ref(loop_, "i") << ";\n";
    } else {
      element_loads();
    }
    upward_loads();
    for (auto& [name, l] : g_.links_)
      if (l.from == loop_) link_loads(name, l);
    for (auto& [name, f] : g_.fields_)
      if (f.at == loop_ && named(L_ + name)) {
        field(name);
        load_ << "  " << local(name, L_ + name) << " = "
              << (overwritten(L_ + name, field_is_array(f.type) ? field_elements(f.type) : 1)
                      ? read(name, "0u", "false")
                      : read(name, "i", ""))
              << ";\n";
      }
    for (auto& [name, f] : g_.fields_)
      if (named(name + "_")) field(name);
    if (named("VerCrd_")) decl("VerCrd", "vec4", false);
    if (named("Par") && !g_.params_.empty()) {  // GmlNewParameters
      decl_ << "layout(std430, binding = " << k_.uses.size() << ") buffer Par_b { " << g_.parameter_block()
            << "} Par;\n";
      k_.uses.push_back("Par");
      k_.parameters = g_.parameter_block();
    }

    // Every loop of the body spends from the loop budget; a vertex loop stores only finite
    // coordinates. Both report into the status buffer, bound after the fields.
    gpu::BudgetedCode budgeted;
    try {
      budgeted = gpu::budget_loops(code_, first_line_);
    } catch (const std::invalid_argument& e) {
      throw KernelError(e.what());
    }
    k_.loops = budgeted.loops;
    std::string status =
        budgeted.loops.empty() && !stores_crd ? "" : gpu::loop_budget_glsl(uint32_t(k_.uses.size()), k_.tag, k_.budget);
    k_.reports = !status.empty();

    std::ostringstream s;
    s << "#version 460\n#line 100001\n";
    if (g_.ctx_.atomic_float_add) s << "#extension GL_EXT_shader_atomic_float : require\n";
    auto has = [&](Scalar sc) {
      return std::any_of(g_.fields_.begin(), g_.fields_.end(), [&](auto& f) { return f.second.type.scalar == sc; });
    };
    if (has(Scalar::Int8))
      s << "#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require\n"
        << "#extension GL_EXT_shader_8bit_storage : require\n";
    if (has(Scalar::Int16))
      s << "#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require\n"
        << "#extension GL_EXT_shader_16bit_storage : require\n";
    s << "layout(local_size_x_id = 0) in;  // the workgroup size: a specialization constant (group_tuning.h)\n"
      << decl_.str() << "layout(push_constant) uniform Push { uint gml_first_, gml_count_; };\nuint gml_i_;\n"
      << globals_.str() << funcs_.str() << status
      << "void main() {\n  if (gl_GlobalInvocationID.x >= gml_count_) return;\n"
      << "  gml_i_ = " << index << ";\n  uint i = gml_i_;\n"
      << load_.str() << "#line " << first_line_ << "\n"
      << budgeted.text << "\n#line 100000\n"
      << (status.empty() ? "" : "  vklab_finish();\n");
    if (stores_crd) {  // a vertex given NaN or infinite coordinates keeps its old ones, and is counted
      s << "  if (any(isnan(VerCrd)) || any(isinf(VerCrd))) vklab_flag();\n  else VerCrd_[i] = vec4(VerCrd, "
           "gml_crd_.w);\n";
      k_.writes.push_back("Crd");
    }
    for (auto& [name, f] : g_.fields_)
      if (f.at == loop_ && assigned(L_ + name)) {
        if (field_is_array(f.type))
          s << "  for (uint k = 0u; k < " << field_elements(f.type) << "u; ++k) " << name << "_[i * "
            << field_elements(f.type) << "u + k] = " << L_ << name << "[k];\n";
        else
          s << "  " << name << "_[i] = " << L_ << name << ";\n";
        k_.writes.push_back(name);
      }
    s << "}\n";
    return s.str();
  }

 private:
  bool named(const std::string& w) const { return words::names(body_, w); }
  // Does the kernel store into this field (or VerCrd)? Its buffer is declared readonly where
  // not, which lets the GPU read it through its read-only cache.
  bool writes(const std::string& field) const {
    if (named(field + "_")) return true;  // reached whole: scatters, atomics
    if (field == "VerCrd") return loop_ == Kind::Vertices && assigned("VerCrd");
    return g_.fields_.at(field).at == loop_ && assigned(L_ + field);
  }
  // F = ..., F.x = ..., F[k] = ..., F += ...: stored back
  bool assigned(const std::string& var) const {
    const std::string& b = body_;
    for (auto& w : words::identifiers(b)) {
      if (w.text != var) continue;
      size_t i = w.at + var.size();
      if (i < b.size() && b[i] == '.' && i + 1 < b.size() && std::string("xyzw").find(b[i + 1]) != std::string::npos) {
        ++i;
        while (i < b.size() && std::string("xyzw").find(b[i]) != std::string::npos) ++i;
      } else if (i < b.size() && b[i] == '[') {
        i = b.find(']', i);
        if (i == std::string::npos) return false;
        ++i;
      }
      while (i < b.size() && std::isspace(static_cast<unsigned char>(b[i]))) ++i;
      if (i < b.size() && std::string("-+*/").find(b[i]) != std::string::npos) ++i;
      if (i < b.size() && b[i] == '=' && (i + 1 == b.size() || b[i + 1] != '=')) return true;
    }
    return false;
  }
  // Is the variable written whole before anything reads it? Its mentions (comments aside), in
  // order, are assignment statements at the body's top level whose right sides do not name it:
  // one of the whole variable (`TetVol = ...;`), or one for each of its `elements` by a literal
  // index (`TetOpt[0] = ...; ... TetOpt[3] = ...;`, an array field). Then its old value is never
  // read, and not loaded.
  bool overwritten(const std::string& var, uint32_t elements = 1) const {
    std::string code = words::strip_comments(body_);
    std::set<unsigned long> written;
    for (auto& w : words::identifiers(code)) {
      if (w.text != var) continue;
      size_t at = w.at;
      long depth = std::count(code.begin(), code.begin() + long(at), '{') -
                   std::count(code.begin(), code.begin() + long(at), '}');
      size_t before = at ? code.find_last_not_of(" \t\n", at - 1) : std::string::npos;
      bool statement = before == std::string::npos || std::string(";{}").find(code[before]) != std::string::npos;
      auto blanks = [&](size_t i) {
        while (i < code.size() && std::isspace(static_cast<unsigned char>(code[i]))) ++i;
        return i;
      };
      size_t i = blanks(at + var.size());
      std::optional<unsigned long> element;  // var[N] = ...
      if (elements > 1 && i < code.size() && code[i] == '[') {
        size_t digits = blanks(i + 1), stop = digits;
        while (stop < code.size() && std::isdigit(static_cast<unsigned char>(code[stop]))) ++stop;
        size_t close = blanks(stop < code.size() && (code[stop] == 'u' || code[stop] == 'U') ? stop + 1 : stop);
        if (stop == digits || close >= code.size() || code[close] != ']') return false;
        element = std::stoul(code.substr(digits, stop - digits));
        i = blanks(close + 1);
      }
      if (depth != 0 || !statement || i >= code.size() || code[i] != '=' || (i + 1 < code.size() && code[i + 1] == '='))
        return false;
      size_t end = code.find(';', i);
      if (end == std::string::npos || words::names(std::string_view(code).substr(i + 1, end - i - 1), var))
        return false;
      if (!element) return true;
      if (*element < elements) written.insert(*element);
      if (written.size() == elements) return true;
    }
    return false;
  }
  FieldType ftype(const std::string& field) const { return g_.fields_.at(field).type; }
  // A local holding a field's value at one entity: `vec3 X`, or for an array field `float X[8]`.
  std::string local(const std::string& field, const std::string& var) const {
    FieldType t = ftype(field);
    return field_is_array(t) ? field_element(t) + " " + var + "[" + std::to_string(field_elements(t)) + "]"
                             : glsl_type(t) + " " + var;
  }
  std::string value_type(const std::string& field) const {  // as a function returns it
    FieldType t = ftype(field);
    return field_is_array(t) ? field_element(t) + "[" + std::to_string(field_elements(t)) + "]" : glsl_type(t);
  }
  // The field at entity `e`, or zero where `guard` (an expression; "" for none) is false.
  // An array field is read through F_read(ok, e) (field() writes it).
  std::string read(const std::string& field, const std::string& e, const std::string& guard) const {
    if (field_is_array(ftype(field))) return field + "_read(" + (guard.empty() ? "true" : guard) + ", " + e + ")";
    std::string r = field + "_[" + e + "]";
    return guard.empty() ? r : guard + " ? " + r + " : " + glsl_type(ftype(field)) + "(0)";
  }
  // Does the body reach entities of kind `at` through the link `prefix` (the link itself,
  // their references, coordinates or fields)?
  bool reaches(Kind at, const std::string& prefix) const {
    if (named(prefix) || named(prefix + "Ref") || (at == Kind::Vertices && named(prefix + "Crd"))) return true;
    for (auto& [name, f] : g_.fields_)
      if (f.at == at && named(prefix + name)) return true;
    return false;
  }

  // Declares a buffer once (binding = its place in k.uses); returns its array's name.
  std::string decl(const std::string& name, const std::string& elem, bool readonly) {
    if (std::find(k_.uses.begin(), k_.uses.end(), name) == k_.uses.end()) {
      g_.resource(name);
      decl_ << "layout(std430, binding = " << k_.uses.size() << ") " << (readonly ? "readonly " : "") << "buffer "
            << name << "_b { " << elem << " " << name << "_[]; };\n";
      k_.uses.push_back(name);
    }
    return name + "_";
  }
  std::string field(const std::string& name) {
    FieldType t = ftype(name);
    bool first = !k_.field_types.count(name);
    k_.field_types[name] = t;
    std::string array = decl(name, field_element(t), !writes(name));
    if (first && field_is_array(t)) {  // an entity's elements, or zeros
      std::string e = field_element(t), a = std::to_string(field_elements(t));
      funcs_ << e << "[" << a << "] " << name << "_read(bool ok, uint e) {\n  " << e << " r[" << a
             << "];\n  for (uint k = 0u; k < " << a << "u; ++k) r[k] = ok ? " << array << "[e * " << a
             << "u + k] : " << e << "(0);\n  return r;\n}\n";
    }
    return array;
  }
  std::string table(const std::string& name) { return decl(name, "uint", true); }

  // A local array `type var[n]` filled with `value` (of the slot k).
  void array(const std::string& type, const std::string& var, uint32_t n, const std::string& value) {
    load_ << "  " << type << " " << var << "[" << n << "];\n  for (uint k = 0u; k < " << n << "u; ++k) " << var
          << "[k] = " << value << ";\n";
  }
  // `var[k]` as an array or, where `lazy` and the body only reads it by subscript, a function
  // `var_at(k)` read where the body reads it (an array indexed at run time lives in local
  // memory: the slots past the degree would be loaded and stored for nothing).
  void slots(const std::string& type, const std::string& var, uint32_t n, const std::string& value, bool lazy) {
    if (lazy && !assigned(var) && words::subscripts_to_calls(code_, var, var + "_at"))
      funcs_ << type << " " << var << "_at(uint k) { return " << value << "; }\n";
    else
      array(type, var, n, value);
  }
  // Fields at `at` reached through `index` (n slots; slot k holds entity `entity`, an
  // expression in k; where `guard` is false, zero).
  void gather(Kind at, const std::string& index, uint32_t n, const std::string& entity, const std::string& guard,
              bool lazy = false) {
    auto value = [&](const std::string& read, const std::string& t) {
      return guard.empty() ? read : guard + " ? " + read + " : " + t + "(0)";
    };
    // (A field the body also reaches whole, F_[], is read on entry: its scatters come after.)
    for (auto& [name, f] : g_.fields_)
      if (f.at == at && named(index + name)) {
        std::string array = field(name), var = index + name;
        bool by_call = lazy && !named(name + "_") && !assigned(var);
        if (by_call && field_is_array(f.type) && words::subscripts_to_calls(code_, var, var + "_at", 2)) {
          // var[k][c]: element c of slot k alone (an array field of 4 vec4, reached through a
          // ball, reads one vec4 a slot where its corner picks one: VerTetOpt[k][VerTetVoy[k]])
          std::string e = field_element(f.type), a = std::to_string(field_elements(f.type));
          std::string one = array + "[(" + entity + ") * " + a + "u + min(c, " + a + "u - 1u)]";
          funcs_ << e << " " << var << "_at(uint k, uint c) { return " << value(one, e) << "; }\n";
          continue;
        }
        slots(value_type(name), var, n, read(name, entity, guard), by_call);
      }
    if (at == Kind::Vertices && named(index + "Crd"))
      slots("vec3", index + "Crd", n, value(decl("VerCrd", "vec4", !writes("VerCrd")) + "[" + entity + "].xyz", "vec3"),
            lazy && !named("VerCrd_"));
    if (named(index + "Ref")) slots("int", index + "Ref", n, value(ref(at, entity), "int"), lazy);
  }
  // The reference of entity `idx` of kind `at` (VerRef, TetRef...: a table of its own).
  std::string ref(Kind at, const std::string& idx) {
    return "int(" + table(std::string(short_name(at)) + "Ref") + "[" + idx + "])";
  }

  void element_loads() {
    uint32_t n = nodes_of(loop_);
    std::string ver = L_ + "Ver";
    if (reaches(Kind::Vertices, ver)) {
      // The element's vertices, n a line, read as whole vectors where a line is made of them
      // (a tetrahedron: one uvec4, 16 bytes in one load; a hexahedron: two).
      uint32_t w = n % 4 == 0 ? 4 : n % 2 == 0 ? 2 : 1;
      std::string t = decl(ver, w == 1 ? "uint" : "uvec" + std::to_string(w), true), lines = std::to_string(n / w);
      auto part = [&](uint32_t c) {
        std::string line = t + "[i * " + lines + "u + " + std::to_string(c / w) + "u]";
        return w == 1 ? line : line + "[" + std::to_string(c % w) + "]";
      };
      if (n == w) {
        load_ << "  uvec" << n << " " << ver << " = " << t << "[i];\n";
      } else {
        std::string v = n <= 4 ? "uvec" + std::to_string(n) : "uint[" + std::to_string(n) + "]";
        load_ << "  " << (n <= 4 ? v + " " + ver : "uint " + ver + "[" + std::to_string(n) + "]") << " = " << v << "(";
        for (uint32_t c = 0; c < n; ++c) load_ << (c ? ", " : "") << part(c);
        load_ << ");\n";
      }
      gather(Kind::Vertices, ver, n, ver + "[k]", "");
    }
    if (named(L_ + "Ref")) load_ << "  int " << L_ << "Ref = " << ref(loop_, "i") << ";\n";
    uint32_t ne = uint32_t(local_topology(loop_).edges.size());
    std::string edg = L_ + "Edg";
    if (loop_ != Kind::Edges && g_.edges_.count() && reaches(Kind::Edges, edg)) {
      array("uint", edg, ne, table(edg) + "[i * " + std::to_string(ne) + "u + k]");
      gather(Kind::Edges, edg, ne, edg + "[k]", "");
    }
    uint32_t nf = uint32_t(local_topology(loop_).facets.size());
    std::string ngb = L_ + L_;
    if (nf && reaches(loop_, ngb)) {
      array("uint", ngb, nf, table(ngb) + "[i * " + std::to_string(nf) + "u + k]");
      gather(loop_, ngb, nf, ngb + "[k]", ngb + "[k] != 0xffffffffu");
    }
  }

  // Balls (from a vertex) and shells (from an edge): every element kind above the loop's.
  std::vector<Kind> upward_kinds() const {
    std::vector<Kind> out;
    if (loop_ == Kind::Vertices || loop_ == Kind::Edges)
      for (Kind x : g_.kinds())
        if (x != Kind::Vertices && x != loop_ && (loop_ == Kind::Vertices || !local_topology(x).edges.empty()))
          out.push_back(x);
    return out;
  }
  void upward_loads() {
    for (Kind x : upward_kinds()) {
      std::string up = L_ + short_name(x), deg = up + "Deg", voy = up + "Voy";
      bool by_slot = reaches(x, up) || named(voy);
      if (!by_slot && !named(deg) && !named(deg + "Max")) continue;
      globals_ << "uint " << deg << ";\n";
      load_ << "  " << deg << " = " << table(deg) << "[i];\n";
      if (!by_slot && !named(deg + "Max")) continue;  // the degree alone
      const BallClass& c = classes_.at(x);
      globals_ << "const uint " << deg << "Max = " << c.width << "u;\n";
      if (!by_slot) continue;
      // The class by columns: slot k of entity i at offset + k·count + (i − first); each slot
      // one word, the element's index above its corner's bits (Ball::packed).
      uint32_t bits = g_.upward(loop_, x).corner_bits;
      funcs_ << "uint " << up << "_word(uint k) { return " << table(up) << "[" << c.offset << "u + k * " << c.count
             << "u + (gml_i_ - " << c.first << "u)]; }\n"
             << "uint " << up << "_slot(uint k) { return k < " << deg << " ? " << up << "_word(k) >> " << bits
             << "u : 0xffffffffu; }\n";
      bool lazy = lazy_ && !assigned(deg);  // the slots read with the degree as loaded
      if (named(voy)) {
        funcs_ << "uint " << up << "_corner(uint k) { return k < " << deg << " ? " << up << "_word(k) & "
               << ((1u << bits) - 1) << "u : 0u; }\n";
        slots("uint", voy, c.width, up + "_corner(k)", lazy);
      }
      if (named(up)) slots("uint", up, c.width, up + "_slot(k)", lazy);
      gather(x, up, c.width, up + "_slot(k)", "k < " + deg, lazy);
    }
  }

  void link_loads(const std::string& name, const GpuMesh::Link& l) {
    std::string var = L_ + name;
    if (!reaches(l.to, var)) return;
    array("uint", var, l.slots, table(var) + "[i * " + std::to_string(l.slots) + "u + k]");
    gather(l.to, var, l.slots, var + "[k]", var + "[k] != 0xffffffffu");
  }

  GpuMesh& g_;
  Kind loop_;
  std::string L_;
  const std::string& body_;  // as written (what it names)
  std::string code_;         // as compiled (slots read through functions)
  int first_line_;
  GpuMesh::Kernel& k_;
  const std::map<Kind, BallClass>& classes_;
  bool lazy_;  // slots read where the body reads them (else into arrays on entry)
  bool by_colour_ = false;
  std::ostringstream decl_, globals_, funcs_, load_;
};

std::vector<GpuMesh::Name> GpuMesh::names(Kind loop) const {
  std::string L = short_name(loop);
  std::vector<Name> out = {{"uint", "i", "", "the loop's index"}};
  auto fields_at = [&](Kind at, const std::string& prefix, const std::string& size, const std::string& what) {
    for (auto& [name, f] : fields_)
      if (f.at == at) out.push_back({glsl_type(f.type), prefix + name, size, what + name});
    out.push_back({"int", prefix + "Ref", size, what + "reference"});
    if (at == Kind::Vertices && !prefix.empty() && prefix != "Ver")
      out.push_back({"vec3", prefix + "Crd", size, what + "coordinates"});
  };
  if (loop == Kind::Vertices) {
    out.push_back({"vec3", "VerCrd", "", "its coordinates (read/write)"});
  } else {
    uint32_t n = nodes_of(loop);
    std::string N = std::to_string(n);
    out.push_back({n <= 4 ? "uvec" + N : "uint", L + "Ver", n <= 4 ? "" : N, "its vertices"});
    fields_at(Kind::Vertices, L + "Ver", N, "its vertices' ");
    uint32_t ne = uint32_t(local_topology(loop).edges.size()), nf = uint32_t(local_topology(loop).facets.size());
    if (loop != Kind::Edges && edges_.count()) {
      out.push_back({"uint", L + "Edg", std::to_string(ne), "its edges"});
      fields_at(Kind::Edges, L + "Edg", std::to_string(ne), "its edges' ");
    }
    if (nf) {
      out.push_back({"uint", L + L, std::to_string(nf), "the elements across its facets (0xffffffff: none)"});
      fields_at(loop, L + L, std::to_string(nf), "theirs (zero across none): ");
    }
  }
  if (loop == Kind::Vertices || loop == Kind::Edges)
    for (auto& [x, e] : elements_) {
      if (x == loop || (loop == Kind::Edges && local_topology(x).edges.empty())) continue;
      std::string up = L + short_name(x), what = loop == Kind::Vertices ? "ball" : "shell";
      out.push_back({"uint", up + "Deg", "", std::string("the ") + kind_name(x) + " in its " + what});
      out.push_back(
          {"const uint", up + "DegMax", "", "the " + what + "'s padded size (a power of two; its degree class's)"});
      out.push_back({"uint", up, up + "DegMax", "their indices (0xffffffff past the degree)"});
      out.push_back({"uint", up + "Voy", up + "DegMax",
                     std::string(loop == Kind::Vertices ? "the corner it is of each" : "the local edge it is of each") +
                         " (0 past the degree; GMlib's voyeurs): " + up + "F[k][" + up +
                         "Voy[k]] reads that element alone of an array field F"});
      fields_at(x, up, up + "DegMax", "theirs (zero past the degree): ");
    }
  for (auto& [name, l] : links_)
    if (l.from == loop) {
      out.push_back({"uint", L + name, std::to_string(l.slots),
                     std::string("the link table ") + name + " to " + kind_name(l.to)});
      fields_at(l.to, L + name, std::to_string(l.slots), "through it (zero for none): ");
    }
  fields_at(loop, L, "", "its own (read/write): ");
  for (auto& p : params_)
    out.push_back(
        {glsl_type(p.type), "Par." + p.name, "", "a parameter (GmlNewParameters): set in the panel, read back"});
  for (auto& [name, f] : fields_)
    out.push_back({glsl_type(f.type), name + "_", "[]",
                   std::string("the whole field at ") + kind_name(f.at) + " (scatter, atomics)"});
  return out;
}

const Colouring& GpuMesh::colouring(Kind k) {
  if (auto it = colourings_.find(k); it != colourings_.end()) return it->second;
  Colouring c = colour_elements(elements(k), nv_);
  put(std::string(short_name(k)) + "ByColour", c.order);
  return colourings_[k] = std::move(c);
}

std::unique_ptr<GpuMesh::Kernel> GpuMesh::compile(Kind loop, const std::string& body, int first_line, bool by_colour) {
  return finish(prepare(loop, body, first_line, by_colour));
}

GpuMesh::Prepared GpuMesh::prepare(Kind loop, const std::string& body, int first_line, bool by_colour) {
  if (!count(loop)) throw KernelError(std::string("the mesh has no ") + kind_name(loop) + " to loop over");
  if (by_colour && loop == Kind::Vertices)
    throw KernelError(
        "'// write: colouring' colours the elements of the loop by the vertices they share: a vertex "
        "loop has nothing to colour (loop over Edg, Tri, Qua, Tet, Pyr, Pri or Hex)");
  Prepared out;
  auto& k = out.kernel;
  k = std::make_unique<Kernel>();
  k->loop = loop;
  k->count = uint32_t(count(loop));
  k->tag = ++next_tag_;
  k->budget = gpu::loop_budget_for(ctx_.info.name);
  k->first_line = first_line;
  // The loop in parts, cut where the degree class of a ball the body reads changes: each part
  // compiled with its classes' widths (LXDegMax) and places.
  std::map<Kind, const Ball*> balls;
  for (Kind x : KernelWriter(*this, loop, body, first_line, *k).classed()) balls[x] = &upward(loop, x);
  std::vector<uint32_t> cuts = {0, k->count};
  for (auto& [x, b] : balls)
    for (const BallClass& c : b->classes) cuts.push_back(c.first);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  if (by_colour && cuts.size() > 2)
    throw KernelError(
        "'// write: colouring' runs the edges in their colours' order, which mixes the degree classes "
        "of the shells this body reads by slot: renumber other than by degree, or drop the colouring");
  if (by_colour) k->colours = colouring(loop).offsets;
  for (size_t p = 0; p + 1 < cuts.size(); ++p) {
    std::map<Kind, BallClass> classes;
    std::string widths;
    for (auto& [x, b] : balls) {
      classes[x] = b->class_of(cuts[p]);
      widths += std::string(" ") + short_name(loop) + short_name(x) + "DegMax = " + std::to_string(classes[x].width);
    }
    // Slots read where the body reads them; where that does not compile (the body writes into
    // a gathered array in a way the generator did not see), into arrays as the body wrote it:
    // both written here, the second compiled only if the first does not.
    Prepared::Part part;
    for (bool lazy : {true, false}) {
      Kernel& made = lazy ? part.lazy : part.eager;
      made.tag = k->tag, made.budget = k->budget;
      KernelWriter w(*this, loop, body, first_line, made, classes, lazy);
      if (by_colour) w.by_colour();
      (lazy ? part.lazy_source : part.eager_source) = w.write();
    }
    part.first = cuts[p], part.count = cuts[p + 1] - cuts[p];
    if (cuts.size() > 2)
      part.heading = "// part " + std::to_string(p + 1) + " of " + std::to_string(cuts.size() - 1) + ": " +
                     short_name(loop) + " " + std::to_string(cuts[p]) + " to " + std::to_string(cuts[p + 1] - 1) + "," +
                     widths + " (a shader of its own)\n";
    out.parts.push_back(std::move(part));
  }
  return out;
}

// Reads nothing of the mesh's that a later prepare() may change: prepared kernels may be
// finished on threads of their own (compile_text).
std::unique_ptr<GpuMesh::Kernel> GpuMesh::finish(Prepared prepared) const {
  auto k = std::move(prepared.kernel);
  for (size_t p = 0; p < prepared.parts.size(); ++p) {
    Prepared::Part& made = prepared.parts[p];
    Kernel* part = &made.lazy;
    std::string* source = &made.lazy_source;
    auto r = gpu::compile_glsl(*source, gpu::ShaderStage::Compute, "kernel");
    if (!r.ok) {
      part = &made.eager, source = &made.eager_source;
      r = gpu::compile_glsl(*source, gpu::ShaderStage::Compute, "kernel");
      if (!r.ok) throw KernelError(r.messages);
    }
    try {
      gpu::screen_spirv(r.spirv, ctx_);  // what the user's text made, before a pipeline is (spirv_screen.h)
    } catch (const std::invalid_argument& e) {
      throw KernelError(e.what());
    }
    if (p == 0) k->uses = part->uses, k->writes = part->writes, k->field_types = part->field_types;
    if (p == 0) k->parameters = part->parameters, k->loops = part->loops, k->reports = part->reports;
    if (part->uses != k->uses) throw std::logic_error("mesh kernel: the parts bind different buffers");
    k->source += made.heading + *source;
    k->parts.push_back({made.first, made.count,
                        gpu::make_compute(ctx_, r.spirv, 8, {int32_t(kGroupSizes[0])}, "mesh kernel"), *source,
                        std::move(r.spirv)});
  }
  if (tune_groups_) k->tuning = GroupTuning(ctx_);
  return k;
}

const gpu::Pipeline& GpuMesh::pipeline(const Kernel::Part& p, uint32_t group) const {
  if (group == kGroupSizes[0]) return p.pipeline;
  auto it = p.sized.find(group);
  if (it == p.sized.end())
    it = p.sized.emplace(group, gpu::make_compute(ctx_, p.spirv, 8, {int32_t(group)}, "mesh kernel")).first;
  return it->second;
}

double GpuMesh::traffic(const Kernel& k) const {
  double bytes = 0;
  for (auto& name : k.uses) bytes += double(buffer(name).size());
  for (auto& name : k.writes) bytes += double(buffer(name == "Crd" ? "VerCrd" : name).size());
  return bytes;
}

bool GpuMesh::valid(const Kernel& k) const {
  if (!k.parameters.empty() && k.parameters != parameter_block()) return false;
  for (auto& [name, t] : k.field_types)
    if (!fields_.count(name) || !(fields_.at(name).type == t)) return false;
  return true;
}

void GpuMesh::record(VkCommandBuffer cmd, const Kernel& k, int readback_slot, const TimedScope* timed) {
  if (!valid(k)) throw std::logic_error("a kernel compiled for fields that have changed: compile it again");
  bool par = !k.parameters.empty();
  if (par && params_dirty_) {  // the host changed a value: to the GPU before this launch
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    auto bytes = pack_parameters();
    vkCmdUpdateBuffer(cmd, buffer("Par").handle(), 0, bytes.size(), bytes.data());
    transfers_["Par"].first += bytes.size();
    params_dirty_ = false;
  }
  std::vector<gpu::Bind> binds;
  for (auto& name : k.uses) binds.push_back(gpu::storage_buffer(buffer(name)));
  binds.push_back(gpu::storage_buffer(status_));  // skipped by a kernel without loops or coordinates
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
               VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  uint32_t group = k.tuning.size();  // GMlib's calibration: a size a launch, then the fastest
  uint32_t scope = 0;
  // The launches: a part's entities (first, count) each; by colour, the one part a colour at
  // a time, each colour's writes made visible to the next (they may touch the same vertices).
  struct Launch {
    const Kernel::Part* part;
    uint32_t first, count;
  };
  std::vector<Launch> launches;
  if (k.colours.empty())
    for (const Kernel::Part& p : k.parts) launches.push_back({&p, p.first, p.count});
  else
    for (size_t c = 0; c + 1 < k.colours.size(); ++c)
      launches.push_back({&k.parts.at(0), k.colours[c], k.colours[c + 1] - k.colours[c]});
  for (size_t j = 0; j < launches.size(); ++j) {
    const Launch& l = launches[j];
    uint32_t range[2] = {l.first, l.count};
    const gpu::Pipeline& pl = pipeline(*l.part, group);
    if (j > 0 && !k.colours.empty())
      gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    pl.bind(cmd, binds, range);
    if (j == 0) {  // the times start at the first dispatch
      k.tuning.begin(cmd);
      if (timed) scope = timed->profiler.begin(cmd, timed->name, timed->bytes, 0);
    }
    pl.dispatch(cmd, l.count);
  }
  if (timed) timed->profiler.end(cmd, scope);
  k.tuning.end(cmd);
  // One barrier after: the kernel's writes to whatever comes next and, where it reports into
  // the status (loops, coordinates), to the host that reads it (take_status()).
  VkPipelineStageFlags2 host = k.reports ? VK_PIPELINE_STAGE_2_HOST_BIT : 0;
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | host,
               VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT | (host ? VK_ACCESS_2_HOST_READ_BIT : 0));
  if (par && readback_slot >= 0 && uint32_t(readback_slot) < kParameterSlots) {  // back after the launch
    VkBufferCopy region{0, VkDeviceSize(readback_slot) * param_bytes_, param_bytes_};
    vkCmdCopyBuffer(cmd, buffer("Par").handle(), param_readback_.handle(), 1, &region);
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                 VK_ACCESS_2_HOST_READ_BIT);
  }
}

gpu::LoopStatus GpuMesh::take_status() {
  gpu::LoopStatus st;
  std::memcpy(&st, status_.mapped(), sizeof st);
  std::memset(status_.mapped(), 0, sizeof st);  // host-coherent: the next submission sees it cleared
  return st;
}

}  // namespace mesh
