// Seed 002 annex B (compute/floatlab/bench.cpp): the CPU's float-float operators (ff_cpu) are the
// GPU's, bit for bit on lavapipe (but the fusable ones), Priest's Add22 as printed included;
// Priest's Add12 is exact where TwoSum is; and the bench's annex B rows normalise to 4096 additions with the report's
// figures beside.
#include "compute/floatlab/bench.h"
#include "compute/floatlab/floatfloat.h"
#include "tests/helpers.h"

#include <cmath>

using namespace floatlab;

namespace {
class AnnexB : public GpuTest {};
}  // namespace

TEST_F(AnnexB, TheCpuOperatorsAreTheGpus) {
  FloatFloat ff(ctx());
  auto a = random_ff(4096, 7), b = random_ff(4096, 8), pos = random_ff(4096, 9, true);
  for (FfOp op : {FfOp::Add12, FfOp::Mul12, FfOp::Add22, FfOp::Mul22, FfOp::Div22, FfOp::Sqrt22, FfOp::Add12Priest,
                  FfOp::Add22Priest, FfOp::Add, FfOp::Mul}) {
    const auto& in = op == FfOp::Sqrt22 ? pos : a;
    auto gpu = ff.run(op, in, b);
    for (size_t i = 0; i < in.size(); ++i) {
      Ff cpu = ff_cpu(op, in[i], b[i]);
      ASSERT_EQ(gpu[i][0], cpu[0]) << ff_name(op) << " " << i;
      ASSERT_EQ(gpu[i][1], cpu[1]) << ff_name(op) << " " << i;
    }
  }
  // Priest's Add12 and TwoSum: both exact (s + e = a + b, s the rounded sum) in round to nearest
  for (size_t i = 0; i < a.size(); ++i) {
    Ff p = ff_cpu(FfOp::Add12Priest, a[i], b[i]), k = ff_cpu(FfOp::Add12, a[i], b[i]);
    ASSERT_EQ(double(p[0]) + double(p[1]), double(a[i][0]) + double(b[i][0])) << i;
    ASSERT_EQ(double(k[0]) + double(k[1]), double(a[i][0]) + double(b[i][0])) << i;
  }
}

TEST_F(AnnexB, BenchRowsNormaliseToTheAdditionsWithTheReportBeside) {
  gpu::BenchOptions o;
  o.quick = true;
  o.only = {"B"};
  auto rows = floatlab::bench(ctx(), o);
  ASSERT_EQ(rows.size(), 2u * 12u * 2u) << "2 sizes x 12 operators x GPU and CPU";
  int with_report = 0;
  for (auto& r : rows) {
    EXPECT_GT(r.median_ms, 0.0) << r.pass;
    EXPECT_EQ(r.reference["section"], "B");
    if ((r.pass == "ff.annexB.gpu.add" || r.pass == "ff.annexB.cpu.add") && r.size == "B 4096") {
      EXPECT_DOUBLE_EQ(r.reference["relative_to_4096_adds"].get<double>(), 1.0) << r.pass;
    }
    with_report += r.reference.contains("report_2006");
    // the report's Add12 and Add22 figures beside its own (Priest's) operators, not beside ours
    if (r.pass.find("add22_improved") != std::string::npos || r.pass.ends_with(".add12")) {
      EXPECT_FALSE(r.reference.contains("report_2006")) << r.pass;
    }
    if (r.pass.find("add22_priest") != std::string::npos) {
      EXPECT_TRUE(r.reference.contains("report_2006")) << r.pass;
    }
  }
  EXPECT_EQ(with_report, 2 * 7 * 2) << "Add, Mul, Mad, Add12, Mul12, Add22, Mul22 at 4096 and 16384";
  o.only = {"annex"};
  EXPECT_THROW(floatlab::bench(ctx(), o), std::invalid_argument);
}
