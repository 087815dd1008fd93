#include "compute/gpu/spirv_reflect.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace gpu {

namespace {

// The few numbers of the SPIR-V specification read here (its section 3, "Binary Form").
enum Op : uint32_t {
  OpEntryPoint = 15,
  OpExecutionMode = 16,
  OpTypeInt = 21,
  OpTypeFloat = 22,
  OpTypeVector = 23,
  OpTypeMatrix = 24,
  OpTypeImage = 25,
  OpTypeSampler = 26,
  OpTypeSampledImage = 27,
  OpTypeArray = 28,
  OpTypeRuntimeArray = 29,
  OpTypeStruct = 30,
  OpTypePointer = 32,
  OpConstant = 43,
  OpConstantComposite = 44,
  OpSpecConstant = 50,
  OpSpecConstantComposite = 51,
  OpVariable = 59,
  OpDecorate = 71,
  OpMemberDecorate = 72,
  OpExecutionModeId = 331,
  OpTypeAccelerationStructureKHR = 5341,
};
enum Decoration : uint32_t {
  SpecId = 1,
  BufferBlock = 3,
  RowMajor = 4,
  ArrayStride = 6,
  MatrixStride = 7,
  BuiltIn = 11,
  Binding = 33,
  DescriptorSet = 34,
  Offset = 35,
};
enum StorageClass : uint32_t { UniformConstant = 0, Uniform = 2, PushConstant = 9, StorageBuffer = 12 };
constexpr uint32_t kMagic = 0x07230203, kGLCompute = 5, kLocalSize = 17, kLocalSizeId = 38, kWorkgroupSize = 25;
constexpr uint32_t kDimBuffer = 5, kDimSubpassData = 6, kNone = ~0u, kMaxBound = 1u << 22;

// A result id: the instruction that made it and the decorations it carries.
struct Id {
  const uint32_t* in = nullptr;  // the instruction; in[0] holds its opcode and length
  uint32_t set = kNone, binding = kNone, spec_id = kNone, array_stride = 0;
  bool buffer_block = false;
  uint32_t op() const { return in ? in[0] & 0xffff : 0; }
};
struct Member {
  uint32_t offset = 0, matrix_stride = 0;
  bool row_major = false;
};
struct Layout {
  uint32_t size = 0, align = 1;
};

uint32_t round_up(uint32_t n, uint32_t to) { return (n + to - 1) / to * to; }

// The words a type instruction has at least, for the operands read below.
uint32_t type_words(uint32_t op) {
  switch (op) {
    case OpTypeImage:
      return 9;
    case OpTypeInt:
    case OpTypeVector:
    case OpTypeMatrix:
    case OpTypeArray:
    case OpTypePointer:
      return 4;
    case OpTypeFloat:
    case OpTypeSampledImage:
    case OpTypeRuntimeArray:
      return 3;
  }
  return 2;
}

class Reader {
 public:
  Reader(const std::vector<uint32_t>& spirv, const std::string& name, const std::vector<int32_t>& spec)
      : name_(name), spec_(spec) {
    if (spirv.size() < 5 || spirv[0] != kMagic) fail("not a SPIR-V module");
    // The ids are kept in a table as long as the bound: a corrupt bound must not make it huge.
    if (spirv[3] > kMaxBound) fail("an id bound over " + std::to_string(kMaxBound));
    ids_.resize(spirv[3]);
    for (size_t i = 5; i < spirv.size();) {
      uint32_t words = spirv[i] >> 16;
      if (words == 0 || i + words > spirv.size()) fail("an instruction runs past the end of the module");
      read(&spirv[i], words);
      i += words;
    }
  }

  ShaderInterface interface() const {
    ShaderInterface s;
    for (const uint32_t* var : variables_) {
      uint32_t storage = var[3];
      const Id& pointer = at(var[1]);
      if (pointer.op() != OpTypePointer) fail("a variable whose type is not a pointer");
      if (storage == PushConstant) s.push_bytes = std::max(s.push_bytes, layout(pointer.in[3], {}).size);
      if (storage != UniformConstant && storage != Uniform && storage != StorageBuffer) continue;
      const Id& v = at(var[2]);
      if (v.set == kNone || v.binding == kNone) fail("a descriptor without a set and binding");
      if (v.set != 0)
        fail("binding " + std::to_string(v.binding) + " is in set " + std::to_string(v.set) +
             "; the pipelines push one descriptor set, set 0");
      DescriptorBinding d = descriptor(storage, pointer.in[3], v.binding);
      auto [it, added] = s.bindings.emplace(v.binding, d);
      if (!added && !(it->second == d))
        fail("binding " + std::to_string(v.binding) + " is declared twice, as two kinds of descriptor");
    }
    if (compute_) s.local_size = local_size();
    return s;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw std::runtime_error("SPIR-V " + name_ + ": " + what); }

