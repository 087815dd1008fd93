// The SPIR-V of a user's kernel screened before a pipeline is made (spirv_screen.h).
#include "compute/gpu/spirv_screen.h"

#include <spirv-tools/libspirv.hpp>
#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

namespace gpu {

namespace {

using spv::Capability;

// What the module declares, as read by SPIRV-Tools' parser.
struct Module {
  std::vector<Capability> capabilities;
  std::vector<std::string> extensions;
  std::map<uint32_t, uint64_t> type_bytes;  // a type's size (tightly packed: enough for a limit)
  std::map<uint32_t, uint64_t> constants;   // integer constants (array lengths, workgroup sizes)
  std::map<uint32_t, std::pair<spv::StorageClass, uint32_t>> pointers;  // pointer type: class, pointee
  uint64_t shared_bytes = 0, invocation_bytes = 0;
  uint32_t local[3] = {1, 1, 1};
  uint32_t workgroup_size_id = 0;  // the constant decorated BuiltIn WorkgroupSize, if any
  std::map<uint32_t, std::vector<uint32_t>> composites;

  uint64_t size_of(uint32_t type) const {
    auto it = type_bytes.find(type);
    return it == type_bytes.end() ? 0 : it->second;
  }
};

// A size vklab cannot know: an array whose length is a specialization-constant expression.
constexpr uint64_t kUnknown = uint64_t(1) << 62;
uint64_t saturated(uint64_t a, uint64_t b) { return std::min(kUnknown, b && a > kUnknown / b ? kUnknown : a * b); }

spv_result_t read(void* user, const spv_parsed_instruction_t* in) {
  Module& m = *static_cast<Module*>(user);
  const uint32_t* w = in->words;
  auto op = spv::Op(in->opcode);
  auto string_at = [&](uint16_t operand) {
    return std::string(reinterpret_cast<const char*>(w + in->operands[operand].offset));
  };
  switch (op) {
    case spv::Op::OpCapability:
      m.capabilities.push_back(Capability(w[1]));
      break;
    case spv::Op::OpExtension:
      m.extensions.push_back(string_at(0));
      break;
    case spv::Op::OpExecutionMode:
      if (spv::ExecutionMode(w[2]) == spv::ExecutionMode::LocalSize && in->num_words >= 6)
        m.local[0] = w[3], m.local[1] = w[4], m.local[2] = w[5];
      break;
    case spv::Op::OpExecutionModeId:  // sizes from constants: set by the lab's own code (group_tuning.h)
      break;
    case spv::Op::OpDecorate:
      if (spv::Decoration(w[2]) == spv::Decoration::BuiltIn && in->num_words >= 4 &&
          spv::BuiltIn(w[3]) == spv::BuiltIn::WorkgroupSize)
        m.workgroup_size_id = w[1];
      break;
    case spv::Op::OpTypeBool:
      m.type_bytes[w[1]] = 4;
      break;
    case spv::Op::OpTypeInt:
    case spv::Op::OpTypeFloat:
      m.type_bytes[w[1]] = std::max(1u, w[2] / 8);
      break;
    case spv::Op::OpTypeVector:
    case spv::Op::OpTypeMatrix:
      m.type_bytes[w[1]] = saturated(m.size_of(w[2]), w[3]);
      break;
    case spv::Op::OpTypeArray: {
      // A length from a specialization constant counts as its default (the pipelines are made with
      // the defaults, or with the lab's own); from a specialization-constant expression: unknown.
      auto n = m.constants.find(w[3]);
      m.type_bytes[w[1]] = n == m.constants.end() ? kUnknown : saturated(m.size_of(w[2]), n->second);
      break;
    }
    case spv::Op::OpTypeStruct: {
      uint64_t sum = 0;
      for (uint16_t k = 2; k < in->num_words; ++k) sum = std::min(kUnknown, sum + m.size_of(w[k]));
      m.type_bytes[w[1]] = sum;
      break;
    }
    case spv::Op::OpTypePointer:
      m.pointers[w[1]] = {spv::StorageClass(w[2]), w[3]};
      break;
    case spv::Op::OpConstant:
    case spv::Op::OpSpecConstant:
      m.constants[w[2]] = in->num_words >= 5 ? (uint64_t(w[4]) << 32 | w[3]) : w[3];
      break;
    case spv::Op::OpConstantComposite:
    case spv::Op::OpSpecConstantComposite:
      m.composites[w[2]].assign(w + 3, w + in->num_words);
      break;
    case spv::Op::OpVariable: {
      auto p = m.pointers.find(w[1]);
      if (p == m.pointers.end()) break;
      uint64_t bytes = m.size_of(p->second.second);
      auto sc = spv::StorageClass(w[3]);
      if (sc == spv::StorageClass::Workgroup)
        m.shared_bytes = std::min<uint64_t>(UINT64_MAX / 2, m.shared_bytes + bytes);
      if (sc == spv::StorageClass::Function || sc == spv::StorageClass::Private)
        m.invocation_bytes = std::min<uint64_t>(UINT64_MAX / 2, m.invocation_bytes + bytes);
      break;
    }
    default:
      break;
  }
  return SPV_SUCCESS;
}

// The capabilities a kernel may use, each with what the device must have enabled for it.
bool capability_allowed(Capability c, const Context& ctx) {
  const uint32_t ops = ctx.info.subgroup_ops;
  switch (c) {
    case Capability::Shader:
    case Capability::Matrix:
      return true;
    case Capability::Float64:
      return ctx.info.fp64;
    case Capability::Int64:
      return ctx.info.int64;
    case Capability::Int64Atomics:
      return ctx.int64_atomics;
    case Capability::Int16:
    case Capability::StorageBuffer16BitAccess:
    case Capability::UniformAndStorageBuffer16BitAccess:
      return ctx.int16;
    case Capability::Float16:
      return ctx.fp16;
    case Capability::Int8:
    case Capability::StorageBuffer8BitAccess:
    case Capability::UniformAndStorageBuffer8BitAccess:
      return ctx.int8;
    case Capability::AtomicFloat32AddEXT:
      return ctx.atomic_float_add;
    case Capability::GroupNonUniform:
      return ops & VK_SUBGROUP_FEATURE_BASIC_BIT;
    case Capability::GroupNonUniformVote:
      return ops & VK_SUBGROUP_FEATURE_VOTE_BIT;
    case Capability::GroupNonUniformArithmetic:
      return ops & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
    case Capability::GroupNonUniformBallot:
      return ops & VK_SUBGROUP_FEATURE_BALLOT_BIT;
    case Capability::GroupNonUniformShuffle:
      return ops & VK_SUBGROUP_FEATURE_SHUFFLE_BIT;
    case Capability::GroupNonUniformShuffleRelative:
      return ops & VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT;
    case Capability::GroupNonUniformClustered:
      return ops & VK_SUBGROUP_FEATURE_CLUSTERED_BIT;
    case Capability::GroupNonUniformQuad:
      return ops & VK_SUBGROUP_FEATURE_QUAD_BIT;
    default:
      return false;
  }
}

std::string capability_name(Capability c) {
  switch (c) {
    case Capability::PhysicalStorageBufferAddresses:
      return "PhysicalStorageBufferAddresses (GL_EXT_buffer_reference: raw GPU addresses, which could reach any "
             "memory; a kernel reads and writes only the buffers it is given)";
    case Capability::Float64:
      return "Float64 (double: this device has no 64-bit floats enabled)";
    case Capability::Int64:
      return "Int64 (64-bit integers: not on this device)";
    case Capability::Int64Atomics:
      return "Int64Atomics (64-bit atomics on buffers: not on this device)";
    case Capability::AtomicFloat32AddEXT:
      return "AtomicFloat32AddEXT (atomicAdd on floats: not on this device)";
    default:
      return "number " + std::to_string(uint32_t(c));
  }
}

const char* kExtensions[] = {"SPV_KHR_storage_buffer_storage_class", "SPV_KHR_16bit_storage", "SPV_KHR_8bit_storage",
                             "SPV_EXT_shader_atomic_float_add"};

}  // namespace

void screen_spirv(const std::vector<uint32_t>& spirv, const Context& ctx) {
  std::string problems;
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* message) {
    if (problems.size() < 2000) problems += std::string(problems.empty() ? "" : "; ") + message;
  });
  spvtools::ValidatorOptions options;
  options.SetScalarBlockLayout(ctx.scalar_block);  // GL_EXT_scalar_block_layout where the device enabled it
  if (!tools.Validate(spirv.data(), spirv.size(), options))
    throw std::invalid_argument("the compiled kernel is not valid for Vulkan (SPIRV-Tools: " + problems + ")");
  Module m;
  std::unique_ptr<spv_context_t, void (*)(spv_context)> context(spvContextCreate(SPV_ENV_VULKAN_1_2),
                                                                spvContextDestroy);
  if (spvBinaryParse(context.get(), &m, spirv.data(), spirv.size(), nullptr, read, nullptr) != SPV_SUCCESS)
    throw std::invalid_argument("the compiled kernel could not be read back");

  for (Capability c : m.capabilities)
    if (!capability_allowed(c, ctx))
      throw std::invalid_argument("the kernel needs the SPIR-V capability " + capability_name(c) +
                                  ", which kernels may not use on " + ctx.info.name);
  for (auto& e : m.extensions)
    if (std::none_of(std::begin(kExtensions), std::end(kExtensions), [&](const char* a) { return e == a; }))
      throw std::invalid_argument("the kernel needs the SPIR-V extension " + e + ", which kernels may not use");

  const VkPhysicalDeviceLimits& lim = ctx.props.limits;
  uint64_t local[3] = {m.local[0], m.local[1], m.local[2]};
  if (auto c = m.composites.find(m.workgroup_size_id); m.workgroup_size_id && c != m.composites.end())
    for (size_t k = 0; k < 3 && k < c->second.size(); ++k) local[k] = m.constants[c->second[k]];
  for (int k = 0; k < 3; ++k)
    if (local[k] > lim.maxComputeWorkGroupSize[k])
      throw std::invalid_argument("a workgroup of " + std::to_string(local[k]) + " invocations along " + "xyz"[k] +
                                  ", more than the " + std::to_string(lim.maxComputeWorkGroupSize[k]) + " " +
                                  ctx.info.name + " allows (local_size_" + "xyz"[k] + ")");
  uint64_t invocations = local[0] * local[1] * local[2];
  if (invocations > lim.maxComputeWorkGroupInvocations)
    throw std::invalid_argument("a workgroup of " + std::to_string(invocations) + " invocations, more than the " +
                                std::to_string(lim.maxComputeWorkGroupInvocations) + " " + ctx.info.name +
                                " allows (local_size_x * y * z)");
  if (m.shared_bytes >= kUnknown || m.invocation_bytes >= kUnknown)
    throw std::invalid_argument(
        "an array whose length is a specialization-constant expression: vklab cannot bound its memory; give it a "
        "constant length");
  if (m.shared_bytes > lim.maxComputeSharedMemorySize)
    throw std::invalid_argument("the kernel's shared variables take " + std::to_string(m.shared_bytes) +
                                " bytes, more than the " + std::to_string(lim.maxComputeSharedMemorySize) + " " +
                                ctx.info.name + " has a workgroup");
  if (m.invocation_bytes > kMaxInvocationBytes)
    throw std::invalid_argument("the kernel's local variables take " + std::to_string(m.invocation_bytes) +
                                " bytes an invocation, more than the " + std::to_string(kMaxInvocationBytes) +
                                " a kernel may (a local array that big would spill to memory; use a buffer)");
}

}  // namespace gpu
