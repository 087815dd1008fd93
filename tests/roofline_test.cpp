// The roofline: the multiply-add kernel computes what the CPU computes for every invocation,
// the peaks are measured and cached per device and driver, and a pass is placed under the
// roof that limits it.
#include "compute/measure/roofline.h"
#include "tests/helpers.h"

#include <cmath>
#include <fstream>

namespace {

// The kernel's arithmetic for invocation `id`, in the shader's order, in T.
template <class T>
T fma_chain_cpu(uint32_t id, uint32_t iterations, T m, T c) {
  T start = T(id % 1024u) * T(1e-3), v[8][4];
  const T lane[4] = {T(0.0), T(0.01), T(0.02), T(0.03)};
  for (int k = 0; k < 8; ++k)
    for (int j = 0; j < 4; ++j) v[k][j] = (start + lane[j]) + T(k) * T(0.1);
  for (uint32_t i = 0; i < iterations; ++i)
    for (auto& chain : v)
      for (auto& x : chain) x = std::fma(x, m, c);
  T s[4];
  for (int j = 0; j < 4; ++j)
    s[j] = ((v[0][j] + v[1][j]) + (v[2][j] + v[3][j])) + ((v[4][j] + v[5][j]) + (v[6][j] + v[7][j]));
  return (s[0] + s[1]) + (s[2] + s[3]);
}

}  // namespace

TEST_F(GpuTest, FmaPeakKernelComputesEveryChain) {
  const uint32_t groups = 5, iterations = 36;
  const float m = 0.75f, c = 0.3125f;
  auto f32 = gpu::run_fma_kernel(ctx(), false, groups, iterations, m, c);
  ASSERT_EQ(f32.size(), groups * 256u);
  for (uint32_t id = 0; id < f32.size(); ++id) {
    float want = fma_chain_cpu<float>(id, iterations, m, c);
    ASSERT_NEAR(f32[id], want, 1e-6 * std::fabs(want)) << id;
  }
  if (!ctx().info.fp64) GTEST_SKIP() << "no shaderFloat64: the fp64 roof is left out";
  auto f64 = gpu::run_fma_kernel(ctx(), true, groups, iterations, m, c);
  for (uint32_t id = 0; id < f64.size(); ++id) {
    double want = fma_chain_cpu<double>(id, iterations, double(m), double(c));
    ASSERT_NEAR(f64[id], want, 1e-14 * std::fabs(want)) << id;
  }
}

TEST_F(GpuTest, PeaksAreMeasuredAndCachedPerDeviceAndDriver) {
  auto p = gpu::measure_peaks(ctx(), true);
  EXPECT_TRUE(p.valid());
  EXPECT_GT(p.copy_gbps, 0.0);
  EXPECT_EQ(p.fp64_gflops > 0, ctx().info.fp64);
  EXPECT_EQ(p.device, ctx().info.name);

  auto file = scratch("peaks") / "sub" / "peaks.json";
  EXPECT_FALSE(gpu::find_cached_peaks(file, ctx().info));
  gpu::Peaks other = p;
  other.driver = "another driver";
  other.fp32_gflops = 1.0;
  gpu::store_peaks(file, other);
  gpu::store_peaks(file, p);
  auto back = gpu::find_cached_peaks(file, ctx().info);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->fp32_gflops, p.fp32_gflops) << "this driver's entry, not the other's";
  p.fp32_gflops *= 2;
  gpu::store_peaks(file, p);  // replaces this device's entry, keeps the other
  auto j = nlohmann::json::parse(std::ifstream(file));
  EXPECT_EQ(j["devices"].size(), 2u);
  EXPECT_EQ(gpu::device_peaks(ctx(), file, false).fp32_gflops, p.fp32_gflops) << "read from the cache";

  std::ofstream(file) << "{ not json";
  EXPECT_FALSE(gpu::find_cached_peaks(file, ctx().info)) << "a damaged cache is a miss";
}

TEST(Roofline, PlacesAPassUnderTheRoofThatLimitsIt) {
  gpu::Peaks p;
  p.fp32_gflops = 1000, p.saxpy_gbps = 100;    // the ridge at 10 flop/byte
  auto saxpy = gpu::place(p, 12e6, 2e6, 0.2);  // 12 MB at 100 GB/s: 0.12 ms
  EXPECT_EQ(saxpy.bound, "memory");
  EXPECT_NEAR(saxpy.intensity, 1.0 / 6, 1e-12);
  EXPECT_NEAR(saxpy.attainable_gflops, 100.0 / 6, 1e-9);
  EXPECT_NEAR(saxpy.percent, 60.0, 1e-9);
  auto gemm = gpu::place(p, 1e6, 1e9, 2.0);  // 1 GFLOP at 1000 GFLOP/s: 1 ms
  EXPECT_EQ(gemm.bound, "fp32");
  EXPECT_NEAR(gemm.attainable_gflops, 1000.0, 1e-9);
  EXPECT_NEAR(gemm.percent, 50.0, 1e-9);
  auto draw = gpu::place(p, 4e6, 0, 0.04);  // traffic only
  EXPECT_EQ(draw.bound, "memory");
  EXPECT_EQ(draw.intensity, 0.0);
  EXPECT_NEAR(draw.percent, 100.0, 1e-9);
  EXPECT_EQ(gpu::place(gpu::Peaks{}, 1, 1, 1).bound, "") << "no peaks, no place";
  EXPECT_EQ(gpu::place(p, 0, 0, 1).bound, "") << "no declared traffic or arithmetic, no place";
}
