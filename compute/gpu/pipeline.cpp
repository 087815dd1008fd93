#include "compute/gpu/pipeline.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <utility>

namespace gpu {

std::vector<uint32_t> load_spirv(const Context& ctx, const std::string& name) {
  auto path = ctx.shader_dir / (name + ".spv");
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw std::runtime_error("missing SPIR-V " + path.string() + " (set VKLAB_SHADER_DIR?)");
  auto bytes = size_t(in.tellg());
  std::vector<uint32_t> words(bytes / 4);
  in.seekg(0);
  in.read(reinterpret_cast<char*>(words.data()), std::streamsize(words.size() * 4));
  return words;
}

Bind storage_buffer(const Buffer& b) {
  Bind d{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
  d.buffer = {b.handle(), 0, VK_WHOLE_SIZE};
  return d;
}
Bind storage_image(const Image& img) {
  Bind d{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};
  d.image = {VK_NULL_HANDLE, img.view(), VK_IMAGE_LAYOUT_GENERAL};
  return d;
}

namespace {
// A pipeline made with another struct than the shader's block would push what the shader does
// not read. A shader that reads no push constants has no block (the compiler removes an unread
// one) and takes any.
void check_push(const std::string& shader, uint32_t declared, uint32_t given) {
  if (declared && declared != given)
    throw std::runtime_error("SPIR-V " + shader + ": its push-constant block is " + std::to_string(declared) +
                             " bytes, the pipeline is made for " + std::to_string(given));
}

// The set a graphics pipeline's two stages share: every binding either declares, the same in
// both where both do.
std::map<uint32_t, DescriptorBinding> stage_bindings(const GraphicsDesc& d, const std::vector<uint32_t>& vert,
                                                     const std::vector<uint32_t>& frag) {
  ShaderInterface v = reflect_spirv(vert, d.vert), f = reflect_spirv(frag, d.frag);
  check_push(d.vert, v.push_bytes, d.push_bytes);
  check_push(d.frag, f.push_bytes, d.push_bytes);
  for (auto& [binding, desc] : f.bindings)
    if (auto [at, added] = v.bindings.emplace(binding, desc); !added && !(at->second == desc))
      throw std::runtime_error("SPIR-V " + d.vert + " and " + d.frag + " declare binding " + std::to_string(binding) +
                               " differently");
  return v.bindings;
}

VkShaderModule make_module(VkDevice device, const std::vector<uint32_t>& spirv) {
  VkShaderModuleCreateInfo ci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  ci.codeSize = spirv.size() * 4;
  ci.pCode = spirv.data();
  VkShaderModule m;
  VK_CHECK(vkCreateShaderModule(device, &ci, nullptr, &m));
  return m;
}
}  // namespace

Pipeline& Pipeline::operator=(Pipeline&& o) noexcept {
  if (this != &o) {
    reset();
    ctx_ = o.ctx_;
    set_layout_ = std::exchange(o.set_layout_, VK_NULL_HANDLE);
    layout_ = std::exchange(o.layout_, VK_NULL_HANDLE);
    pipeline_ = std::exchange(o.pipeline_, VK_NULL_HANDLE);
    bind_point_ = o.bind_point_;
    push_bytes_ = o.push_bytes_;
    declared_ = std::move(o.declared_);
    local_size_ = o.local_size_;
  }
  return *this;
}

void Pipeline::reset() {
  if (!ctx_) return;
  if (pipeline_) {
    std::lock_guard lock(ctx_->pipelines_mutex);
    ctx_->pipelines.erase(pipeline_);
  }
  if (pipeline_) vkDestroyPipeline(ctx_->device, pipeline_, nullptr);
  if (layout_) vkDestroyPipelineLayout(ctx_->device, layout_, nullptr);
  if (set_layout_) vkDestroyDescriptorSetLayout(ctx_->device, set_layout_, nullptr);
  pipeline_ = VK_NULL_HANDLE;
  layout_ = VK_NULL_HANDLE;
  set_layout_ = VK_NULL_HANDLE;
}

void Pipeline::make_layout(const std::map<uint32_t, DescriptorBinding>& bindings, uint32_t push_bytes) {
  std::vector<VkDescriptorSetLayoutBinding> b;
  for (auto& [binding, d] : bindings) {
    b.push_back({binding, d.type, d.count, VK_SHADER_STAGE_ALL, nullptr});
    declared_.resize(std::max<size_t>(declared_.size(), binding + 1));
    declared_[binding] = true;
  }
  VkDescriptorSetLayoutCreateInfo si{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  si.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  si.bindingCount = uint32_t(b.size());
  si.pBindings = b.data();
  VK_CHECK(vkCreateDescriptorSetLayout(ctx_->device, &si, nullptr, &set_layout_));
  VkPushConstantRange range{VK_SHADER_STAGE_ALL, 0, push_bytes};
  VkPipelineLayoutCreateInfo li{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  li.setLayoutCount = 1;
  li.pSetLayouts = &set_layout_;
  li.pushConstantRangeCount = push_bytes ? 1 : 0;
  li.pPushConstantRanges = &range;
  VK_CHECK(vkCreatePipelineLayout(ctx_->device, &li, nullptr, &layout_));
  push_bytes_ = push_bytes;
}

void Pipeline::bind(VkCommandBuffer cmd, const std::vector<Bind>& binds, const void* push, uint32_t push_bytes) const {
  vkCmdBindPipeline(cmd, bind_point_, pipeline_);
  std::vector<VkWriteDescriptorSet> writes;
  for (uint32_t i = 0; i < binds.size(); ++i) {
    if (i >= declared_.size() || !declared_[i]) continue;
    auto& w = writes.emplace_back(VkWriteDescriptorSet{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET});
    w.dstBinding = i;
    w.descriptorCount = 1;
    w.descriptorType = binds[i].type;
    bool is_image = binds[i].type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ||
                    binds[i].type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
                    binds[i].type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    if (is_image)
      w.pImageInfo = &binds[i].image;
    else
      w.pBufferInfo = &binds[i].buffer;
  }
  if (!writes.empty()) vkCmdPushDescriptorSetKHR(cmd, bind_point_, layout_, 0, uint32_t(writes.size()), writes.data());
  if (push_bytes) {
    if (push_bytes != push_bytes_) throw std::invalid_argument("push constant size does not match the pipeline");
    vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_ALL, 0, push_bytes, push);
  }
}

Dim3 Pipeline::groups(uint32_t nx, uint32_t ny, uint32_t nz) const {
  if (local_size_.x == 0) throw std::logic_error("groups: not a compute pipeline");
  return {gpu::groups(nx, local_size_.x), gpu::groups(ny, local_size_.y), gpu::groups(nz, local_size_.z)};
}

void Pipeline::dispatch(VkCommandBuffer cmd, uint32_t nx, uint32_t ny, uint32_t nz) const {
  Dim3 g = groups(nx, ny, nz);
  vkCmdDispatch(cmd, g.x, g.y, g.z);
}

Pipeline make_compute(Context& ctx, const std::vector<uint32_t>& spirv, uint32_t push_bytes,
                      const std::vector<int32_t>& spec, const std::string& name) {
  ShaderInterface shader = reflect_spirv(spirv, name, spec);
  check_push(name, shader.push_bytes, push_bytes);
  Pipeline p;
  std::vector<VkSpecializationMapEntry> entries;
  for (uint32_t i = 0; i < spec.size(); ++i) entries.push_back({i, i * 4u, 4u});
  VkSpecializationInfo si{uint32_t(entries.size()), entries.data(), spec.size() * 4, spec.data()};
  p.ctx_ = &ctx;
  p.local_size_ = shader.local_size;
  p.make_layout(shader.bindings, push_bytes);
  VkShaderModule module = make_module(ctx.device, spirv);
  VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  ci.stage.module = module;
  ci.stage.pName = "main";
  ci.stage.pSpecializationInfo = spec.empty() ? nullptr : &si;
  ci.layout = p.layout_;
  if (ctx.pipeline_statistics) ci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  VkResult r = vkCreateComputePipelines(ctx.device, VK_NULL_HANDLE, 1, &ci, nullptr, &p.pipeline_);
  vkDestroyShaderModule(ctx.device, module, nullptr);
  VK_CHECK(r);
  std::string variant = name;  // a shader's variants told apart by their specialization constants
  for (size_t i = 0; i < spec.size(); ++i)
    variant += (i ? "," : " {") + std::to_string(spec[i]) + (i + 1 == spec.size() ? "}" : "");
  std::lock_guard lock(ctx.pipelines_mutex);
  ctx.pipelines[p.pipeline_] = {variant, p.local_size_.x, p.local_size_.y, p.local_size_.z};
  return p;
}

// The fixed-function state structs Vulkan asks for, filled in the order it lists them.
Pipeline make_graphics(Context& ctx, const GraphicsDesc& d) {
  std::vector<uint32_t> vert = load_spirv(ctx, d.vert), frag = load_spirv(ctx, d.frag);
  Pipeline p;
  p.ctx_ = &ctx;
  p.bind_point_ = VK_PIPELINE_BIND_POINT_GRAPHICS;
  p.make_layout(stage_bindings(d, vert, frag), d.push_bytes);
  VkShaderModule vs = make_module(ctx.device, vert);
  VkShaderModule fs = make_module(ctx.device, frag);
  std::vector<VkSpecializationMapEntry> entries;
  for (uint32_t i = 0; i < d.vert_spec.size(); ++i) entries.push_back({i, i * 4u, 4u});
  VkSpecializationInfo si{uint32_t(entries.size()), entries.data(), d.vert_spec.size() * 4, d.vert_spec.data()};
  VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main",
       d.vert_spec.empty() ? nullptr : &si},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main"}};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = d.topology;
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  vp.viewportCount = 1;
  vp.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.cullMode = d.cull;
  rs.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  ds.depthTestEnable = d.depth_test;
  ds.depthWriteEnable = d.depth_test;
  ds.depthCompareOp = d.depth_compare;
  VkPipelineColorBlendAttachmentState att{};
  att.colorWriteMask = 0xF;
  if (d.blend) {
    att.blendEnable = VK_TRUE;
    att.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
    att.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    att.colorBlendOp = VK_BLEND_OP_ADD;
    att.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    att.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    att.alphaBlendOp = VK_BLEND_OP_ADD;
  }
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = d.color_format == VK_FORMAT_UNDEFINED ? 0 : 1;
  cb.pAttachments = &att;
  VkDynamicState dyn[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dy{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dy.dynamicStateCount = 2;
  dy.pDynamicStates = dyn;
  VkPipelineRenderingCreateInfo ri{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  ri.colorAttachmentCount = d.color_format == VK_FORMAT_UNDEFINED ? 0 : 1;
  ri.pColorAttachmentFormats = &d.color_format;
  ri.depthAttachmentFormat = d.depth_format;
  VkGraphicsPipelineCreateInfo ci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &ri};
  ci.stageCount = 2;
  ci.pStages = stages;
  ci.pVertexInputState = &vi;
  ci.pInputAssemblyState = &ia;
  ci.pViewportState = &vp;
  ci.pRasterizationState = &rs;
  ci.pMultisampleState = &ms;
  ci.pDepthStencilState = &ds;
  ci.pColorBlendState = &cb;
  ci.pDynamicState = &dy;
  ci.layout = p.layout_;
  VkResult r = vkCreateGraphicsPipelines(ctx.device, VK_NULL_HANDLE, 1, &ci, nullptr, &p.pipeline_);
  vkDestroyShaderModule(ctx.device, vs, nullptr);
  vkDestroyShaderModule(ctx.device, fs, nullptr);
  VK_CHECK(r);
  return p;
}

}  // namespace gpu
