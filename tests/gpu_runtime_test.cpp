// compute/gpu: context, buffers and images, compute dispatch, runtime compilation,
// timestamps, and the validation counter itself.
#include "compute/gpu/pipeline.h"
#include "compute/gpu/profiler.h"
#include "compute/gpu/shader_compile.h"
#include "compute/measure/saxpy.h"
#include "compute/measure/timer.h"
#include "tests/helpers.h"

#include <cfloat>
#include <cmath>
#include <filesystem>
#include <fstream>

using GpuRuntime = GpuTest;

TEST_F(GpuRuntime, ContextDescribesTheDevice) {
  auto& c = ctx();
  EXPECT_TRUE(c.validation_enabled());
  EXPECT_FALSE(c.info.name.empty());
  EXPECT_GT(c.info.subgroup_size, 0u);
  EXPECT_TRUE(c.info.usable);
  auto table = gpu::format_device_table(gpu::list_devices());
  EXPECT_NE(table.find(c.info.name), std::string::npos);
  EXPECT_NE(table.find("subgroup size"), std::string::npos);
}

TEST_F(GpuRuntime, NoDeviceMatchIsAnError) {
  gpu::ContextOptions o;
  o.device = "no such device anywhere";
  EXPECT_THROW(gpu::Context c(o), std::invalid_argument);
}

TEST_F(GpuRuntime, BufferRoundTripDeviceLocalAndHostVisible) {
  for (bool host : {false, true}) {
    for (size_t n : {1u, 7u, 1000u, 65537u}) {
      auto data = random_floats(n, -100.0f, 100.0f, uint32_t(n));
      gpu::Buffer b(ctx(), n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, host);
      b.upload(data);
      auto back = b.download<float>();
      ASSERT_EQ(back.size(), n);
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(back[i], data[i]) << "element " << i << " host=" << host;
    }
  }
}

