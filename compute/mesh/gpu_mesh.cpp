#include "compute/mesh/gpu_mesh.h"

#include "compute/mesh/io/kernel_words.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace mesh {

namespace {
constexpr VkBufferUsageFlags kUsage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
constexpr Kind kAll[] = {Kind::Vertices,   Kind::Edges,    Kind::Triangles, Kind::Quadrilaterals,
                         Kind::Tetrahedra, Kind::Pyramids, Kind::Prisms,    Kind::Hexahedra};

// A field or link name: capitalised, and not to be read as part of the naming rule.
void check_name(const std::string& what, const std::string& name) {
  bool reserved = name == "Crd" || name == "Ref" || name == "Deg" || name == "DegMax" || name == "Voy" || name == "Par";
  for (Kind k : kAll) reserved = reserved || name.rfind(short_name(k), 0) == 0;
  if (!words::is_capitalised_name(name) || reserved)
    throw std::invalid_argument(
        what + " name '" + name +
        "': a capitalised identifier, not Crd, Ref, Deg, DegMax, Voy or Par and not starting with an entity's "
        "short name (Ver, Edg, Tri, Qua, Tet, Pyr, Pri, Hex)");
}
}  // namespace

const char* short_name(Kind k) {
  static const char* kShort[] = {"Ver", "Edg", "Tri", "Qua", "Tet", "Pyr", "Pri", "Hex"};
  return kShort[int(k)];
}

uint32_t scalar_bytes(Scalar s) {
  static const uint32_t kBytes[] = {4, 4, 8, 1, 2};
  return kBytes[int(s)];
}

std::string glsl_type(FieldType t) {
  static const char* kScalar[] = {"float", "int", "double", "int8_t", "int16_t"};
  static const char* kVector[] = {"vec", "ivec", "dvec", "i8vec", "i16vec"};
  int s = int(t.scalar);
  std::string base = t.components == 1 ? kScalar[s] : kVector[s] + std::to_string(t.components);
  return t.count == 1 ? base : base + "[" + std::to_string(t.count) + "]";
}

FieldType parse_field_type(const std::string& text) {
  std::string s = text;
  uint32_t count = 1;
  if (size_t b = s.find('['); b != std::string::npos && s.back() == ']') {
    std::string n = s.substr(b + 1, s.size() - b - 2);
    count = n.empty() || n.size() > 2 || !std::all_of(n.begin(), n.end(), ::isdigit) ? 0 : uint32_t(std::stoi(n));
    s = s.substr(0, b);
  }
  for (Scalar sc : {Scalar::Float, Scalar::Int, Scalar::Double, Scalar::Int8, Scalar::Int16})
    for (uint32_t c : {1u, 2u, 3u, 4u, 8u, 16u})
      if (glsl_type({sc, c}) == s && count >= 1 && count <= 64) return {sc, c, count};
  throw std::invalid_argument("field type '" + text +
                              "': float, int, double, int8_t (a byte) or int16_t, or their vectors (vec2 to vec4, "
                              "vec8, vec16; ivec, dvec, i8vec, i16vec likewise), optionally [N] of them (1 to 64)");
}

uint32_t field_values(FieldType t) { return t.components * t.count; }
bool field_is_array(FieldType t) { return t.components > 4 || t.count > 1; }
std::string field_element(FieldType t) { return glsl_type({t.scalar, t.components > 4 ? 1 : t.components}); }
uint32_t field_elements(FieldType t) { return t.components > 4 ? t.components * t.count : t.count; }

namespace {
// std430: a vector's array stride is its alignment (a 3-vector's that of a 4-vector).
uint32_t element_stride(FieldType t) {
  uint32_t c = t.components > 4 ? 1 : t.components;
  return scalar_bytes(t.scalar) * (c == 3 ? 4 : c);
}
}  // namespace

uint32_t field_stride(FieldType t) { return field_elements(t) * element_stride(t); }

