// Abecassis 2012, SIMSURF §14.3.2 (compute/floatlab/denormals.h): the loop y = c·y + d on
// subnormal values keeps them on this CPU, DAZ and FTZ flush them to 0, normal values are the
// same either way; the GPU computes the CPU's normal results bit for bit and either keeps the
// subnormal ones or flushes them, as the rows say; the bench's section 14.3 has a row each.
#include "compute/floatlab/denormals.h"
#include "app/core/lab.h"
#include "tests/helpers.h"

#include <cfloat>
#include <cmath>

class Denormals : public GpuTest {};

TEST(DenormalLoop, DazAndFtzFlushSubnormalsAndLeaveNormalValuesAlone) {
  std::vector<float> off(64), on(64);
  floatlab::denormal_loop_cpu(off, 50, 0.5f, 1e-41f, false);
  for (float v : off) {
    EXPECT_NE(v, 0.0f);
    EXPECT_LT(std::fabs(v), FLT_MIN);  // subnormal: kept
    EXPECT_NEAR(v, 2e-41f, 1e-42f);    // y tends to d / (1 - c)
  }
#if defined(__SSE__) || defined(_M_X64)
  floatlab::denormal_loop_cpu(on, 50, 0.5f, 1e-41f, true);
  for (float v : on) EXPECT_EQ(v, 0.0f);
#endif
  floatlab::denormal_loop_cpu(off, 50, 0.5f, 1e-30f, false);
  floatlab::denormal_loop_cpu(on, 50, 0.5f, 1e-30f, true);
  EXPECT_EQ(off, on);
  for (float v : off) EXPECT_NEAR(v, 2e-30f, 1e-36f);
  // The modes are put back: a subnormal product survives after the loop.
  volatile float tiny = 1e-40f;
  EXPECT_NE(tiny * 0.5f, 0.0f);
}

TEST_F(Denormals, TheGpuAndTheCpuRunTheSameLoopAndEveryRowSaysWhatItKept) {
  auto p = floatlab::denormal_penalty(ctx(), 1u << 12, 64);
  ASSERT_GE(p.rows.size(), 4u);
  std::vector<float> cpu_normal(p.count), cpu_subnormal(p.count);
  floatlab::denormal_loop_cpu(cpu_normal, p.iterations, p.c, p.d_normal, false);
  floatlab::denormal_loop_cpu(cpu_subnormal, p.iterations, p.c, p.d_subnormal, false);
  for (auto& r : p.rows) {
    SCOPED_TRACE(r.where + (r.subnormal ? " subnormal" : " normal"));
    EXPECT_GT(r.ms, 0);
    EXPECT_NEAR(r.ns_per_operation, r.ms * 1e6 / (2.0 * p.count * p.iterations), 1e-9 * r.ns_per_operation);
    if (!r.subnormal) {
      EXPECT_DOUBLE_EQ(r.over_normal, 1.0);
      EXPECT_FALSE(r.results_subnormal);
      EXPECT_FALSE(r.results_zero);
      EXPECT_EQ(r.sample, cpu_normal[p.count / 2]);  // the GPU's too: the same IEEE operations
    } else if (r.where == "CPU") {
      EXPECT_TRUE(r.results_subnormal);
      EXPECT_EQ(r.sample, cpu_subnormal[p.count / 2]);
    } else if (r.where == "GPU") {
      EXPECT_TRUE(r.results_zero || (r.results_subnormal && r.sample == cpu_subnormal[p.count / 2]));
    } else {  // DAZ and FTZ
      EXPECT_TRUE(r.results_zero);
    }
  }
  EXPECT_EQ(ctx().validation_count(), 0u);
}

TEST_F(Denormals, TheBenchSectionHasARowForEachPlaceAndValues) {
  auto lab = make_lab("floatlab");
  gpu::BenchOptions o;
  o.quick = true;
  o.only = {"14.3"};
  auto rows = lab->bench(ctx(), o);
  std::vector<std::string> passes;
  for (auto& r : rows) passes.push_back(r.pass);
  std::vector<std::string> want = {"denormal.cpu.normal", "denormal.cpu.subnormal", "denormal.gpu.normal",
                                   "denormal.gpu.subnormal"};
#if defined(__SSE__) || defined(_M_X64)
  want.insert(want.begin() + 2, "denormal.cpu.subnormal.daz-ftz");
#endif
  EXPECT_EQ(passes, want);
  for (auto& r : rows) EXPECT_NE(r.note.find("the normal loop"), std::string::npos) << r.pass;
}
