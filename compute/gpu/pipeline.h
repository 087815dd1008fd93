// Compute and graphics pipelines over one push-descriptor set (binding i = i-th entry
// of `bindings`) and an optional push-constant block shared by all stages.
#pragma once
#include "compute/gpu/context.h"
#include "compute/gpu/resources.h"

#include <string>
#include <vector>

namespace gpu {

// SPIR-V built by glslc at build time: `name` is relative to shaders/, e.g. "diffusion/step.comp".
std::vector<uint32_t> load_spirv(const Context& ctx, const std::string& name);

// One descriptor to push: a buffer or an image.
struct Bind {
  VkDescriptorType type;
  VkDescriptorBufferInfo buffer{};
  VkDescriptorImageInfo image{};
};
Bind storage_buffer(const Buffer& b);
Bind storage_image(const Image& img);

class Pipeline {
 public:
  Pipeline() = default;
  ~Pipeline() { reset(); }
  Pipeline(Pipeline&& o) noexcept { *this = std::move(o); }
  Pipeline& operator=(Pipeline&& o) noexcept;

  // Binds the pipeline, pushes descriptors (in binding order) and push constants.
  void bind(VkCommandBuffer cmd, const std::vector<Bind>& binds, const void* push = nullptr,
            uint32_t push_bytes = 0) const;
  template <class T>
  void bind(VkCommandBuffer cmd, const std::vector<Bind>& binds, const T& push) const {
    bind(cmd, binds, &push, sizeof(T));
  }
  VkPipeline handle() const { return pipeline_; }
  VkPipelineLayout layout() const { return layout_; }
  explicit operator bool() const { return pipeline_ != VK_NULL_HANDLE; }
  void reset();

 protected:
  friend Pipeline make_compute(Context&, const std::vector<uint32_t>&, const std::vector<VkDescriptorType>&, uint32_t,
                               const std::vector<int32_t>&);
  friend Pipeline make_graphics(Context&, const struct GraphicsDesc&);
  void make_layout(const std::vector<VkDescriptorType>& bindings, uint32_t push_bytes);
  Context* ctx_ = nullptr;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkPipelineBindPoint bind_point_ = VK_PIPELINE_BIND_POINT_COMPUTE;
  uint32_t push_bytes_ = 0;
};

// `spec`: 32-bit specialization constants, spec[i] for constant_id = i.
Pipeline make_compute(Context& ctx, const std::vector<uint32_t>& spirv, const std::vector<VkDescriptorType>& bindings,
                      uint32_t push_bytes = 0, const std::vector<int32_t>& spec = {});
inline Pipeline make_compute(Context& ctx, const std::string& spv_name, const std::vector<VkDescriptorType>& bindings,
                             uint32_t push_bytes = 0, const std::vector<int32_t>& spec = {}) {
  return make_compute(ctx, load_spirv(ctx, spv_name), bindings, push_bytes, spec);
}

// Graphics with dynamic rendering, no vertex input (shaders pull from buffers),
// dynamic viewport and scissor.
struct GraphicsDesc {
  std::string vert, frag;  // SPIR-V names
  std::vector<VkDescriptorType> bindings;
  uint32_t push_bytes = 0;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkCullModeFlags cull = VK_CULL_MODE_NONE;
  bool depth_test = false;
  VkCompareOp depth_compare = VK_COMPARE_OP_LESS_OR_EQUAL;
  bool blend = false;
  VkFormat color_format = VK_FORMAT_B8G8R8A8_UNORM;  // VK_FORMAT_UNDEFINED: depth only
  VkFormat depth_format = VK_FORMAT_D32_SFLOAT;
};
Pipeline make_graphics(Context& ctx, const GraphicsDesc& desc);

inline uint32_t groups(uint32_t n, uint32_t local) { return (n + local - 1) / local; }

}  // namespace gpu
