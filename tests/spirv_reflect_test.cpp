// compute/gpu/spirv_reflect: what the shipped SPIR-V says equals what its GLSL source says,
// modules the pipelines cannot take are refused with the shader's name, and pipelines made
// from the reflection check their push-constant size and dispatch by the shader's workgroup.
#include "compute/gpu/spirv_reflect.h"
#include "compute/gpu/pipeline.h"
#include "compute/gpu/shader_compile.h"
#include "shaders/common/render_push.h"
#include "shaders/diffusion/diffusion_push.h"
#include "shaders/machining/machining_push.h"
#include "shaders/wave/water_view_push.h"
#include "tests/helpers.h"

#include <map>

namespace {

constexpr VkDescriptorType kBuffer = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
constexpr VkDescriptorType kImage = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;

class SpirvReflect : public GpuTest {
 protected:
  gpu::ShaderInterface shipped(const std::string& name, const std::vector<int32_t>& spec = {}) {
    return gpu::reflect_spirv(gpu::load_spirv(ctx(), name), name, spec);
  }
  static std::vector<uint32_t> compile(const std::string& source) {
    auto r = gpu::compile_glsl(source, gpu::ShaderStage::Compute, "test");
    EXPECT_TRUE(r.ok) << r.messages;
    return r.spirv;
  }
  // The message of the std::runtime_error that `f` throws ("" if none).
  template <class F>
  static std::string error_of(F f) {
    try {
      f();
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "";
  }
};

std::map<uint32_t, gpu::DescriptorBinding> buffers(uint32_t count) {
  std::map<uint32_t, gpu::DescriptorBinding> b;
  for (uint32_t i = 0; i < count; ++i) b[i] = {kBuffer, 1};
  return b;
}

}  // namespace

// step.comp: layout(local_size_x = 32, local_size_y = 8), buffers Src and Dst at 0 and 1.
TEST_F(SpirvReflect, ComputeKernelWithBuffers) {
  auto s = shipped("diffusion/step.comp");
  EXPECT_EQ(s.bindings, buffers(2));
  EXPECT_EQ(s.local_size, (gpu::Dim3{32, 8, 1}));
  EXPECT_EQ(s.push_bytes, sizeof(push::DiffusionStepPush));
  auto verlet = shipped("cloth/verlet.comp");  // local_size_x = 256, four buffers
  EXPECT_EQ(verlet.bindings, buffers(4));
  EXPECT_EQ(verlet.local_size, (gpu::Dim3{256, 1, 1}));
}

// water_top.comp: the heights buffer, then the floor and the picture as rgba8 storage images.
TEST_F(SpirvReflect, ComputeKernelWithImages) {
  auto s = shipped("wave/water_top.comp");
  std::map<uint32_t, gpu::DescriptorBinding> want = {{0, {kBuffer, 1}}, {1, {kImage, 1}}, {2, {kImage, 1}}};
  EXPECT_EQ(s.bindings, want);
  EXPECT_EQ(s.local_size, (gpu::Dim3{16, 16, 1}));
  EXPECT_EQ(s.push_bytes, sizeof(push::WaterTopPush));
}

// The legend: the vertex shader pulls its vertices from binding 0, the fragment shader samples
// the font atlas at binding 1; neither has a workgroup size.
TEST_F(SpirvReflect, GraphicsStages) {
  auto vert = shipped("render/legend.vert"), frag = shipped("render/legend.frag");
  EXPECT_EQ(vert.bindings, buffers(1));
  std::map<uint32_t, gpu::DescriptorBinding> atlas = {{1, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1}}};
  EXPECT_EQ(frag.bindings, atlas);
  EXPECT_EQ(vert.local_size, (gpu::Dim3{0, 0, 0}));
  EXPECT_EQ(vert.push_bytes, sizeof(push::LegendPush));
}

// The machining engines: layout(local_size_x_id = 4), default 1, set by the pipeline's spec[4].
TEST_F(SpirvReflect, SpecConstantWorkgroupSize) {
  EXPECT_EQ(shipped("machining/per_brin.f32").local_size, (gpu::Dim3{1, 1, 1}));
  EXPECT_EQ(shipped("machining/per_brin.f32", {0, 0, 0, 0, 128}).local_size, (gpu::Dim3{128, 1, 1}));
  auto p = gpu::make_compute(ctx(), "machining/per_brin.f32", sizeof(push::EnginePush), {0, 1, 0, 0, 128});
  EXPECT_EQ(p.local_size(), (gpu::Dim3{128, 1, 1}));
  EXPECT_EQ(p.groups(1000), (gpu::Dim3{8, 1, 1}));
  // An id without a value in `spec` keeps the default GLSL gives it, 1.
  auto g = compile(R"(#version 460
    layout(local_size_x_id = 0, local_size_y = 2, local_size_z_id = 1) in;
    layout(std430, binding = 0) buffer B { uint v[]; };
    void main() { v[gl_LocalInvocationIndex] = 1u; })");
  EXPECT_EQ(gpu::reflect_spirv(g, "test").local_size, (gpu::Dim3{1, 2, 1}));
  EXPECT_EQ(gpu::reflect_spirv(g, "test", {8}).local_size, (gpu::Dim3{8, 2, 1}));
  EXPECT_EQ(gpu::reflect_spirv(g, "test", {8, 4}).local_size, (gpu::Dim3{8, 2, 4}));
}

