#include "kernels.h"

#include "gpu/shader_compile.h"

#include <cmath>
#include <regex>
#include <sstream>

namespace mesh {

namespace {
constexpr VkBufferUsageFlags kUsage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
const char* short_name(Kind k) { return k == Kind::Vertices ? "Ver" : "Tri"; }
}  // namespace

GpuMesh::GpuMesh(gpu::Context& ctx, const Mesh& m) : ctx_(ctx) {
  const Elements* tri = m.find(Kind::Triangles);
  if (!tri || !tri->count()) throw std::invalid_argument("mesh kernels: the mesh has no triangles");
  nv_ = m.vertices(), nt_ = tri->count();
  std::vector<float> crd(4 * nv_, 0.0f);
  for (size_t v = 0; v < nv_; ++v)
    for (int c = 0; c < m.dim; ++c) crd[4 * v + c] = float(m.xyz[v * m.dim + c]);
  crd_ = gpu::Buffer(ctx, crd.size() * 4, kUsage);
  crd_.upload(crd);
  transfers_["VerCrd"].first += crd.size() * 4;
  std::vector<uint32_t> tv(4 * nt_);
  for (size_t t = 0; t < nt_; ++t) {
    for (int c = 0; c < 3; ++c) tv[4 * t + c] = tri->v[3 * t + c];
    tv[4 * t + 3] = uint32_t(tri->ref[t]);
  }
  tri_ver_ = gpu::Buffer(ctx, tv.size() * 4, kUsage);
  tri_ver_.upload(tv);
  transfers_["TriVer"].first += tv.size() * 4;
  ball_ = mesh::ball(*tri, nv_);
  auto ngb = neighbours(*tri, extract_edges(*tri));  // GmlSetNeighbours
  std::vector<uint32_t> tt(4 * nt_, UINT32_MAX);
  for (size_t t = 0; t < nt_; ++t)
    for (int c = 0; c < 3; ++c) tt[4 * t + c] = ngb[3 * t + c];
  tri_tri_ = gpu::Buffer(ctx, tt.size() * 4, kUsage);
  tri_tri_.upload(tt);
  transfers_["TriTri"].first += tt.size() * 4;
  ver_tri_ = gpu::Buffer(ctx, std::max<size_t>(1, ball_.faces.size()) * 4, kUsage);
  ver_tri_.upload(ball_.faces);
  ver_tri_deg_ = gpu::Buffer(ctx, ball_.degree.size() * 4, kUsage);
  ver_tri_deg_.upload(ball_.degree);
  transfers_["VerTri (ball)"].first += ball_.faces.size() * 4;
  transfers_["VerTriDeg"].first += ball_.degree.size() * 4;
}

void GpuMesh::add_field(const std::string& name, Kind at) {
  static const std::regex ok("[A-Z][A-Za-z0-9]*");
  if (!std::regex_match(name, ok) || name == "Ver" || name == "Crd" || name == "TriDeg")
    throw std::invalid_argument("field name '" + name + "': a capitalised identifier, not a reserved one");
  if (at != Kind::Vertices && at != Kind::Triangles) throw std::invalid_argument("fields live at vertices or triangles");
  size_t n = at == Kind::Vertices ? nv_ : nt_;
  Field f{at, gpu::Buffer(ctx_, n * 16, kUsage)};
  f.buffer.upload(std::vector<float>(4 * n, 0.0f));
  fields_.insert_or_assign(name, std::move(f));
}

void GpuMesh::upload(const std::string& name, const std::vector<float>& v) {
  auto& f = fields_.at(name);
  if (v.size() * 4 != f.buffer.size()) throw std::invalid_argument("field '" + name + "': wrong size");
  f.buffer.upload(v);
  transfers_[name].first += v.size() * 4;
}

std::vector<float> GpuMesh::download(const std::string& name) const {
  transfers_[name].second += fields_.at(name).buffer.size();
  return fields_.at(name).buffer.download<float>();
}

std::vector<float> GpuMesh::coordinates() const {
  transfers_["VerCrd"].second += crd_.size();
  return crd_.download<float>();
}

void GpuMesh::set_coordinates(const std::vector<float>& v) {
  if (v.size() != 4 * nv_) throw std::invalid_argument("coordinates: wrong size");
  crd_.upload(v);
  transfers_["VerCrd"].first += v.size() * 4;
}

std::vector<std::string> GpuMesh::field_names() const {
  std::vector<std::string> n;
  for (auto& [name, f] : fields_) n.push_back(name);
  return n;
}

std::vector<gpu::Bind> GpuMesh::binds() const {
  std::vector<gpu::Bind> b = {gpu::storage_buffer(crd_), gpu::storage_buffer(tri_ver_), gpu::storage_buffer(ver_tri_),
                              gpu::storage_buffer(ver_tri_deg_), gpu::storage_buffer(tri_tri_)};
  for (auto& [name, f] : fields_) b.push_back(gpu::storage_buffer(f.buffer));
  return b;
}

std::unique_ptr<GpuMesh::Kernel> GpuMesh::compile(Kind loop, const std::string& body) const {
  if (loop != Kind::Vertices && loop != Kind::Triangles) throw KernelError("kernels loop over vertices or triangles");
  auto k = std::make_unique<Kernel>();
  k->loop = loop;
  k->count = uint32_t(loop == Kind::Vertices ? nv_ : nt_);
  std::string L = short_name(loop);
  std::ostringstream s;
  s << "#version 460\n";
  if (ctx_.atomic_float_add) s << "#extension GL_EXT_shader_atomic_float : require\n";  // atomicAdd on fields' F_[]
  s << "layout(local_size_x = 64) in;\n"
    << "layout(std430, binding = 0) buffer VerCrd_b { vec4 VerCrd_[]; };\n"
    << "layout(std430, binding = 1) readonly buffer TriVer_b { uvec4 TriVer_[]; };\n"
    << "layout(std430, binding = 2) readonly buffer VerTri_b { uint VerTri_[]; };\n"
    << "layout(std430, binding = 3) readonly buffer VerTriDeg_b { uint VerTriDeg_[]; };\n"
    << "layout(std430, binding = 4) readonly buffer TriTri_b { uvec4 TriTri_[]; };\n";
  uint32_t binding = 5;
  for (auto& [name, f] : fields_) s << "layout(std430, binding = " << binding++ << ") buffer " << name << "_b { vec4 " << name << "_[]; };\n";
  s << "layout(push_constant) uniform Push { uint count; };\nconst uint PAD = " << std::max(1u, ball_.padded) << "u;\n"
    << "void main() {\n  uint i = gl_GlobalInvocationID.x;\n  if (i >= count) return;\n";
  // which fields the body assigns (F = ..., F.x = ..., F += ...): stored back
  auto assigned = [&](const std::string& var) {
    std::regex r("\\b" + var + "\\b(\\.[xyzw]+)?\\s*([-+*/]?=)(?!=)");
    return std::regex_search(body, r);
  };
  if (loop == Kind::Triangles) {
    s << "  uvec3 TriVer = TriVer_[i].xyz;\n"
      << "  vec3 TriVerCrd[3] = vec3[3](VerCrd_[TriVer.x].xyz, VerCrd_[TriVer.y].xyz, VerCrd_[TriVer.z].xyz);\n"
      << "  uvec3 TriTri = TriTri_[i].xyz;\n";
    for (auto& [name, f] : fields_) {
      if (f.at == Kind::Triangles)
        s << "  vec4 Tri" << name << " = " << name << "_[i];\n  vec4 TriTri" << name << "[3];\n"
          << "  for (int k = 0; k < 3; ++k) TriTri" << name << "[k] = TriTri[k] != 0xffffffffu ? " << name
          << "_[TriTri[k]] : vec4(0.0);\n";
      else s << "  vec4 TriVer" << name << "[3] = vec4[3](" << name << "_[TriVer.x], " << name << "_[TriVer.y], " << name
             << "_[TriVer.z]);\n";
    }
  } else {
    s << "  vec3 VerCrd = VerCrd_[i].xyz;\n  uint VerTriDeg = VerTriDeg_[i];\n";
    for (auto& [name, f] : fields_) {
      if (f.at == Kind::Vertices) {
        s << "  vec4 Ver" << name << " = " << name << "_[i];\n";
      } else {
        s << "  vec4 VerTri" << name << "[PAD];\n  for (uint k = 0u; k < PAD; ++k) VerTri" << name
          << "[k] = k < VerTriDeg ? " << name << "_[VerTri_[i * PAD + k]] : vec4(0.0);\n";
      }
    }
  }
  s << "#line 1\n" << body << "\n#line 100000\n";
  if (loop == Kind::Vertices && assigned("VerCrd")) {
    s << "  VerCrd_[i].xyz = VerCrd;\n";
    k->writes.push_back("Crd");
  }
  for (auto& [name, f] : fields_)
    if (f.at == loop && assigned(L + name)) {
      s << "  " << name << "_[i] = " << L << name << ";\n";
      k->writes.push_back(name);
    }
  s << "}\n";
  k->source = s.str();
  auto r = gpu::compile_glsl(k->source, gpu::ShaderStage::Compute, "kernel");
  if (!r.ok) throw KernelError(r.messages);
  std::vector<VkDescriptorType> types(5 + fields_.size(), VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
  k->pipeline = gpu::make_compute(ctx_, r.spirv, types, 4);
  return k;
}

GpuMesh::Reduction GpuMesh::reduce(const std::string& name, uint32_t component) {
  constexpr uint32_t kGroups = 64;
  if (component > 3) throw std::invalid_argument("reduce: a vec4 component, 0 to 3");
  const Field& f = fields_.at(name);
  if (!reduce_) {
    reduce_ = gpu::make_compute(ctx_, "mesh/reduce.comp", {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 16);
    parts_ = gpu::Buffer(ctx_, 16 * (kGroups + 1), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
  }
  uint32_t count = uint32_t(f.at == Kind::Vertices ? nv_ : nt_);
  ctx_.submit_now([&](VkCommandBuffer cmd) {
    for (uint32_t pass = 0; pass < 2; ++pass) {
      gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
      uint32_t push[4] = {count, component, pass, kGroups};
      reduce_.bind(cmd, {gpu::storage_buffer(f.buffer), gpu::storage_buffer(parts_)}, push, 16);
      vkCmdDispatch(cmd, pass == 0 ? kGroups : 1, 1, 1);
    }
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
  });
  float part[4];
  parts_.download(part, 16, 16 * kGroups);
  transfers_["reductions"].second += 16;
  return {part[0], part[1], part[2], std::sqrt(double(part[3]))};
}

std::vector<std::pair<std::string, size_t>> GpuMesh::memory() const {
  std::vector<std::pair<std::string, size_t>> m = {{"VerCrd", crd_.size()}, {"TriVer", tri_ver_.size()},
                                                   {"VerTri (ball)", ver_tri_.size()},
                                                   {"VerTriDeg", ver_tri_deg_.size()},
                                                   {"TriTri", tri_tri_.size()}};
  for (auto& [name, f] : fields_) m.emplace_back(name, f.buffer.size());
  return m;
}

void GpuMesh::record(VkCommandBuffer cmd, const Kernel& k) const {
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  k.pipeline.bind(cmd, binds(), k.count);
  vkCmdDispatch(cmd, gpu::groups(k.count, 64), 1, 1);
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
}

}  // namespace mesh
