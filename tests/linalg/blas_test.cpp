// The OpenBLAS columns of the linear algebra bench: each BLAS application computes what the
// operator's CPU reference computes, element by element, and keeps doing so when repeated.
#include "compute/linalg/blas.h"
#include "compute/linalg/reference.h"
#include "compute/linalg/workload.h"
#include "tests/helpers.h"

#include <cmath>

using namespace linalg;

namespace {

WorkloadConfig config(Op op) {
  WorkloadConfig c;
  c.op = op;
  c.side = 16;     // 1024 values; CG: a 32 x 32 grid
  c.dense_n = 97;  // not a multiple of 4
  c.seed = 7;
  return c;
}

}  // namespace

TEST_F(GpuTest, BlasEqualsTheCpuReferenceOnEveryOperator) {
  for (Op op : {Op::Axpby, Op::Product, Op::Norm, Op::Banded, Op::Dense, Op::Cg}) {
    Workload w(ctx(), config(op));
    w.run_cpu();
    BlasReference blas(w);
    auto got = blas.run();
    auto want = w.cpu_values();
    ASSERT_EQ(got.size(), want.size()) << blas.calls();
    EXPECT_LT(blas.max_relative_difference(got, want), 2e-6) << blas.calls();
    for (float v : got) ASSERT_TRUE(std::isfinite(v)) << blas.calls();
  }
}

// A dot product of random signs cancels: its error is bounded by the sum of |x_i y_i|.
TEST_F(GpuTest, BlasDotIsWithinTheCancellationBound) {
  Workload w(ctx(), config(Op::Dot));
  w.run_cpu();
  BlasReference blas(w);
  double got = blas.run().at(0), want = w.cpu_values().at(0), scale = 0;
  for (size_t i = 0; i < w.n(); ++i) scale += std::fabs(double(w.x_values()[i]) * w.y_values()[i]);
  EXPECT_NE(got, 0.0);
  EXPECT_LE(std::fabs(got - want), 1e-6 * scale);
}

// The band's first kl and last ku rows are left out of the comparison (BLAS has no
// wrap-around); every other row is a full 12-term row, so the check covers the whole band.
TEST_F(GpuTest, BlasBandRowsOutsideTheWrapAreTheThesisMatrix) {
  Workload w(ctx(), config(Op::Banded));
  w.run_cpu();
  BlasReference blas(w);
  auto got = blas.run();
  auto want = w.cpu_values();
  EXPECT_EQ(blas.calls(), "cblas_sgbmv (kl 6, ku 5)");
  for (size_t i = 6; i + 5 < got.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-5 * std::fabs(want[i]) + 1e-6) << i;
  EXPECT_GT(std::fabs(got[0] - want[0]), 1e-3) << "row 0 wraps in the thesis's matrix, not in BLAS's";
}

// The band's multi-thread column: row blocks, each a one-thread sgbmv, give the whole band's rows.
TEST_F(GpuTest, BlasBandRowBlocksEqualTheWholeBand) {
  Workload w(ctx(), config(Op::Banded));
  BlasReference blas(w);
  blas.set_threads(1);
  auto whole = blas.run();
  for (int threads : {2, 3, 7}) {
    blas.set_threads(threads);
    auto blocks = blas.run();
    for (size_t i = 0; i < whole.size(); ++i)
      ASSERT_NEAR(blocks[i], whole[i], 1e-6 * std::fabs(whole[i])) << threads << " " << i;
  }
}

// Applied again, the in-place calls go on as the operator would: axpby on its last result,
// CG one more iteration (equal to the double CG's second iterate).
TEST_F(GpuTest, BlasRepeatedApplicationsContinue) {
  Workload a(ctx(), config(Op::Axpby));
  BlasReference axpby(a);
  auto first = axpby.run();
  auto second = axpby.run();
  for (size_t i = 0; i < a.n(); ++i) ASSERT_NEAR(second[i], 1.5f * a.x_values()[i] - 0.5f * first[i], 1e-5) << i;

  Workload c(ctx(), config(Op::Cg));
  BlasReference cg(c);
  cg.run();
  auto x2 = cg.run();
  auto want = cg_cpu(c.banded(), c.y_values(), 0.0, 2);
  EXPECT_LT(cg.max_relative_difference(x2, want), 1e-5);
}

TEST_F(GpuTest, BlasTimingUsesOneThreadAndAll) {
  Workload w(ctx(), config(Op::Banded));
  w.run_cpu();
  auto t = time_blas(w, 3, gpu::BenchOptions{}, "test");
  EXPECT_GT(t.ms_one_thread, 0.0);
  EXPECT_GT(t.ms_all_threads, 0.0);
  EXPECT_GE(t.threads, 1);
  EXPECT_LT(t.max_rel_diff, 2e-6);
  EXPECT_NE(t.library.find("OpenBLAS"), std::string::npos) << t.library;
}
