// What a SPIR-V module already says about its pipeline: the descriptors of set 0, the size of
// its push-constant block and a compute shader's workgroup size. Pipelines (pipeline.h) are
// made from it, so no caller repeats the shader's declarations in C++.
#pragma once
#include "compute/gpu/vk.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gpu {

// Sizes or counts along x, y and z: a workgroup's size, or the workgroups of a dispatch.
struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  bool operator==(const Dim3&) const = default;
};

struct DescriptorBinding {
  VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  uint32_t count = 1;  // the length of an array of descriptors
  bool operator==(const DescriptorBinding&) const = default;
};

struct ShaderInterface {
  // Set 0 by binding number. A binding the shader never reads may be missing: the optimiser
  // removes unused declarations, so numbers can skip.
  std::map<uint32_t, DescriptorBinding> bindings;
  uint32_t push_bytes = 0;   // the push-constant block's std430 size, as sizeof gives it in C++; 0: none
  Dim3 local_size{0, 0, 0};  // a compute shader's workgroup size; zeros for other stages
};

// Reads `spirv`, with spec[i] the value of specialization constant i (a constant without one
// keeps its default). Throws std::runtime_error naming `name` for what the project's pipelines
// cannot take: a set other than 0, an unbounded array of descriptors, a workgroup size
// computed from an expression of spec constants, a malformed module.
ShaderInterface reflect_spirv(const std::vector<uint32_t>& spirv, const std::string& name,
                              const std::vector<int32_t>& spec = {});

}  // namespace gpu
