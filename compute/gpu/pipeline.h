// Compute and graphics pipelines over one push-descriptor set and an optional push-constant
// block shared by all stages. The set's bindings and a compute shader's workgroup size are
// read from the SPIR-V (spirv_reflect.h).
#pragma once
#include "compute/gpu/context.h"
#include "compute/gpu/resources.h"
#include "compute/gpu/spirv_reflect.h"

#include <map>
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

  // Binds the pipeline, pushes descriptors (binds[i] to binding i) and push constants. A
  // binding the shaders do not declare is skipped: the compiler removes what a variant of a
  // shader never reads, and its callers keep one list for every variant.
  void bind(VkCommandBuffer cmd, const std::vector<Bind>& binds, const void* push = nullptr,
            uint32_t push_bytes = 0) const;
  template <class T>
  void bind(VkCommandBuffer cmd, const std::vector<Bind>& binds, const T& push) const {
    bind(cmd, binds, &push, sizeof(T));
  }
  // The compute shader's workgroup size, specialization applied.
  Dim3 local_size() const { return local_size_; }
  // The workgroups that cover nx × ny × nz invocations: vkCmdDispatch's counts.
  Dim3 groups(uint32_t nx, uint32_t ny = 1, uint32_t nz = 1) const;
  // Dispatches groups(nx, ny, nz).
  void dispatch(VkCommandBuffer cmd, uint32_t nx, uint32_t ny = 1, uint32_t nz = 1) const;
  VkPipeline handle() const { return pipeline_; }
  VkPipelineLayout layout() const { return layout_; }
  explicit operator bool() const { return pipeline_ != VK_NULL_HANDLE; }
  void reset();

 protected:
  friend Pipeline make_compute(Context&, const std::vector<uint32_t>&, uint32_t, const std::vector<int32_t>&,
                               const std::string&);
  friend Pipeline make_graphics(Context&, const struct GraphicsDesc&);
  void make_layout(const std::map<uint32_t, DescriptorBinding>& bindings, uint32_t push_bytes);
  Context* ctx_ = nullptr;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkPipelineBindPoint bind_point_ = VK_PIPELINE_BIND_POINT_COMPUTE;
  uint32_t push_bytes_ = 0;
  std::vector<bool> declared_;  // by binding number: whether the shaders declare it
  Dim3 local_size_{0, 0, 0};
};

// `spec`: 32-bit specialization constants, spec[i] for constant_id = i. `push_bytes` is the
// size of the C++ struct pushed; it must equal the shader's block (a pipeline made with another
// struct throws), unless the shader reads no push constants. `name` names the shader in errors.
Pipeline make_compute(Context& ctx, const std::vector<uint32_t>& spirv, uint32_t push_bytes = 0,
                      const std::vector<int32_t>& spec = {}, const std::string& name = "compiled at run time");
inline Pipeline make_compute(Context& ctx, const std::string& spv_name, uint32_t push_bytes = 0,
                             const std::vector<int32_t>& spec = {}) {
  return make_compute(ctx, load_spirv(ctx, spv_name), push_bytes, spec, spv_name);
}

// Graphics with dynamic rendering, no vertex input (shaders pull from buffers),
// dynamic viewport and scissor. The set's bindings are those of both stages.
struct GraphicsDesc {
  std::string vert, frag;   // SPIR-V names
  uint32_t push_bytes = 0;  // checked against the stages' block as make_compute does
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkCullModeFlags cull = VK_CULL_MODE_NONE;
  bool depth_test = false;
  VkCompareOp depth_compare = VK_COMPARE_OP_LESS_OR_EQUAL;
  bool blend = false;
  VkFormat color_format = VK_FORMAT_B8G8R8A8_UNORM;  // VK_FORMAT_UNDEFINED: depth only
  VkFormat depth_format = VK_FORMAT_D32_SFLOAT;
  std::vector<int32_t> vert_spec;  // the vertex stage's specialization constants 0, 1, ... (bit patterns)
};
Pipeline make_graphics(Context& ctx, const GraphicsDesc& desc);

// The groups of `per_group` items that cover n; Pipeline::groups for a shader's workgroups.
inline uint32_t groups(uint32_t n, uint32_t per_group) { return (n + per_group - 1) / per_group; }

}  // namespace gpu