  const Id& at(uint32_t id) const {
    if (id >= ids_.size() || !ids_[id].in) fail("id " + std::to_string(id) + " is used but not defined");
    return ids_[id];
  }

  void read(const uint32_t* in, uint32_t words) {
    uint32_t op = in[0] & 0xffff;
    auto define = [&](uint32_t id) {
      if (id >= ids_.size()) fail("id " + std::to_string(id) + " is past the module's bound");
      ids_[id].in = in;
    };
    auto need = [&](uint32_t n) {
      if (words < n) fail("a truncated instruction (opcode " + std::to_string(op) + ")");
    };
    switch (op) {
      case OpEntryPoint:
        need(3);
        compute_ = compute_ || in[1] == kGLCompute;
        break;
      case OpExecutionMode:
      case OpExecutionModeId:
        need(3);
        if (in[2] == kLocalSize || in[2] == kLocalSizeId) need(6), local_size_mode_ = in;
        break;
      case OpTypeInt:
      case OpTypeFloat:
      case OpTypeVector:
      case OpTypeMatrix:
      case OpTypeImage:
      case OpTypeSampler:
      case OpTypeSampledImage:
      case OpTypeArray:
      case OpTypeRuntimeArray:
      case OpTypeStruct:
      case OpTypePointer:
      case OpTypeAccelerationStructureKHR:
        need(type_words(op));
        define(in[1]);
        break;
      case OpConstant:
      case OpSpecConstant:
        need(4);
        define(in[2]);
        break;
      case OpConstantComposite:
      case OpSpecConstantComposite:
        need(3);
        define(in[2]);
        break;
      case OpVariable:
        need(4);
        define(in[2]);
        variables_.push_back(in);
        break;
      case OpDecorate:
        need(3);
        decorate(in[1], in[2], words > 3 ? in[3] : 0);
        break;
      case OpMemberDecorate:
        need(4);
        member_decorate(in[1], in[2], in[3], words > 4 ? in[4] : 0);
        break;
    }
  }

  // Decorations come before the types and values they decorate, hence the id's slot is
  // filled here and its instruction later.
  void decorate(uint32_t target, uint32_t decoration, uint32_t value) {
    if (target >= ids_.size()) fail("a decoration on an id past the module's bound");
    Id& id = ids_[target];
    if (decoration == DescriptorSet) id.set = value;
    if (decoration == Binding) id.binding = value;
    if (decoration == SpecId) id.spec_id = value;
    if (decoration == ArrayStride) id.array_stride = value;
    if (decoration == BufferBlock) id.buffer_block = true;
    if (decoration == BuiltIn && value == kWorkgroupSize) workgroup_size_ = target;
  }

  void member_decorate(uint32_t type, uint32_t member, uint32_t decoration, uint32_t value) {
    auto& members = member_decorations_[type];
    if (members.size() <= member) members.resize(member + 1);
    if (decoration == Offset) members[member].offset = value;
    if (decoration == MatrixStride) members[member].matrix_stride = value;
    if (decoration == RowMajor) members[member].row_major = true;
  }

  // The value of a 32-bit constant; a specialization constant takes the pipeline's value for
  // its id, else keeps its default.
  uint32_t constant(uint32_t id) const {
    const Id& c = at(id);
    if (c.op() == OpSpecConstant && c.spec_id < spec_.size()) return uint32_t(spec_[c.spec_id]);
    if (c.op() == OpConstant || c.op() == OpSpecConstant) return c.in[3];
    fail("a value computed from specialization constants (id " + std::to_string(id) +
         "), where this reader takes a constant");
  }

  // The workgroup size: a WorkgroupSize built-in overrides the execution mode (the SPIR-V
  // specification says so); GLSL's local_size_x_id gives one made of spec constants.
  Dim3 local_size() const {
    if (workgroup_size_ != kNone) {
      const Id& c = at(workgroup_size_);
      if ((c.op() != OpConstantComposite && c.op() != OpSpecConstantComposite) || (c.in[0] >> 16) != 6)
        fail("a WorkgroupSize built-in that is not a constant vector");
      return {constant(c.in[3]), constant(c.in[4]), constant(c.in[5])};
    }
    if (!local_size_mode_) fail("a compute shader without a workgroup size");
    const uint32_t* m = local_size_mode_;
    if (m[2] == kLocalSize) return {m[3], m[4], m[5]};
    return {constant(m[3]), constant(m[4]), constant(m[5])};
  }

