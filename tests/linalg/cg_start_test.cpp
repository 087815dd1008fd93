// Where the linear algebra lab's CG starts: the thesis variant ('MGC SUR GPU', Bleton 2005
// §3.4.2, line 4) from x0 = b, so its first residual is ||b − A·b||; the modern one from
// x0 = 0, first residual ||b||. Checked on the workload the lab runs and on the lab itself
// through the preset linalg/cg-thesis.
#include "app/core/lab.h"
#include "app/core/presets.h"
#include "app/core/registry.h"
#include "compute/gpu/profiler.h"
#include "compute/io/npy.h"
#include "compute/linalg/reference.h"
#include "compute/linalg/workload.h"
#include "tests/helpers.h"

#include <cmath>

using namespace linalg;

namespace {

class LinalgCgStart : public GpuTest {};

struct Norms {
  double b, b_minus_ab;  // ||b||, ||b − A·b|| in double
};
Norms norms(const Workload& w) {
  const auto& b = w.y_values();
  auto ab = banded_cpu(w.banded(), b);
  Norms n{0, 0};
  for (size_t i = 0; i < b.size(); ++i) n.b += double(b[i]) * b[i], n.b_minus_ab += (b[i] - ab[i]) * (b[i] - ab[i]);
  return {std::sqrt(n.b), std::sqrt(n.b_minus_ab)};
}

// The start the workload records (x0, and r0·r0 in the history's first slot), then one
// iteration from it against the CPU's first iterate from the same start, every element.
TEST_F(LinalgCgStart, TheThesisVariantStartsFromBAndTheModernFromZero) {
  for (Layout layout : {Layout::Texture, Layout::Buffer})
    for (Variant v : {Variant::Thesis, Variant::Modern}) {
      const bool thesis = v == Variant::Thesis;
      SCOPED_TRACE(std::string(variant_name(v)) + (layout == Layout::Texture ? " texture" : " buffer"));
      WorkloadConfig c;
      c.op = Op::Cg, c.variant = v, c.layout = layout;
      c.side = 16, c.cg_c = 7.0f, c.seed = 5;
      Workload w(ctx(), c);  // records the start
      EXPECT_EQ(w.cg_start(), thesis ? CgStart::RightHandSide : CgStart::Zero);
      auto nrm = norms(w);
      ASSERT_GT(std::fabs(nrm.b - nrm.b_minus_ab), 1e-2 * nrm.b) << "the two starts should be told apart";
      EXPECT_NEAR(w.b_dot_b(), nrm.b * nrm.b, 1e-9 * nrm.b * nrm.b);
      auto x0 = w.result().download();
      for (size_t i = 0; i < x0.size(); ++i) ASSERT_EQ(x0[i], thesis ? w.y_values()[i] : 0.0f) << "x0 at " << i;
      double r0 = std::sqrt(double(w.ops().scalars().history(1)[0]));
      double want = thesis ? nrm.b_minus_ab : nrm.b;
      EXPECT_NEAR(r0, want, 1e-5 * want);

      ctx().submit_now([&](VkCommandBuffer cmd) { w.record(cmd); });
      w.run_cpu();
      auto got = w.result().download();
      auto ref = w.cpu_values();
      ASSERT_EQ(got.size(), ref.size());
      double scale = 0;
      for (double r : ref) scale = std::max(scale, std::fabs(r));
      for (size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], ref[i], 1e-5 * scale) << "x1 at " << i;
    }
}

// The lab as the preset runs it: its residual plot (the dump's cg_residual.npy, ||r_i|| / ||b||)
// starts at ||b − A·b|| / ||b|| for linalg/cg-thesis and at 1 for linalg/cg-modern.
TEST_F(LinalgCgStart, ThePresetsResidualStartsWhereItsVariantStarts) {
  for (const char* name : {"linalg/cg-thesis", "linalg/cg-modern"}) {
    SCOPED_TRACE(name);
    auto lab = make_lab("linalg");
    apply_preset(find_preset(name), lab->params());
    lab->params().set("side", "16");
    lab->build(ctx());
    gpu::Profiler prof(ctx());
    ctx().submit_now([&](VkCommandBuffer cmd) {
      prof.begin_frame(cmd);
      lab->step(cmd, prof, 1);
    });
    prof.resolve();
    EXPECT_EQ(lab->problem(), "");
    auto dir = scratch(std::string("cg-start-") + (std::string(name) == "linalg/cg-thesis" ? "thesis" : "modern"));
    lab->dump(dir);
    auto history = read_npy(dir / "cg_residual.npy");
    ASSERT_GT(history.size(), 1u);
    WorkloadConfig c;  // the lab's system, rebuilt from its values
    c.op = Op::Cg, c.side = uint32_t(lab->params().get_int("side")), c.cg_c = float(lab->params().get("cg_c"));
    c.seed = uint32_t(lab->params().get_int("seed"));
    Workload w(ctx(), c);
    auto nrm = norms(w);
    double want = std::string(name) == "linalg/cg-thesis" ? nrm.b_minus_ab / nrm.b : 1.0;
    EXPECT_NEAR(history[0], want, 1e-5 * want);
    EXPECT_LT(history.back(), history[0]) << "the residual should fall";
  }
}

}  // namespace
