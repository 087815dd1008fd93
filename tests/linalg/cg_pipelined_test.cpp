// CG's pipelined form (StencilCg::Pipelined, shaders/linalg/cg_pipelined.vec.comp): one pass
// against the same step in double on the CPU, element by element, at several strip heights; a
// few iterations and a whole solve against the CPU's classic CG in double; the iterations it
// needs against classic CG's.
#include "compute/linalg/cg.h"
#include "compute/linalg/reference.h"
#include "compute/linalg/workload.h"
#include "tests/helpers.h"

#include <cfloat>
#include <cmath>
#include <map>

using namespace linalg;

namespace cg_pipelined_test {

// Random values of magnitude 0.5 to 1.5, every third negative: never zero.
std::vector<float> nonzero(uint32_t n, uint32_t seed) {
  auto v = random_floats(n, 0.5f, 1.5f, seed);
  for (size_t i = 0; i < v.size(); i += 3) v[i] = -v[i];
  return v;
}

// (A·v) in double for a Stencil5 A, zero outside the grid; with `abs`, the sum of |terms|.
std::vector<double> stencil_times(const Stencil5& a, const std::vector<double>& v, bool abs = false) {
  std::vector<double> out(a.n());
  auto f = [&](double t) { return abs ? std::fabs(t) : t; };
  for (uint32_t y = 0; y < a.h; ++y)
    for (uint32_t x = 0; x < a.w; ++x) {
      uint32_t i = y * a.w + x;
      double s = f(double(a.diag) * v[i]);
      if (x > 0) s += f(double(a.off) * v[i - 1]);
      if (x + 1 < a.w) s += f(double(a.off) * v[i + 1]);
      if (y > 0) s += f(double(a.off) * v[i - a.w]);
      if (y + 1 < a.h) s += f(double(a.off) * v[i + a.w]);
      out[i] = s;
    }
  return out;
}

// ||b - A·x|| / ||b|| in double.
double true_residual(const Stencil5& a, const std::vector<float>& b, const std::vector<float>& x) {
  auto ax = stencil_times(a, std::vector<double>(x.begin(), x.end()));
  double rr = 0, bb = 0;
  for (uint32_t i = 0; i < a.n(); ++i) rr += (b[i] - ax[i]) * (b[i] - ax[i]), bb += double(b[i]) * b[i];
  return std::sqrt(rr / bb);
}

double eps(double k) { return k * FLT_EPSILON; }

}  // namespace cg_pipelined_test

using namespace cg_pipelined_test;

class CgPipelined : public GpuTest, public ::testing::WithParamInterface<Layout> {};