TEST_F(GpuRuntime, BufferRejectsOutOfRangeCopies) {
  gpu::Buffer b(ctx(), 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  float x[8] = {};
  EXPECT_THROW(b.upload(x, sizeof x), std::out_of_range);
  EXPECT_THROW(b.download(x, 8, 12), std::out_of_range);
}

TEST_F(GpuRuntime, ImageRoundTripR32fAndRgba32f) {
  for (auto [format, channels] : {std::pair{VK_FORMAT_R32_SFLOAT, 1}, std::pair{VK_FORMAT_R32G32B32A32_SFLOAT, 4}}) {
    uint32_t w = 37, h = 23;
    auto data = random_floats(size_t(w) * h * channels, -5.0f, 5.0f, 7);
    gpu::Image img(ctx(), w, h, format, VK_IMAGE_USAGE_STORAGE_BIT);
    img.upload(data);
    auto back = img.download<float>();
    ASSERT_EQ(back.size(), data.size());
    for (size_t i = 0; i < data.size(); ++i) ASSERT_EQ(back[i], data[i]) << "texel value " << i;
  }
}

TEST_F(GpuRuntime, SaxpyMatchesCpu) {
  const uint32_t n = 1u << 18;
  auto x = random_floats(n, 0.5f, 2.0f, 1), y = random_floats(n, -2.0f, -0.5f, 2);
  const float a = 1.7f;
  gpu::Buffer bx(ctx(), n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT),
      by(ctx(), n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  bx.upload(x);
  by.upload(y);
  gpu::Saxpy saxpy(ctx());
  ctx().submit_now([&](VkCommandBuffer cmd) { saxpy.record(cmd, bx, by, a, n); });
  auto out = by.download<float>();
  for (uint32_t i = 0; i < n; ++i) {
    // a*x rounded then + y rounded, or one fused rounding: at most one ulp of each term.
    float ref = a * x[i] + y[i];
    float tol = FLT_EPSILON * (std::fabs(a * x[i]) + std::fabs(y[i]));
    ASSERT_NEAR(out[i], ref, tol) << "element " << i;
  }
}

TEST_F(GpuRuntime, RuntimeCompiledKernelRuns) {
  const char* src = R"(#version 460
    layout(local_size_x = 64) in;
    layout(std430, binding = 0) buffer B { float v[]; };
    layout(push_constant) uniform P { uint n; };
    void main() { uint i = gl_GlobalInvocationID.x; if (i < n) v[i] = v[i] * v[i] + float(i); })";
  auto r = gpu::compile_glsl(src, gpu::ShaderStage::Compute, "square.comp");
  ASSERT_TRUE(r.ok) << r.messages;
  const uint32_t n = 1000;
  auto data = random_floats(n, 0.25f, 4.0f, 3);
  gpu::Buffer b(ctx(), n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  b.upload(data);
  auto p = gpu::make_compute(ctx(), r.spirv, 4, {}, "square.comp");
  ctx().submit_now([&](VkCommandBuffer cmd) {
    p.bind(cmd, {gpu::storage_buffer(b)}, n);
    p.dispatch(cmd, n);
  });
  auto out = b.download<float>();
  for (uint32_t i = 0; i < n; ++i) {
    float ref = data[i] * data[i] + float(i);
    ASSERT_NEAR(out[i], ref, 2 * FLT_EPSILON * ref) << "element " << i;
  }
}

TEST_F(GpuRuntime, CompileErrorsComeBackAsMessages) {
  auto r = gpu::compile_glsl("#version 460\nvoid main() { undefined_thing = 1; }\n", gpu::ShaderStage::Compute,
                             "broken.comp");
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.spirv.empty());
  EXPECT_NE(r.messages.find("broken.comp:2"), std::string::npos) << r.messages;
  EXPECT_NE(r.messages.find("undefined_thing"), std::string::npos) << r.messages;
}

TEST_F(GpuRuntime, CompileResolvesIncludes) {
  auto dir = std::filesystem::temp_directory_path() / "vklab-include-test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "twice.glsl") << "float twice(float x) { return 2.0 * x; }\n";
  auto ok = gpu::compile_glsl(
      "#version 460\n#extension GL_GOOGLE_include_directive : require\n#include \"twice.glsl\"\n"
      "layout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { float v[]; };\n"
      "void main() { v[0] = twice(v[0]); }\n",
      gpu::ShaderStage::Compute, "inc.comp", {dir});
  EXPECT_TRUE(ok.ok) << ok.messages;
  auto missing = gpu::compile_glsl(
      "#version 460\n#extension GL_GOOGLE_include_directive : require\n#include \"nope.glsl\"\n"
      "void main() {}\n",
      gpu::ShaderStage::Compute, "missing.comp", {dir});
  EXPECT_FALSE(missing.ok);
  EXPECT_NE(missing.messages.find("nope.glsl"), std::string::npos) << missing.messages;
}

TEST_F(GpuRuntime, ProfilerTimesNamedPassesAndAddsRepeats) {
  gpu::Profiler prof(ctx());
  ASSERT_TRUE(prof.supported()) << "lavapipe has timestamps";
  const uint32_t n = 1u << 20;
  gpu::Buffer x(ctx(), n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT), y(ctx(), n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  x.upload(random_floats(n, 1, 2, 4));
  y.upload(random_floats(n, 1, 2, 5));
  gpu::Saxpy saxpy(ctx());
  ctx().submit_now([&](VkCommandBuffer cmd) {
    prof.begin_frame(cmd);
    for (int i = 0; i < 3; ++i) {
      if (i)
        gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                     VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
      gpu::Profiler::Scope s(prof, cmd, "saxpy", 12.0 * n, 2.0 * n);
      saxpy.record(cmd, x, y, 2.0f, n);
    }
    gpu::Profiler::Scope s(prof, cmd, "empty", 0, 0);
  });
  auto t = prof.resolve();
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].name, "saxpy");
  EXPECT_EQ(t[0].count, 3u);
  EXPECT_GT(t[0].ms, 0.0);
  EXPECT_DOUBLE_EQ(t[0].bytes, 36.0 * n);
  EXPECT_NEAR(t[0].gbps(), t[0].bytes / (t[0].ms * 1e6), 1e-9);
  EXPECT_EQ(t[1].name, "empty");
  EXPECT_GE(t[1].ms, 0.0);
  // The same frame as spans on the GPU's timeline (the Timings tab's timeline): every scope in
  // recording order, from the frame's first timestamp, each as long as the table says.
  auto& spans = prof.spans();
  ASSERT_EQ(spans.size(), 4u);
  EXPECT_EQ(spans[0].start_ms, 0.0);
  double saxpy_ms = 0;
  for (size_t i = 0; i < spans.size(); ++i) {
    EXPECT_EQ(spans[i].name, i < 3 ? "saxpy" : "empty");
    EXPECT_LE(spans[i].start_ms, spans[i].end_ms);
    if (i) {
      EXPECT_GE(spans[i].start_ms, spans[i - 1].end_ms - 1e-9) << "the barriers order the passes";
    }
    if (i < 3) saxpy_ms += spans[i].end_ms - spans[i].start_ms;
  }
  EXPECT_NEAR(saxpy_ms, t[0].ms, 1e-9);
}

TEST_F(GpuRuntime, BandwidthProbeMeasuresSomething) {
  auto bw = gpu::measure_bandwidth(ctx(), 4u << 20, 3);
  EXPECT_GT(bw.median_ms, 0.0);
  EXPECT_GT(bw.gbps, 0.0);
}