  DescriptorBinding descriptor(uint32_t storage, uint32_t type, uint32_t binding) const {
    DescriptorBinding d;
    const Id* t = &at(type);
    for (; t->op() == OpTypeArray || t->op() == OpTypeRuntimeArray; t = &at(t->in[2])) {
      if (t->op() == OpTypeRuntimeArray)
        fail("binding " + std::to_string(binding) + " is an array of descriptors without a length");
      d.count *= constant(t->in[3]);
    }
    if (storage == StorageBuffer || storage == Uniform) {
      // SPIR-V 1.0 writes a GLSL `buffer` block as a Uniform struct decorated BufferBlock.
      d.type = storage == StorageBuffer || t->buffer_block ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
                                                           : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
      return d;
    }
    d.type = opaque_type(*t, binding);
    return d;
  }

  // The descriptor type of an image, sampler or acceleration structure.
  VkDescriptorType opaque_type(const Id& t, uint32_t binding) const {
    const uint32_t* in = t.in;
    switch (t.op()) {
      case OpTypeImage: {
        const uint32_t dim = in[3], sampled = in[7];
        if (dim == kDimSubpassData) return VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
        if (sampled == 2)
          return dim == kDimBuffer ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
        if (sampled == 1)
          return dim == kDimBuffer ? VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
        fail("binding " + std::to_string(binding) + " is an image neither sampled nor storage");
      }
      case OpTypeSampler:
        return VK_DESCRIPTOR_TYPE_SAMPLER;
      case OpTypeSampledImage:
        return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
      case OpTypeAccelerationStructureKHR:
        return VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR;
    }
    fail("binding " + std::to_string(binding) + " has a type this reader does not know (opcode " +
         std::to_string(t.op()) + ")");
  }

  // Size and alignment as std430 lays `type` out, from the Offset, ArrayStride and MatrixStride
  // the compiler wrote: the numbers sizeof and alignof give the C++ twin (shaders/common/push.h).
  Layout layout(uint32_t type, const Member& as) const {
    const Id& t = at(type);
    const uint32_t* in = t.in;
    auto vector = [](Layout scalar, uint32_t n) { return Layout{scalar.size * n, scalar.size * (n == 2 ? 2 : 4)}; };
    switch (t.op()) {
      case OpTypeInt:
      case OpTypeFloat:
        return {in[2] / 8, in[2] / 8};
      case OpTypeVector:
        return vector(layout(in[2], {}), in[3]);
      case OpTypeMatrix: {
        const Id& vec = at(in[2]);
        if (vec.op() != OpTypeVector) fail("a matrix whose columns are not vectors");
        const uint32_t* column = vec.in;
        Layout scalar = layout(column[2], {});
        uint32_t rows = column[3], columns = in[3];
        Layout line = vector(scalar, as.row_major ? columns : rows);  // what the stride steps over
        uint32_t stride = as.matrix_stride ? as.matrix_stride : round_up(line.size, line.align);
        return {stride * (as.row_major ? rows : columns), line.align};
      }
      case OpTypeArray: {
        if (!t.array_stride) fail("an array in the push constants without an ArrayStride");
        return {t.array_stride * constant(in[3]), layout(in[2], {}).align};
      }
      case OpTypeStruct: {
        Layout s;
        const auto found = member_decorations_.find(type);
        const uint32_t members = (in[0] >> 16) - 2;
        for (uint32_t m = 0; m < members; ++m) {
          Member d = found != member_decorations_.end() && m < found->second.size() ? found->second[m] : Member{};
          Layout l = layout(in[2 + m], d);
          s.size = std::max(s.size, d.offset + l.size);
          s.align = std::max(s.align, l.align);
        }
        return {round_up(s.size, s.align), s.align};
      }
    }
    fail("a push-constant member of a type this reader does not lay out (opcode " + std::to_string(t.op()) + ")");
  }

  std::string name_;
  const std::vector<int32_t>& spec_;
  std::vector<Id> ids_;
  std::vector<const uint32_t*> variables_;
  std::unordered_map<uint32_t, std::vector<Member>> member_decorations_;
  const uint32_t* local_size_mode_ = nullptr;
  uint32_t workgroup_size_ = kNone;
  bool compute_ = false;
};

}  // namespace

ShaderInterface reflect_spirv(const std::vector<uint32_t>& spirv, const std::string& name,
                              const std::vector<int32_t>& spec) {
  return Reader(spirv, name, spec).interface();
}

}  // namespace gpu