// One pass (Ops::cg_pipelined) against the same step in double: every element of x, p and r'
// and the three scalars it writes, on grids one quad wide and wider, with strips of 1, 3, the
// automatic height and taller than the grid, so strips end inside, at and past the grid's edge.
// Iteration 0 (p = r) with NaN in the old p shows it is not read.
TEST_P(CgPipelined, OnePassMatchesTheCpu) {
  Ops ops(ctx(), GetParam());
  for (auto [w, h] : {std::pair{4u, 1u}, {12u, 7u}, {8u, 40u}, {64u, 33u}})
    for (uint32_t strip : {0u, 1u, 3u, 64u})
      for (bool first : {false, true}) {
        Stencil5 st{w, h, 2.7f, -0.6f};
        uint32_t n = st.n(), seed = w + 7 * h + 31 * strip + first;
        auto xs = nonzero(n, seed), rs = nonzero(n, seed + 1), ps = nonzero(n, seed + 2);
        // The scalars as dots of random vectors: gamma_prev ~ 0.6n, delta ~ 3n, alpha_prev ~ 0.6n,
        // so that delta - beta·gamma / alpha_prev stays well away from zero.
        auto gs = random_floats(n, 0.5f, 1.0f, seed + 3), ds = random_floats(n, 1.5f, 2.0f, seed + 4),
             as = random_floats(n, 0.5f, 1.0f, seed + 5);
        if (first) ps.assign(n, NAN);
        auto vec = [&](const std::vector<float>& v) {
          auto out = std::make_unique<Vec>(ctx(), n, GetParam());
          out->upload(v);
          return out;
        };
        auto x = vec(xs), r = vec(rs), p = vec(ps), g = vec(gs), d = vec(ds), a = vec(as);
        auto r2 = vec(xs), p2 = vec(xs);  // overwritten everywhere
        ctx().submit_now([&](VkCommandBuffer cmd) {
          ops.dot(cmd, Variant::Modern, *r, *r, 0);  // gamma
          ops.dot(cmd, Variant::Modern, *g, *g, 1);  // gamma_prev
          ops.dot(cmd, Variant::Modern, *d, *d, 2);  // delta
          ops.dot(cmd, Variant::Modern, *a, *a, 4);  // alpha_prev
          ops.cg_pipelined(cmd, st,
                           {x.get(), r.get(), p.get(), r2.get(), p2.get(), 0, 1, 6, 2, 3, 4, 7, 5, first, strip});
        });
        double gamma = ops.scalars().get(0), delta = ops.scalars().get(2);
        double beta = first ? 0 : gamma / ops.scalars().get(1);
        double alpha = first ? gamma / delta : gamma / (delta - beta * gamma / ops.scalars().get(4));
        std::vector<double> pw(n), xw(n), scale_p(n), rw(n), scale_r(n);
        for (uint32_t i = 0; i < n; ++i) {
          pw[i] = rs[i] + (first ? 0.0 : beta * ps[i]);
          scale_p[i] = std::fabs(rs[i]) + (first ? 0.0 : std::fabs(beta * ps[i]));
          xw[i] = xs[i] + alpha * pw[i];
        }
        auto s = stencil_times(st, pw), scale_s = stencil_times(st, scale_p, true);
        for (uint32_t i = 0; i < n; ++i) {
          rw[i] = rs[i] - alpha * s[i];
          scale_r[i] = std::fabs(rs[i]) + std::fabs(alpha) * scale_s[i];
        }
        auto ww = stencil_times(st, rw), scale_w = stencil_times(st, scale_r, true);
        // Float rounding, relative to the sums of |terms|: p: beta's division, a product and a sum;
        // x and r': alpha (a handful of float operations on the scalars), A·p's 6 operations and
        // the update; w' = A·r': r''s error times |A| plus its own 6 operations.
        const std::string where = std::to_string(w) + "x" + std::to_string(h) + " strip " + std::to_string(strip) +
                                  (first ? " first" : "") + " ";
        auto got_p = p2->download(), got_x = x->download(), got_r = r2->download();
        for (uint32_t i = 0; i < n; ++i) {
          ASSERT_NEAR(got_p[i], pw[i], eps(4) * scale_p[i]) << where << "p " << i;
          ASSERT_NEAR(got_x[i], xw[i], eps(8) * (std::fabs(xs[i]) + std::fabs(alpha) * scale_p[i]))
              << where << "x " << i;
          ASSERT_NEAR(got_r[i], rw[i], eps(16) * scale_r[i]) << where << "r " << i;
        }
        double gg = 0, gscale = 0, dd = 0, dscale = 0;
        for (uint32_t i = 0; i < n; ++i)
          gg += rw[i] * rw[i], gscale += scale_r[i] * scale_r[i], dd += ww[i] * rw[i],
              dscale += scale_w[i] * scale_r[i];
        // The sums: each term's error (above) plus the sum's own, a strip's rows one after the
        // other and then a tree over the invocations.
        double rows = std::min(strip ? strip : ops.cg_strip_rows(st), h), tree = 2 * std::log2(n + 1.0);
        EXPECT_NEAR(ops.scalars().get(6), gg, eps(32 + 4 * rows + tree) * gscale) << where << "gamma'";
        EXPECT_NEAR(ops.scalars().get(3), dd, eps(64 + 4 * rows + tree) * dscale) << where << "delta'";
        EXPECT_NEAR(ops.scalars().get(7), alpha, eps(16) * std::fabs(alpha)) << where << "alpha";
        EXPECT_EQ(ops.scalars().history(6)[5], ops.scalars().get(6)) << where << "history";
      }
}