uint32_t field_offset(FieldType t, uint32_t value) {
  uint32_t per = t.components > 4 ? 1 : t.components;
  return (value / per) * element_stride(t) + (value % per) * scalar_bytes(t.scalar);
}

GpuMesh::GpuMesh(gpu::Context& ctx, const Mesh& m) : GpuMesh(ctx, m, nullptr) {}

GpuMesh::GpuMesh(gpu::Context& ctx, Mesh& m, TakeElements) : GpuMesh(ctx, m, &m) {}

// owner: m itself, whose element tables are then moved in rather than copied.
GpuMesh::GpuMesh(gpu::Context& ctx, const Mesh& m, Mesh* owner) : ctx_(ctx), nv_(m.vertices()), vref_(m.vref) {
  std::vector<float> crd(4 * nv_, 0.0f);
  for (size_t v = 0; v < nv_; ++v)
    for (int c = 0; c < std::min(m.dim, 3); ++c) crd[4 * v + c] = float(m.xyz[v * m.dim + c]);
  buffers_["VerCrd"] = gpu::Buffer(ctx, std::max<size_t>(16, crd.size() * 4), kUsage);
  buffers_["VerCrd"].upload(crd);
  transfers_["VerCrd"].first += crd.size() * 4;
  std::vector<uint32_t> vref(nv_);
  for (size_t v = 0; v < nv_; ++v) vref[v] = uint32_t(m.vref[v]);
  put("VerRef", vref);
  edges_ = extract_edges(m);  // GmlExtractEdges; also checks every vertex index
  tune_groups_ = ctx.props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU;
  status_ = gpu::Buffer(ctx, gpu::kLoopStatusBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
  std::memset(status_.mapped(), 0, gpu::kLoopStatusBytes);
  for (size_t i = 0; i < m.elements.size(); ++i) {
    const Elements& e = m.elements[i];
    if (e.kind == Kind::Edges || !e.count()) continue;
    if (owner)
      elements_[e.kind] = std::move(owner->elements[i]);
    else
      elements_[e.kind] = e;
  }
  if (owner) owner->elements.clear();
  if (edges_.count()) elements_[Kind::Edges] = edges_.as_elements();
  for (auto& [kind, e] :
       elements_) {  // the vertex lists (nodes a line: a tetrahedron's one uvec4), the references apart
    std::vector<uint32_t> ref(e.count());
    for (size_t i = 0; i < e.count(); ++i) ref[i] = uint32_t(e.ref[i]);
    put(std::string(short_name(kind)) + "Ver", e.v);
    put(std::string(short_name(kind)) + "Ref", ref);
  }
}

size_t GpuMesh::count(Kind k) const {
  if (k == Kind::Vertices) return nv_;
  auto it = elements_.find(k);
  return it == elements_.end() ? 0 : it->second.count();
}

std::vector<Kind> GpuMesh::kinds() const {
  std::vector<Kind> k = {Kind::Vertices};
  for (auto& [kind, e] : elements_) k.push_back(kind);
  return k;
}

const Elements& GpuMesh::elements(Kind k) const {
  auto it = elements_.find(k);
  if (it == elements_.end()) throw std::invalid_argument(std::string("the mesh has no ") + kind_name(k));
  return it->second;
}

void GpuMesh::put(const std::string& name, const std::vector<uint32_t>& data) {
  gpu::Buffer b(ctx_, std::max<size_t>(16, data.size() * 4), kUsage);
  if (!data.empty()) b.upload(data);
  transfers_[name].first += data.size() * 4;
  buffers_.insert_or_assign(name, std::move(b));
}

const gpu::Buffer& GpuMesh::buffer(const std::string& name) const {
  auto it = buffers_.find(name);
  if (it == buffers_.end()) throw std::logic_error("mesh: no buffer " + name);
  return it->second;
}

void GpuMesh::add_field(const std::string& name, Kind at, FieldType type) {
  check_name("field", name);
  if (links_.count(name)) throw std::invalid_argument("field '" + name + "': a link has that name");
  if (!(type.components >= 1 && type.components <= 4) && type.components != 8 && type.components != 16)
    throw std::invalid_argument("field '" + name + "': 1, 2, 3, 4, 8 or 16 components");
  if (type.count < 1 || type.count > 64) throw std::invalid_argument("field '" + name + "': 1 to 64 an entity");
  if (type.scalar == Scalar::Double && !ctx_.info.fp64)
    throw std::invalid_argument("field '" + name + "': this device has no fp64 (GmlCheckFP64)");
  if ((type.scalar == Scalar::Int8 && !ctx_.int8) || (type.scalar == Scalar::Int16 && !ctx_.int16))
    throw std::invalid_argument(
        "field '" + name + "': this device cannot store " + glsl_type({type.scalar, 1}) +
        " in buffers (storageBuffer8BitAccess/shaderInt8, storageBuffer16BitAccess/shaderInt16)");
  if (at != Kind::Vertices && !elements_.count(at))
    throw std::invalid_argument("field '" + name + "': the mesh has no " + kind_name(at));
  size_t bytes = (count(at) * field_stride(type) + 3) / 4 * 4;  // whole words: the picture reads words
  gpu::Buffer b(ctx_, std::max<size_t>(16, bytes), kUsage);
  b.zero();  // on the device: a 12.6 M-tetrahedron mesh's vec4[4] field is 806 MB
  buffers_.insert_or_assign(name, std::move(b));
  fields_.insert_or_assign(name, Field{at, type});
}

namespace {

// A field's value as its scalar type stores it at p (integers rounded and clamped), and back.
void encode(Scalar scalar, double value, uint8_t* p) {
  auto put = [&](auto x) { std::memcpy(p, &x, sizeof x); };
  auto integer = [&](double lo, double hi) { return std::clamp(std::nearbyint(value), lo, hi); };
  switch (scalar) {
    case Scalar::Float:
      put(float(value));
      break;
    case Scalar::Int:
      put(int32_t(integer(-2147483648.0, 2147483647.0)));
      break;
    case Scalar::Double:
      put(value);
      break;
    case Scalar::Int8:
      put(int8_t(integer(-128, 127)));
      break;
    case Scalar::Int16:
      put(int16_t(integer(-32768, 32767)));
      break;
  }
}

double decode(Scalar scalar, const uint8_t* p) {
  auto get = [&](auto x) {
    std::memcpy(&x, p, sizeof x);
    return double(x);
  };
  switch (scalar) {
    case Scalar::Float:
      return get(float{});
    case Scalar::Int:
      return get(int32_t{});
    case Scalar::Double:
      return get(double{});
    case Scalar::Int8:
      return get(int8_t{});
    case Scalar::Int16:
      return get(int16_t{});
  }
  return 0;
}

}  // namespace

void GpuMesh::upload(const std::string& name, const std::vector<double>& values) {
  const Field& f = fields_.at(name);
  uint32_t c = field_values(f.type), stride = field_stride(f.type);
  size_t n = count(f.at);
  if (values.size() != n * c)
    throw std::invalid_argument("field '" + name + "': " + std::to_string(values.size()) + " values for " +
                                std::to_string(n) + " x " + std::to_string(c));
  std::vector<uint8_t> bytes(std::max<size_t>(16, (n * stride + 3) / 4 * 4), 0);
  for (size_t i = 0; i < n * c; ++i)
    encode(f.type.scalar, values[i], bytes.data() + (i / c) * stride + field_offset(f.type, uint32_t(i % c)));
  buffers_.at(name).upload(bytes);
  transfers_[name].first += bytes.size();
}

std::vector<double> GpuMesh::download(const std::string& name) const {
  const Field& f = fields_.at(name);
  uint32_t c = field_values(f.type), stride = field_stride(f.type);
  auto bytes = buffer(name).download<uint8_t>();
  transfers_[name].second += bytes.size();
  size_t n = count(f.at);
  std::vector<double> out(n * c);
  for (size_t i = 0; i < n * c; ++i)
    out[i] = decode(f.type.scalar, bytes.data() + (i / c) * stride + field_offset(f.type, uint32_t(i % c)));
  return out;
}

const GpuMesh::Field& GpuMesh::field_line(const std::string& name, size_t entity) const {
  auto f = fields_.find(name);
  if (f == fields_.end()) throw std::invalid_argument("no field '" + name + "'");
  if (entity >= count(f->second.at))
    throw std::invalid_argument("field '" + name + "': no " + kind_name(f->second.at) + " " + std::to_string(entity) +
                                " (" + std::to_string(count(f->second.at)) + " of them)");
  return f->second;
}

void GpuMesh::set_line(const std::string& name, size_t entity, const std::vector<double>& values) {
  const Field& f = field_line(name, entity);
  const uint32_t c = field_values(f.type), stride = field_stride(f.type);
  if (values.size() != c)
    throw std::invalid_argument("field '" + name + "': " + std::to_string(c) + " values a line, not " +
                                std::to_string(values.size()));
  std::vector<uint8_t> line(stride);  // the line as it is (a vec3's padding kept), then its values
  buffer(name).download(line.data(), stride, entity * stride);
  for (uint32_t k = 0; k < c; ++k) encode(f.type.scalar, values[k], line.data() + field_offset(f.type, k));
  buffers_.at(name).upload(line.data(), line.size(), entity * stride);
  transfers_[name].first += line.size();
}

std::vector<double> GpuMesh::line(const std::string& name, size_t entity) const {
  const Field& f = field_line(name, entity);
  const uint32_t c = field_values(f.type), stride = field_stride(f.type);
  std::vector<uint8_t> bytes(stride);
  buffer(name).download(bytes.data(), stride, entity * stride);
  transfers_[name].second += stride;
  std::vector<double> out(c);
  for (uint32_t k = 0; k < c; ++k) out[k] = decode(f.type.scalar, bytes.data() + field_offset(f.type, k));
  return out;
}

void GpuMesh::free_field(const std::string& name) {
  if (!fields_.count(name)) throw std::invalid_argument("no field '" + name + "' to free");
  ctx_.wait_queue_idle();  // a frame in flight may still read it
  fields_.erase(name);
  buffers_.erase(name);
  transfers_.erase(name);
}

std::vector<std::string> GpuMesh::field_names() const {
  std::vector<std::string> n;
  for (auto& [name, f] : fields_) n.push_back(name);
  return n;
}

std::vector<float> GpuMesh::coordinates() const {
  transfers_["VerCrd"].second += 16 * nv_;
  auto c = buffer("VerCrd").download<float>();
  c.resize(4 * nv_);
  return c;
}

Mesh GpuMesh::download_mesh() const {
  Mesh m;
  m.dim = 3;
  auto crd = coordinates();
  for (size_t v = 0; v < nv_; ++v) m.xyz.insert(m.xyz.end(), {crd[4 * v], crd[4 * v + 1], crd[4 * v + 2]});
  m.vref = vref_;
  for (auto& [kind, e] : elements_) m.elements.push_back(e);
  return m;
}

Solutions GpuMesh::download_fields(std::vector<std::string>* columns) const {
  Solutions s;
  s.dim = 3;
  for (Kind k : kinds()) {
    Solution f{k, {}, {}};
    std::vector<std::pair<std::vector<double>, uint32_t>> data;  // each field's values and components
    for (auto& [name, fd] : fields_) {
      if (fd.at != k) continue;
      uint32_t values = field_values(fd.type);
      data.emplace_back(download(name), values);
      for (uint32_t c = 0; c < values; ++c) {
        f.types.push_back(1);
        std::string which = values <= 4 ? std::string(".") + "xyzw"[c] : "[" + std::to_string(c) + "]";
        if (columns) columns->push_back(name + which + " at " + kind_name(k));
      }
    }
    if (f.types.empty()) continue;
    for (size_t i = 0; i < count(k); ++i)
      for (auto& [v, c] : data) f.values.insert(f.values.end(), v.begin() + long(i * c), v.begin() + long((i + 1) * c));
    s.fields.push_back(std::move(f));
  }
  return s;
}

void GpuMesh::set_coordinates(const std::vector<float>& v) {
  if (v.size() != 4 * nv_) throw std::invalid_argument("coordinates: wrong size");
  if (!v.empty()) buffers_.at("VerCrd").upload(v);
  transfers_["VerCrd"].first += v.size() * 4;
}

void GpuMesh::add_link(const std::string& name, Kind from, Kind to, uint32_t slots,
                       const std::vector<uint32_t>& table) {
  check_name("link", name);
  if (fields_.count(name)) throw std::invalid_argument("link '" + name + "': a field has that name");
  if (slots == 0 || table.size() != count(from) * slots)
    throw std::invalid_argument("link '" + name + "': " + std::to_string(table.size()) + " entries for " +
                                std::to_string(count(from)) + " x " + std::to_string(slots));
  for (uint32_t t : table)
    if (t != UINT32_MAX && t >= count(to))
      throw std::invalid_argument("link '" + name + "': index " + std::to_string(t) + " past the " +
                                  std::to_string(count(to)) + " " + kind_name(to));
  links_.insert_or_assign(name, Link{from, to, slots});
  put(short_name(from) + name, table);
}

std::vector<std::string> GpuMesh::link_names() const {
  std::vector<std::string> n;
  for (auto& [name, l] : links_) n.push_back(name);
  return n;
}

const std::vector<uint32_t>& GpuMesh::neighbours(Kind k) {
  auto it = neighbours_.find(k);
  if (it == neighbours_.end())
    it = neighbours_.emplace(k, mesh::neighbours(elements(k), nv_)).first;  // GmlSetNeighbours
  return it->second;
}

void GpuMesh::set_neighbours(Kind k, std::vector<uint32_t> across) {
  if (across.size() != count(k) * local_topology(k).facets.size())
    throw std::logic_error(std::string("mesh: neighbours of the wrong size for ") + kind_name(k));
  neighbours_.insert_or_assign(k, std::move(across));
}

const Ball& GpuMesh::upward(Kind from, Kind to) {
  auto it = upward_.find({from, to});
  if (it != upward_.end()) return it->second;
  Ball b;
  const uint64_t most = ctx_.props.limits.maxStorageBufferRange;  // the packed table is one buffer
  if (from == Kind::Vertices) {
    b = ball(elements(to), nv_, most);
  } else if (from == Kind::Edges && !local_topology(to).edges.empty() && to != Kind::Edges) {
    elements(to);
    b = mesh::upward(edges_.edges_of.at(to), uint32_t(local_topology(to).edges.size()), edges_.count(), most);
  } else {
    throw std::invalid_argument(std::string("no upward link from ") + kind_name(from) + " to " + kind_name(to));
  }
  return upward_.emplace(std::make_pair(from, to), std::move(b)).first->second;
}

const gpu::Buffer& GpuMesh::resource(const std::string& name) {
  if (auto it = buffers_.find(name); it != buffers_.end()) return it->second;
  auto kind = [](const std::string& s) {
    for (Kind k : kAll)
      if (s == short_name(k)) return k;
    throw std::logic_error("mesh: no entity " + s);
  };
  Kind a = kind(name.substr(0, 3));
  std::string rest = name.substr(3);
  Kind b = kind(rest.substr(0, 3));
  if (a == b) {
    put(name, neighbours(a));
  } else if (rest == "Edg") {
    put(name, edges_.edges_of.at(a));
  } else {
    const Ball& u = upward(a, b);
    put(name.substr(0, 6), u.packed());
    put(name.substr(0, 6) + "Deg", u.degree);
  }
  return buffer(name);
}

std::vector<std::pair<std::string, size_t>> GpuMesh::memory() const {
  std::vector<std::pair<std::string, size_t>> m;
  for (auto& [name, b] : buffers_) m.emplace_back(name, b.size());
  return m;
}

}  // namespace mesh