// The counter the whole suite relies on: a missing barrier must be reported.
// (Debian 12's layer, 1.3.239, flags compute->transfer and transfer->compute hazards but
// not compute->compute ones; the test uses a hazard it does see.)
TEST(Validation, SynchronizationValidationCatchesAMissingBarrier) {
  gpu::ContextOptions o;
  o.validation = true;
  o.print_messages = false;
  gpu::Context c(o);
  const uint32_t n = 4096;
  gpu::Buffer x(c, n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT), y(c, n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  gpu::Saxpy saxpy(c);
  ASSERT_EQ(c.validation_count(), 0u);
  c.submit_now([&](VkCommandBuffer cmd) {
    saxpy.record(cmd, x, y, 1.0f, n);
    VkBufferCopy region{0, 0, 64};
    vkCmdCopyBuffer(cmd, y.handle(), x.handle(), 1, &region);  // reads y, just written, with no barrier
  });
  EXPECT_GT(c.validation_count(), 0u);
  bool hazard = false;
  for (auto& m : c.validation_messages()) hazard |= m.find("SYNC-HAZARD") != std::string::npos;
  EXPECT_TRUE(hazard);
}

// A device without timestamps: the profiler says so and every call is a harmless no-op.
TEST(ProfilerWithoutTimestamps, ReportsNotSupportedCleanly) {
  gpu::ContextOptions o;
  o.validation = true;
  gpu::Context c(o);
  c.timestamp_valid_bits = 0;  // as such a device reports it
  gpu::Profiler prof(c);
  EXPECT_FALSE(prof.supported());
  EXPECT_NE(std::string(prof.unsupported_reason()).find("not supported"), std::string::npos);
  c.submit_now([&](VkCommandBuffer cmd) {
    prof.begin_frame(cmd);
    gpu::Profiler::Scope s(prof, cmd, "pass", 1, 1);
  });
  EXPECT_TRUE(prof.resolve().empty());
  EXPECT_EQ(gpu::measure_bandwidth(c, 1 << 20, 1).gbps, 0.0);
  EXPECT_EQ(c.validation_count(), 0u);
}

// Uploads and downloads through the staging buffer (a discrete GPU's path; lavapipe's
// device-local memory is host-visible, so it is hidden here): contents of every size, from
// one float to more than the 64 MiB staging buffer holds, at an offset, come back as sent.
TEST(GpuStaging, RoundTripsEveryByteInChunks) {
  gpu::ContextOptions co = validated_options();
  co.memory.map_device_local = false;
  gpu::Context ctx(co);
  for (size_t n : {size_t(1), size_t(65537), (size_t(64) << 18) + 3}) {  // floats; the last 64 MiB + 12 bytes
    auto data = random_floats(n, -100.0f, 100.0f, uint32_t(n));
    gpu::Buffer b(ctx, (n + 5) * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    ASSERT_EQ(b.mapped(), nullptr) << "device-local memory handed out mapped: the staging path is not tested";
    b.upload(data.data(), n * 4, 20);
    std::vector<float> back(n);
    b.download(back.data(), n * 4, 20);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(back[i], data[i]) << "element " << i << " of " << n;
  }
  EXPECT_EQ(ctx.validation_count(), 0u);
}

// Buffers the CPU reads back ask for cached memory where the device has it (reads of uncached,
// write-combined memory crawl: the float report's table 3.1 read its results that way); buffers
// only written keep the first host-visible type.
TEST_F(GpuRuntime, ReadBackBuffersAreCachedWhereTheDeviceOffersIt) {
  const auto usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  gpu::Buffer written(ctx(), 4096, usage, true), read(ctx(), 4096, usage, true, true);
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(ctx().device, read.handle(), &req);
  const auto visible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  ASSERT_EQ(read.memory_flags() & visible, visible);
  ASSERT_EQ(written.memory_flags() & visible, visible);
  if (ctx().allocator().offers(req.memoryTypeBits, visible | VK_MEMORY_PROPERTY_HOST_CACHED_BIT))
    EXPECT_TRUE(read.memory_flags() & VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
  else
    EXPECT_FALSE(read.memory_flags() & VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
  const std::vector<float> data = random_floats(1024, -1.0f, 1.0f, 3);
  read.upload(data);
  EXPECT_EQ(read.download<float>(), data);
}

// zero(): every byte 0, device-local (filled by the GPU after random contents, the copies and
// kernels before and after ordered) and mapped alike.
TEST_F(GpuRuntime, ZeroClearsEveryByteOfABuffer) {
  const auto usage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  for (bool mapped : {false, true}) {
    const size_t n = (size_t(3) << 20) + 5;  // not a power of two
    gpu::Buffer b(ctx(), n * 4, usage, mapped);
    b.upload(random_floats(n, 0.5f, 1.0f, 11));
    b.zero();
    const auto back = b.download<uint32_t>();
    ASSERT_EQ(back.size(), n);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(back[i], 0u) << "word " << i << (mapped ? " (mapped)" : "");
  }
  EXPECT_EQ(ctx().validation_count(), 0u);
}