// k iterations from x = 0 against classic CG in double (cg_cpu) on a random, non-zero right-hand
// side. In exact arithmetic the pipelined recurrences (Chronopoulos and Gear) give the same
// iterates as classic CG; in float each iteration's rounding, at ~eps·||r0||, perturbs the next
// directions by that over the residual left, ||r_k|| ~ 0.013·||r0|| here, so x_k and the residual
// history may drift from the double iterates by about eps·||r0||/||r_k|| ~ 1e-5 relative
// (measured on lavapipe: x 2.1e-7 of max |x_k|, history 5.2e-8 of ||r0||). The bounds, 1e-4 of
// max |x_k| on every element of x and 1e-4·||r0|| on each ||r_i||, leave room for that and for a
// device's own rounding, and are far below what a wrong alpha, beta or neighbour gives: the
// residual falls by ~40 % an iteration, so a wrong step moves x_k by much more than 1e-4.
TEST_P(CgPipelined, IterationsFollowClassicCgInDouble) {
  const float c = 2.0f;  // A = I - c·L: eigenvalues in (1, 1 + 8c), cond(A) < 17
  Stencil5 st{32, 24, 1.0f + 4 * c, -c};
  auto bs = nonzero(st.n(), 91);
  Ops ops(ctx(), GetParam());
  Vec b(ctx(), st.n(), GetParam()), x(ctx(), st.n(), GetParam());
  b.upload(bs);
  Cg cg(ops, st, StencilCg::Pipelined);
  const uint32_t k = 8;
  CgOptions o;
  o.tolerance = 0;  // never met: exactly k iterations
  o.max_iterations = k;
  o.check_every = 5;
  auto res = cg.solve(b, x, o);
  ASSERT_TRUE(res.problem.empty()) << res.problem;
  ASSERT_EQ(res.iterations, k);
  std::vector<double> hist;
  auto want = cg_cpu(st.banded(), bs, 0.0, k, nullptr, nullptr, false, &hist);
  ASSERT_EQ(res.history.size(), k + 1);
  ASSERT_EQ(hist.size(), k + 1);
  for (uint32_t i = 0; i <= k; ++i) EXPECT_NEAR(res.history[i], hist[i], 1e-4 * hist[0]) << "||r_" << i << "||";
  // progress made, far from solved: the comparison is of iterates, not of the solution
  EXPECT_LT(hist[k], 0.05 * hist[0]);
  EXPECT_GT(hist[k], 1e-3 * hist[0]);
  double top = 0;
  for (double v : want) top = std::max(top, std::fabs(v));
  auto got = x.download();
  for (uint32_t i = 0; i < st.n(); ++i) ASSERT_NEAR(got[i], want[i], 1e-4 * top) << "x_" << k << " at " << i;
}

// Solved to 1e-5 against CG in double to 1e-12: ||x - x*|| <= cond(A)·||r||/||b||·||x*||, cond < 17,
// so within 17·(1e-5 + float's drift) ~ 2e-4 of max |x*| everywhere; the true residual of the
// float solution within 2e-5.
TEST_P(CgPipelined, ConvergedSolutionMatchesDouble) {
  const float c = 2.0f;
  Stencil5 st{32, 24, 1.0f + 4 * c, -c};
  auto bs = nonzero(st.n(), 92);
  Ops ops(ctx(), GetParam());
  Vec b(ctx(), st.n(), GetParam()), x(ctx(), st.n(), GetParam());
  b.upload(bs);
  Cg cg(ops, st, StencilCg::Pipelined);
  CgOptions o;
  o.tolerance = 1e-5f;
  o.max_iterations = 200;
  o.check_every = 10;
  auto res = cg.solve(b, x, o);
  ASSERT_TRUE(res.converged) << res.problem << " after " << res.iterations;
  auto want = cg_cpu(st.banded(), bs, 1e-12, 1000);
  double top = 0;
  for (double v : want) top = std::max(top, std::fabs(v));
  auto got = x.download();
  for (uint32_t i = 0; i < st.n(); ++i) ASSERT_NEAR(got[i], want[i], 2e-4 * top) << i;
  EXPECT_LT(true_residual(st, bs, got), 2e-5);
}

