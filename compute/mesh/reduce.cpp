// GmlReduceVector: a reduction shader generated for each field type.
#include "compute/mesh/gpu_mesh.h"

#include "compute/gpu/shader_compile.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace mesh {

namespace {
constexpr uint32_t kReduceGroups = 256;
}  // namespace

void GpuMesh::record_reduce(VkCommandBuffer cmd, const std::string& name, uint32_t component, Partials& out) {
  const Field& f = fields_.at(name);
  if (component >= field_values(f.type))
    throw std::invalid_argument("reduce: field '" + name + "' has no component " + std::to_string(component));
  // Small ints are folded as ints; an array field's component is an element and a place in it.
  Scalar acc_scalar = f.type.scalar == Scalar::Int8 || f.type.scalar == Scalar::Int16 ? Scalar::Int : f.type.scalar;
  std::string type = glsl_type(f.type), elem = field_element(f.type), s = glsl_type({acc_scalar, 1});
  uint32_t per = f.type.components > 4 ? 1 : f.type.components, elements = field_elements(f.type);
  auto& pipe = reducers_[type];
  if (!pipe) {
    // Each group folds a grid-stride slice, then its threads in shared memory; the groups'
    // partials (min, max, sum, sum of squares, each as 2 words) are combined on the host.
    std::string acc = acc_scalar == Scalar::Double ? "double" : "float";
    std::string big = acc_scalar == Scalar::Int ? "2147483647" : s + "(uintBitsToFloat(0x7f800000u))";
    std::string small = acc_scalar == Scalar::Int ? "int(0x80000000u)" : "-" + big;
    auto enc = [&](const std::string& t, const std::string& x) {
      return t == "double" ? "unpackDouble2x32(" + x + ")"
             : t == "int"  ? "uvec2(uint(" + x + "), 0u)"
                           : "uvec2(floatBitsToUint(" + x + "), 0u)";
    };
    std::string ext =
        f.type.scalar == Scalar::Int8    ? "#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require\n"
                                           "#extension GL_EXT_shader_8bit_storage : require\n"
        : f.type.scalar == Scalar::Int16 ? "#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require\n"
                                           "#extension GL_EXT_shader_16bit_storage : require\n"
                                         : "";
    std::string load = "F_[i * " + std::to_string(elements) + "u + component / " + std::to_string(per) + "u]" +
                       (per > 1 ? "[component % " + std::to_string(per) + "u]" : "");
    std::string src = "#version 460\n" + ext +
                      "layout(local_size_x = 256) in;\n"
                      "layout(std430, binding = 0) readonly buffer F_b { " +
                      elem +
                      " F_[]; };\n"
                      "layout(std430, binding = 1) buffer P_b { uvec2 P_[]; };\n"
                      "layout(push_constant) uniform Push { uint count; uint component; };\n"
                      "shared " +
                      s + " smin[256], smax[256], ssum[256];\nshared " + acc +
                      " sl2[256];\n"
                      "void main() {\n  uint t = gl_LocalInvocationID.x;\n"
                      "  " +
                      s + " mn = " + big + ", mx = " + small + ", sum = " + s + "(0);\n  " + acc + " l2 = " + acc +
                      "(0);\n"
                      "  for (uint i = gl_GlobalInvocationID.x; i < count; i += gl_NumWorkGroups.x * 256u) {\n"
                      "    " +
                      s + " x = " + s + "(" + load +
                      ");\n"
                      "    mn = min(mn, x); mx = max(mx, x); sum += x; l2 += " +
                      acc + "(x) * " + acc +
                      "(x);\n  }\n"
                      "  smin[t] = mn; smax[t] = mx; ssum[t] = sum; sl2[t] = l2;\n"
                      "  for (uint h = 128u; h > 0u; h >>= 1) {\n    barrier();\n    if (t < h) {\n"
                      "      smin[t] = min(smin[t], smin[t + h]); smax[t] = max(smax[t], smax[t + h]);\n"
                      "      ssum[t] += ssum[t + h]; sl2[t] += sl2[t + h];\n    }\n  }\n"
                      "  if (t == 0u) {\n    uint g = 4u * gl_WorkGroupID.x;\n"
                      "    P_[g] = " +
                      enc(s, "smin[0]") + "; P_[g + 1u] = " + enc(s, "smax[0]") +
                      ";\n"
                      "    P_[g + 2u] = " +
                      enc(s, "ssum[0]") + "; P_[g + 3u] = " + enc(acc, "sl2[0]") + ";\n  }\n}\n";
    auto r = gpu::compile_glsl(src, gpu::ShaderStage::Compute, "mesh reduce " + type);
    if (!r.ok) throw std::logic_error("mesh reduce: " + r.messages);
    pipe = std::make_unique<gpu::Pipeline>(gpu::make_compute(ctx_, r.spirv, 8, {}, "mesh reduce " + type));
  }
  if (!out.buffer) out.buffer = gpu::Buffer(ctx_, 4 * 8 * kReduceGroups, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true);
  uint32_t n = uint32_t(count(f.at)), groups = std::clamp<uint32_t>(pipe->groups(n).x, 1, kReduceGroups);
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  uint32_t push[2] = {n, component};
  pipe->bind(cmd, {gpu::storage_buffer(buffer(name)), gpu::storage_buffer(out.buffer)}, push, 8);
  vkCmdDispatch(cmd, groups, 1, 1);
  gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
               VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
  out.scalar = acc_scalar, out.groups = groups;
}

GpuMesh::Reduction GpuMesh::read(Partials& p) {
  if (!p.groups) throw std::logic_error("mesh: no reduction recorded");
  uint32_t groups = p.groups;
  std::vector<uint32_t> w(8 * groups);
  p.buffer.download(w.data(), w.size() * 4);
  transfers_["reductions"].second += w.size() * 4;
  auto value = [&](size_t g, int j, bool l2) {
    const uint32_t* at = &w[8 * g + 2 * j];
    if (p.scalar == Scalar::Double) {
      double d;
      std::memcpy(&d, at, 8);
      return d;
    }
    if (p.scalar == Scalar::Int && !l2) return double(int32_t(at[0]));
    float x;
    std::memcpy(&x, at, 4);
    return double(x);
  };
  Reduction r{INFINITY, -INFINITY, 0, 0};
  for (size_t g = 0; g < groups; ++g) {
    r.min = std::min(r.min, value(g, 0, false)), r.max = std::max(r.max, value(g, 1, false));
    r.sum += value(g, 2, false), r.l2 += value(g, 3, true);
  }
  r.l2 = std::sqrt(r.l2);
  return r;
}

void GpuMesh::record_reduce(VkCommandBuffer cmd, const std::string& name, uint32_t component) {
  record_reduce(cmd, name, component, in_flight_);
}

GpuMesh::Reduction GpuMesh::read_reduction() { return read(in_flight_); }

GpuMesh::Reduction GpuMesh::reduce(const std::string& name, uint32_t component) {
  ctx_.submit_now([&](VkCommandBuffer cmd) { record_reduce(cmd, name, component, now_); });
  return read(now_);
}

}  // namespace mesh
