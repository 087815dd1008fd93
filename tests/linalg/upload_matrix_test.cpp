// Bleton 2005 §4.1.1 and §4.4.1: a system matrix that changes every step crosses the bus every
// step. With upload_matrix the band is copied from host memory before each application
// (GpuBanded::record_upload): the results are the resident matrix's bit for bit, in both
// layouts and in CG, and the bench times the upload alone beside the application.
#include "app/core/lab.h"
#include "compute/linalg/workload.h"
#include "tests/helpers.h"

using namespace linalg;

namespace {

// The result after `applications` applications of the workload, uploading its matrix or not.
std::vector<float> after(gpu::Context& ctx, WorkloadConfig c, bool upload, int applications) {
  c.upload_matrix = upload;
  Workload w(ctx, c);
  ctx.submit_now([&](VkCommandBuffer cmd) {
    w.record_restart(cmd);
    for (int i = 0; i < applications; ++i) w.record(cmd);
  });
  return w.result().download();
}

}  // namespace

TEST_F(GpuTest, UploadingTheMatrixEachApplicationChangesNoBit) {
  for (auto [op, variant, layout] :
       {std::tuple{Op::Banded, Variant::Thesis, Layout::Texture},
        std::tuple{Op::Banded, Variant::Modern, Layout::Buffer}, std::tuple{Op::Cg, Variant::Modern, Layout::Buffer},
        std::tuple{Op::Cg, Variant::Thesis, Layout::Texture}}) {
    SCOPED_TRACE(op_names()[size_t(op)] + " " + variant_name(variant));
    WorkloadConfig c;
    c.op = op, c.variant = variant, c.layout = layout;
    c.side = 20, c.seed = 5;
    auto resident = after(ctx(), c, false, 4), uploaded = after(ctx(), c, true, 4);
    ASSERT_EQ(resident.size(), uploaded.size());
    EXPECT_EQ(resident, uploaded);
    if (op == Op::Banded) {  // and right: the CPU's product
      c.upload_matrix = true;
      Workload w(ctx(), c);
      ctx().submit_now([&](VkCommandBuffer cmd) { w.record(cmd); });
      w.run_cpu();
      EXPECT_LT(w.check(), 1e-5);
      EXPECT_GT(w.matrix_bytes(), 12.0 * c.side * c.side * 4 * 4 * 0.99);  // 12 diagonals of n floats
    }
  }
  ASSERT_EQ(ctx().validation_count(), 0u);
}

TEST_F(GpuTest, OnlyABandedMatrixIsUploadedEachApplication) {
  for (Op op : {Op::Axpby, Op::Norm, Op::Dense}) {
    WorkloadConfig c;
    c.op = op, c.side = 8, c.dense_n = 32, c.upload_matrix = true;
    EXPECT_THROW(Workload(ctx(), c), std::invalid_argument) << op_names()[size_t(op)];
  }
  WorkloadConfig c;
  c.op = Op::Cg, c.cg_form = CgForm::Pipelined, c.side = 8, c.upload_matrix = true;
  EXPECT_THROW(Workload(ctx(), c), std::invalid_argument);
}

TEST_F(GpuTest, TheBenchTimesTheMatrixUploadBesideTheApplication) {
  auto lab = make_lab("linalg");
  gpu::BenchOptions o;
  o.quick = true;
  o.only = {"banded12.upload.modern.buffer", "banded12.upload.thesis.texture", "cg.upload.modern.buffer"};
  auto rows = lab->bench(ctx(), o);
  ASSERT_EQ(rows.size(), 3u);  // the three at the quick bench's smallest side
  for (auto& r : rows) {
    SCOPED_TRACE(r.pass + " " + r.size);
    const auto& up = r.reference.at("matrix_upload");
    EXPECT_GT(up["bytes"].get<double>(), 0);
    EXPECT_GT(up["median_ms"].get<double>(), 0);
    EXPECT_NEAR(up["bus_gbps"].get<double>(), up["bytes"].get<double>() / (up["median_ms"].get<double>() * 1e6),
                1e-9 * up["bus_gbps"].get<double>());
    EXPECT_NE(r.note.find("the matrix's upload"), std::string::npos);
    EXPECT_LT(r.reference.value("max_relative_error_vs_cpu", 0.0), 1e-5);
  }
}
