// The last screening of a user's kernel, on the SPIR-V the compiler made of it, before a
// pipeline is: whatever the text did, this is what the GPU would run. SPIRV-Tools validates the
// module for Vulkan 1.2 and parses it; then every capability must be on vklab's allow-list and
// enabled on this device (64-bit, 16-bit, 8-bit types, float atomics, subgroup operations), every
// SPIR-V extension on the list (no raw device addresses: SPV_KHR_physical_storage_buffer), the
// workgroup within the device's sizes, its shared memory within the device's, and the memory of
// one invocation (its local arrays) within kMaxInvocationBytes. A driver handed such a module
// crashes (a 64 MiB local array took lavapipe's compiler to 5.5 GB and an abort), or the
// validation layer complains after the fact: here the kernel is refused, saying why.
#pragma once
#include "compute/gpu/context.h"

#include <cstdint>
#include <vector>

namespace gpu {

// An invocation's own memory (Function and Private variables): 64 KiB. An honest kernel's
// local arrays hold tens of values (the mesh lab's widest ball, 128 vec4, is 2 KiB).
constexpr uint64_t kMaxInvocationBytes = 64 * 1024;

// Throws std::invalid_argument("...why...") for what the kernel may not hold on `ctx`'s device.
void screen_spirv(const std::vector<uint32_t>& spirv, const Context& ctx);

}  // namespace gpu