// Every kind of descriptor GLSL declares, an array of them, and a push-constant block laid out
// as its C++ twin (shaders/common/push.h).
TEST_F(SpirvReflect, DescriptorKindsArraysAndPushLayout) {
  auto s = gpu::reflect_spirv(compile(R"(#version 460
    layout(local_size_x = 1) in;
    layout(binding = 0, rgba8) uniform readonly image2D images[3];
    layout(binding = 1) uniform U { vec4 u; };
    layout(binding = 2) uniform sampler2D tex;
    layout(binding = 3) uniform texture2D plain;
    layout(std430, binding = 4) buffer Out { vec4 o; };
    layout(binding = 5) uniform sampler nearest;
    layout(push_constant) uniform P { mat4 m; vec2 a; float b; float w[3]; };
    void main() {
      o = imageLoad(images[2], ivec2(0)) + u + texture(tex, vec2(0)) +
          texelFetch(sampler2D(plain, nearest), ivec2(0), 0) + m[0] + vec4(a, b, w[2]);
    })"),
                              "test");
  std::map<uint32_t, gpu::DescriptorBinding> want = {{0, {kImage, 3}},
                                                     {1, {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1}},
                                                     {2, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1}},
                                                     {3, {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1}},
                                                     {4, {kBuffer, 1}},
                                                     {5, {VK_DESCRIPTOR_TYPE_SAMPLER, 1}}};
  EXPECT_EQ(s.bindings, want);
  struct P {
    push::mat4 m;
    push::vec2 a;
    float b, w[3];
  };
  EXPECT_EQ(s.push_bytes, sizeof(P));
  EXPECT_EQ(s.push_bytes, 96u);  // 88 bytes of members, rounded to the mat4's 16
}

// A binding the shader does not declare (the compiler removes what it never reads) is skipped
// by bind(): the caller's list keeps its positions.
TEST_F(SpirvReflect, BindingGapIsSkippedWhenBinding) {
  auto spirv = compile(R"(#version 460
    layout(local_size_x = 64) in;
    layout(std430, binding = 0) readonly buffer A { float a[]; };
    layout(std430, binding = 2) writeonly buffer C { float c[]; };
    layout(push_constant) uniform P { uint n; };
    void main() { uint i = gl_GlobalInvocationID.x; if (i < n) c[i] = 2.0 * a[i]; })");
  std::map<uint32_t, gpu::DescriptorBinding> want = {{0, {kBuffer, 1}}, {2, {kBuffer, 1}}};
  EXPECT_EQ(gpu::reflect_spirv(spirv, "gap").bindings, want);
  const uint32_t n = 100;
  auto data = random_floats(n, 1.0f, 2.0f, 7);
  gpu::Buffer a(ctx(), n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT),
      unused(ctx(), 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT), c(ctx(), n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  a.upload(data);
  auto p = gpu::make_compute(ctx(), spirv, 4, {}, "gap");
  ctx().submit_now([&](VkCommandBuffer cmd) {
    p.bind(cmd, {gpu::storage_buffer(a), gpu::storage_buffer(unused), gpu::storage_buffer(c)}, n);
    p.dispatch(cmd, n);
  });
  auto out = c.download<float>();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out[i], 2.0f * data[i]) << "element " << i;
}

TEST_F(SpirvReflect, RefusesWhatThePipelinesCannotTake) {
  auto set1 = compile(R"(#version 460
    layout(local_size_x = 1) in;
    layout(std430, set = 1, binding = 0) buffer B { uint v; };
    void main() { v = 1u; })");
  EXPECT_EQ(error_of([&] { gpu::reflect_spirv(set1, "set1.comp"); }),
            "SPIR-V set1.comp: binding 0 is in set 1; the pipelines push one descriptor set, set 0");
  auto unbounded = compile(R"(#version 460
    #extension GL_EXT_nonuniform_qualifier : require
    layout(local_size_x = 1) in;
    layout(binding = 0, r32ui) uniform uimage2D images[];
    void main() { imageStore(images[nonuniformEXT(gl_LocalInvocationIndex)], ivec2(0), uvec4(1)); })");
  EXPECT_NE(error_of([&] { gpu::reflect_spirv(unbounded, "unbounded.comp"); }).find("without a length"),
            std::string::npos);
  EXPECT_EQ(error_of([] { gpu::reflect_spirv({1, 2, 3, 4, 5, 6}, "junk"); }), "SPIR-V junk: not a SPIR-V module");
}

// A pipeline made with another struct than the shader's push-constant block.
TEST_F(SpirvReflect, RefusesAPushSizeUnlikeTheShaders) {
  EXPECT_EQ(error_of([&] { gpu::make_compute(ctx(), "diffusion/step.comp", sizeof(push::DiffusionPaintPush)); }),
            "SPIR-V diffusion/step.comp: its push-constant block is 16 bytes, the pipeline is made for 32");
  gpu::GraphicsDesc d;
  d.vert = "render/legend.vert";
  d.frag = "render/legend.frag";
  d.push_bytes = 8;
  EXPECT_NE(error_of([&] { gpu::make_graphics(ctx(), d); }).find("render/legend.vert: its push-constant block"),
            std::string::npos);
}

TEST_F(SpirvReflect, GroupsCoverTheInvocations) {
  auto p = gpu::make_compute(ctx(), "diffusion/step.comp", sizeof(push::DiffusionStepPush));
  EXPECT_EQ(p.groups(100, 10), (gpu::Dim3{4, 2, 1}));
  EXPECT_EQ(p.groups(32, 8, 1), (gpu::Dim3{1, 1, 1}));
}
