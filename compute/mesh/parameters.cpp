// GmlNewParameters (manual §4.18): the Par structure of GpuMesh (gpu_mesh.h).
#include "compute/mesh/gpu_mesh.h"

#include "compute/mesh/io/kernel_words.h"

#include <cstring>
#include <sstream>

namespace mesh {

namespace {
// std430: a scalar aligns to its size, a 2-vector to twice it, a 3- or 4-vector to 4 times.
uint32_t alignment(FieldType t) { return scalar_bytes(t.scalar) * (t.components == 1 ? 1 : t.components == 2 ? 2 : 4); }
}  // namespace

void GpuMesh::set_parameters(std::vector<Parameter> p) {
  uint32_t offset = 0, largest = 4;
  std::vector<uint32_t> offsets;
  for (size_t k = 0; k < p.size(); ++k) {
    auto& q = p[k];
    if (!words::is_capitalised_name(q.name) || !words::short_kind_at(q.name).empty())
      throw std::invalid_argument("parameter '" + q.name +
                                  "': a capitalised identifier not starting with an entity's short name");
    for (size_t j = 0; j < k; ++j)
      if (p[j].name == q.name) throw std::invalid_argument("parameter '" + q.name + "' declared twice");
    if (q.type.components < 1 || q.type.components > 4 || q.type.count != 1 || q.type.scalar == Scalar::Int8 ||
        q.type.scalar == Scalar::Int16)
      throw std::invalid_argument("parameter '" + q.name + "': float, int or double, or a vector of 2 to 4 of them");
    if (q.type.scalar == Scalar::Double && !ctx_.info.fp64)
      throw std::invalid_argument("parameter '" + q.name + "': this device has no fp64");
    q.values.resize(q.type.components, 0.0);
    uint32_t a = alignment(q.type);
    offset = (offset + a - 1) / a * a;
    offsets.push_back(offset);
    offset += scalar_bytes(q.type.scalar) * q.type.components;
    largest = std::max(largest, a);
  }
  params_ = std::move(p);
  param_offsets_ = std::move(offsets);
  param_bytes_ = std::max(16u, (offset + largest - 1) / largest * largest);
  if (params_.empty()) {
    buffers_.erase("Par");
    return;
  }
  buffers_.insert_or_assign("Par", gpu::Buffer(ctx_, param_bytes_,
                                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT));
  param_readback_ = gpu::Buffer(ctx_, size_t(param_bytes_) * kParameterSlots, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
  buffers_.at("Par").upload(pack_parameters());
  transfers_["Par"].first += param_bytes_;
  params_dirty_ = false;
}

void GpuMesh::set_parameter(const std::string& name, const std::vector<double>& values) {
  for (auto& p : params_)
    if (p.name == name) {
      if (values.size() != p.type.components)
        throw std::invalid_argument("parameter '" + name + "': " + std::to_string(p.type.components) + " values");
      p.values = values;
      params_dirty_ = true;
      return;
    }
  throw std::invalid_argument("no parameter '" + name + "'");
}

std::vector<uint8_t> GpuMesh::pack_parameters() const {
  std::vector<uint8_t> b(param_bytes_, 0);
  for (size_t k = 0; k < params_.size(); ++k)
    for (uint32_t c = 0; c < params_[k].type.components; ++c) {
      uint8_t* at = b.data() + param_offsets_[k] + c * scalar_bytes(params_[k].type.scalar);
      double v = params_[k].values[c];
      if (params_[k].type.scalar == Scalar::Float) {
        float f = float(v);
        std::memcpy(at, &f, 4);
      } else if (params_[k].type.scalar == Scalar::Int) {
        int32_t i = int32_t(v);
        std::memcpy(at, &i, 4);
      } else {
        std::memcpy(at, &v, 8);
      }
    }
  return b;
}

std::vector<Parameter> GpuMesh::unpack_parameters(const uint8_t* b) const {
  std::vector<Parameter> out = params_;
  for (size_t k = 0; k < out.size(); ++k)
    for (uint32_t c = 0; c < out[k].type.components; ++c) {
      const uint8_t* at = b + param_offsets_[k] + c * scalar_bytes(out[k].type.scalar);
      if (out[k].type.scalar == Scalar::Float) {
        float f;
        std::memcpy(&f, at, 4);
        out[k].values[c] = f;
      } else if (out[k].type.scalar == Scalar::Int) {
        int32_t i;
        std::memcpy(&i, at, 4);
        out[k].values[c] = i;
      } else {
        std::memcpy(&out[k].values[c], at, 8);
      }
    }
  return out;
}

std::vector<Parameter> GpuMesh::parameters_after(uint32_t slot) const {
  if (params_.empty() || slot >= kParameterSlots) return {};
  transfers_["Par"].second += param_bytes_;
  return unpack_parameters(static_cast<const uint8_t*>(param_readback_.mapped()) + size_t(slot) * param_bytes_);
}

void GpuMesh::adopt_parameters(uint32_t slot) {
  if (!params_dirty_ && !params_.empty()) params_ = parameters_after(slot);
}

std::string GpuMesh::parameter_block() const {
  std::ostringstream s;
  for (auto& p : params_) s << glsl_type(p.type) << " " << p.name << "; ";
  return s.str();
}

}  // namespace mesh