// To 1e-5 on a harder system (c = 10, cond(A) < 81, 64x64): the pipelined form needs as many
// iterations as classic CG in double, give or take a tenth (float and the recurrences may cost a
// few), and as many as the float one-dispatch form and the banded classic iteration on the GPU.
TEST_P(CgPipelined, ConvergesInAboutClassicCgIterations) {
  const float c = 10.0f;
  Stencil5 st{64, 64, 1.0f + 4 * c, -c};
  auto bs = nonzero(st.n(), 93);
  uint32_t cpu = 0;
  cg_cpu(st.banded(), bs, 1e-5, 2000, &cpu);
  Ops ops(ctx(), GetParam());
  Vec b(ctx(), st.n(), GetParam()), x(ctx(), st.n(), GetParam());
  b.upload(bs);
  GpuBanded gm(ctx(), st.banded(), GetParam());
  CgOptions o;
  o.tolerance = 1e-5f;
  o.max_iterations = 400;
  o.check_every = 20;
  std::map<std::string, uint32_t> its;
  for (std::string form : {"pipelined", "one-dispatch", "banded"}) {
    auto cg = form == "banded"
                  ? std::make_unique<Cg>(ops, gm)
                  : std::make_unique<Cg>(ops, st, form == "pipelined" ? StencilCg::Pipelined : StencilCg::OneDispatch);
    auto r = cg->solve(b, x, o);
    ASSERT_TRUE(r.converged) << form << ": " << r.problem << " after " << r.iterations;
    EXPECT_LT(true_residual(st, bs, x.download()), 1e-4) << form;
    its[form] = r.iterations;
  }
  uint32_t slack = std::max(2u, cpu / 10);
  EXPECT_GT(cpu, 30u);  // a solve long enough for the recurrences to drift
  EXPECT_NEAR(double(its["pipelined"]), double(cpu), slack) << "classic CG in double: " << cpu;
  EXPECT_NEAR(double(its["pipelined"]), double(its["banded"]), slack);
  EXPECT_NEAR(double(its["pipelined"]), double(its["one-dispatch"]), slack);
}

// The lab's and the bench's workload: cg_form=pipelined declares 6 vector passes an iteration,
// solves, and takes the panel's float32 / float-float / double comparison; the thesis's variant
// and the float index formulas have no pipelined form and say so.
TEST_P(CgPipelined, WorkloadDeclaresItsBytesAndRefusesTheThesisVariant) {
  WorkloadConfig c;
  c.op = Op::Cg;
  c.side = 8;  // a 16x16 grid
  c.layout = GetParam();
  c.variant = Variant::Modern;
  c.cg_form = CgForm::Pipelined;
  c.seed = 3;
  Workload w(ctx(), c);
  EXPECT_EQ(w.name(), "cg.pipelined");
  EXPECT_DOUBLE_EQ(w.bytes(), 24.0 * w.n());
  for (int i = 0; i < 30; ++i) ctx().submit_now([&](VkCommandBuffer cmd) { w.record(cmd); });
  EXPECT_LT(w.check(), 1e-3);  // the true residual after 30 iterations
  // The panel's comparison: float32 in this form, float-float on a band made for it, double
  auto cmp = w.compare_precisions(1e-6f, 300);
  ASSERT_EQ(cmp.entries.size(), 3u);
  for (auto& e : cmp.entries) {
    EXPECT_GT(e.iterations, 5u) << e.precision;
    EXPECT_LT(e.true_residual, 1e-5) << e.precision;
  }
  c.variant = Variant::Thesis;
  try {
    Workload bad(ctx(), c);
    ADD_FAILURE() << "the thesis variant took cg_form=pipelined";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("needs variant=modern"), std::string::npos) << e.what();
  }
  c.variant = Variant::Modern;
  c.layout = Layout::Texture;
  c.frac_index = true;
  EXPECT_THROW(Workload(ctx(), c), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(Layouts, CgPipelined, ::testing::Values(Layout::Texture, Layout::Buffer),
                         [](auto& info) { return std::string(layout_name(info.param)); });
