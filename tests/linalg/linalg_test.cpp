// compute/linalg: every operator, both layouts and both variants, against the CPU
// reference on random non-zero data, with lengths that are neither multiples of 4 nor
// powers of two; CG on SPD systems; the Laplacian as a banded matrix.
#include "compute/diffusion/diffusion.h"
#include "compute/linalg/cg.h"
#include "compute/linalg/reference.h"
#include "compute/linalg/workload.h"
#include "tests/helpers.h"

#include <mpfr.h>
#include <cfloat>
#include <cmath>
#include <random>

using namespace linalg;

namespace {

struct Case {
  Layout layout;
  uint32_t n;
};

class Linalg : public GpuTest, public ::testing::WithParamInterface<Case> {
 protected:
  Layout layout() const { return GetParam().layout; }
  uint32_t n() const { return GetParam().n; }
  Ops& ops() {
    if (!ops_) ops_ = std::make_unique<Ops>(ctx(), layout());
    return *ops_;
  }
  Vec make(const std::vector<float>& values) {
    Vec v(ctx(), uint32_t(values.size()), layout());
    v.upload(values);
    return v;
  }
  // Non-zero values of either sign.
  std::vector<float> random(uint32_t count, uint32_t seed) {
    auto v = random_floats(count, 0.5f, 2.0f, seed);
    for (size_t i = 0; i < v.size(); i += 3) v[i] = -v[i];
    return v;
  }
  void expect_padding_zero(const Vec& v) {
    auto all = v.download_padded();
    for (size_t i = v.n(); i < all.size(); ++i) ASSERT_EQ(all[i], 0.0f) << "padding leaked at " << i;
  }
  template <class F>
  void run(F f) {
    ctx().submit_now(f);
  }
  std::unique_ptr<Ops> ops_;
};

std::string name(const ::testing::TestParamInfo<Case>& info) {
  return std::string(layout_name(info.param.layout)) + "_" + std::to_string(info.param.n);
}

// bound on the float error of a sum of m terms, relative to the sum of |terms|
double rounding(double m) { return m * FLT_EPSILON; }

}  // namespace

TEST_P(Linalg, AxpbyAndProduct) {
  auto xs = random(n(), 1), ys = random(n(), 2);
  Vec x = make(xs), y = make(ys), out(ctx(), n(), layout()), prod(ctx(), n(), layout());
  run([&](VkCommandBuffer cmd) {
    ops().axpby(cmd, {1.5f}, x, {-0.75f}, y, out);
    ops().mul(cmd, x, y, prod);
  });
  auto got = out.download(), got_prod = prod.download();
  auto want = axpby_cpu(1.5f, xs, -0.75f, ys), want_prod = mul_cpu(xs, ys);
  for (uint32_t i = 0; i < n(); ++i) {
    ASSERT_NEAR(got[i], want[i], 2 * FLT_EPSILON * (std::fabs(1.5f * xs[i]) + std::fabs(0.75f * ys[i]))) << i;
    ASSERT_EQ(got_prod[i], want_prod[i]) << i;
  }
  expect_padding_zero(out);
  expect_padding_zero(prod);
}

TEST_P(Linalg, AxpbyWithGpuScalarCoefficients) {
  auto xs = random(n(), 3), ys = random(n(), 4);
  Vec x = make(xs), y = make(ys), out(ctx(), n(), layout());
  run([&](VkCommandBuffer cmd) {
    ops().dot(cmd, Variant::Modern, x, x, 5);           // S[5] = x·x
    ops().dot(cmd, Variant::Modern, y, y, 6);           // S[6] = y·y
    ops().axpby(cmd, {2.0f, 5, 6}, x, {1.0f}, y, out);  // out = 2·(x·x / y·y)·x + y
  });
  double c = 2.0 * double(ops().scalars().get(5)) / ops().scalars().get(6);
  EXPECT_NEAR(ops().scalars().get(5), dot_cpu(xs, xs), 1e-4 * dot_cpu(xs, xs));
  auto got = out.download();
  for (uint32_t i = 0; i < n(); ++i)
    ASSERT_NEAR(got[i], c * xs[i] + ys[i], 4 * FLT_EPSILON * (std::fabs(c * xs[i]) + std::fabs(ys[i]))) << i;
}

TEST_P(Linalg, DotThesisAndModernMatchCpu) {
  auto xs = random(n(), 5), ys = random(n(), 6);
  Vec x = make(xs), y = make(ys);
  run([&](VkCommandBuffer cmd) {
    ops().dot(cmd, Variant::Thesis, x, y, 0);
    ops().dot(cmd, Variant::Modern, x, y, 1);
    ops().dot(cmd, Variant::Thesis, x, x, 2, true);  // norms
    ops().dot(cmd, Variant::Modern, x, x, 3, true);
  });
  double want = dot_cpu(xs, ys), scale = 0;
  for (uint32_t i = 0; i < n(); ++i) scale += std::fabs(double(xs[i]) * ys[i]);
  // per-invocation partial sums of at most ceil(n/4/262144)·4 terms, then trees
  double bound = rounding(4.0 * std::ceil(n() / 4.0 / 262144.0) + 2 * std::log2(n() + 1.0) + 8) * scale;
  EXPECT_NEAR(ops().scalars().get(0), want, bound) << "thesis";
  EXPECT_NEAR(ops().scalars().get(1), want, bound) << "modern";
  double norm = std::sqrt(dot_cpu(xs, xs));
  EXPECT_NEAR(ops().scalars().get(2), norm, norm * rounding(2 * std::log2(n() + 1.0) + 8)) << "thesis norm";
  EXPECT_NEAR(ops().scalars().get(3), norm, norm * rounding(2 * std::log2(n() + 1.0) + 8)) << "modern norm";
}

TEST_P(Linalg, BandedTwelveDiagonalsAndMoreBothVariants) {
  for (int diagonals : {12, 17}) {
    auto m = random_band(n(), diagonals, 7);
    auto vs = random(n(), 8), vps = random(n(), 9);
    GpuBanded gm(ctx(), m, layout());
    Vec v = make(vs), vp = make(vps), thesis(ctx(), n(), layout()), modern(ctx(), n(), layout());
    run([&](VkCommandBuffer cmd) {
      ops().banded(cmd, Variant::Thesis, gm, v, &vp, thesis, 0.5f, 2.0f);
      ops().banded(cmd, Variant::Modern, gm, v, &vp, modern, 0.5f, 2.0f);
    });
    auto want = banded_cpu(m, vs, 0.5f, 2.0f, vps);
    auto scale = banded_abs_cpu(m, vs);
    auto t = thesis.download(), md = modern.download();
    for (uint32_t i = 0; i < n(); ++i) {
      double bound = rounding(diagonals + 3) * (0.5 * scale[i] + 2.0 * std::fabs(vps[i]));
      ASSERT_NEAR(t[i], want[i], bound) << "thesis row " << i << ", " << diagonals << " diagonals";
      ASSERT_NEAR(md[i], want[i], bound) << "modern row " << i << ", " << diagonals << " diagonals";
    }
    expect_padding_zero(thesis);
    expect_padding_zero(modern);
  }
}

TEST_P(Linalg, BandedFusedWithDot) {
  auto m = random_spd_band(n(), {1, 5}, 10);
  auto vs = random(n(), 11);
  GpuBanded gm(ctx(), m, layout());
  Vec v = make(vs), q(ctx(), n(), layout());
  run([&](VkCommandBuffer cmd) { ops().banded(cmd, Variant::Modern, gm, v, nullptr, q, 1.0f, 0.0f, 7); });
  auto want = banded_cpu(m, vs);
  auto scale = banded_abs_cpu(m, vs);
  double vav = 0, vav_scale = 0;
  for (uint32_t i = 0; i < n(); ++i) vav += vs[i] * want[i], vav_scale += std::fabs(vs[i]) * scale[i];
  EXPECT_NEAR(ops().scalars().get(7), vav, rounding(8 + 2 * std::log2(n() + 1.0) + 8) * vav_scale);
}

TEST_P(Linalg, DenseThesisAndModernMatchCpu) {
  uint32_t dn = std::min(n(), 300u);  // N/4 passes: keep the thesis variant's pass count small
  auto m = random_dense(dn, 12);
  auto vs = random(dn, 13), vps = random(dn, 14);
  GpuDense gm(ctx(), m);
  Vec v = make(vs), vp = make(vps), thesis(ctx(), dn, layout()), modern(ctx(), dn, layout());
  run([&](VkCommandBuffer cmd) {
    ops().dense(cmd, Variant::Thesis, gm, v, &vp, thesis);
    ops().dense(cmd, Variant::Modern, gm, v, &vp, modern);
  });
  auto want = dense_cpu(m, vs, vps);
  auto scale = dense_abs_cpu(m, vs);
  auto t = thesis.download(), md = modern.download();
  for (uint32_t i = 0; i < dn; ++i) {
    double bound = rounding(dn + 2) * (scale[i] + std::fabs(vps[i]));
    ASSERT_NEAR(t[i], want[i], bound) << "thesis row " << i;
    ASSERT_NEAR(md[i], want[i], bound) << "modern row " << i;
  }
  expect_padding_zero(thesis);
  expect_padding_zero(modern);
}

TEST_P(Linalg, ConjugateGradientSolvesSpdSystems) {
  auto m = random_spd_band(n(), {1, 3, 17}, 15);
  auto bs = random(n(), 16);
  GpuBanded gm(ctx(), m, layout());
  Vec b = make(bs);
  uint32_t cpu_iterations = 0;
  auto want = cg_cpu(m, bs, 1e-10, 500, &cpu_iterations);
  std::vector<std::vector<float>> solutions;
  for (Variant v : {Variant::Thesis, Variant::Modern}) {
    Vec x(ctx(), n(), layout());
    Cg cg(ops(), gm);
    CgOptions o;
    o.variant = v;
    o.tolerance = 1e-5f;
    o.max_iterations = 300;
    o.check_every = 7;
    auto r = cg.solve(b, x, o);
    ASSERT_TRUE(r.converged) << variant_name(v) << ": " << r.problem << " after " << r.iterations;
    EXPECT_LE(r.relative_residual, 1e-5f);
    EXPECT_EQ(r.history.size(), r.iterations + 1);
    EXPECT_FLOAT_EQ(r.history[0], 1.0f);
    auto xs = x.download();
    // the true residual of the float solution, in double
    auto ax = banded_cpu(m, xs);
    double rr = 0, bb = 0, err = 0, ref = 0;
    for (uint32_t i = 0; i < n(); ++i) {
      rr += (bs[i] - ax[i]) * (bs[i] - ax[i]);
      bb += double(bs[i]) * bs[i];
      err += (xs[i] - want[i]) * (xs[i] - want[i]);
      ref += want[i] * want[i];
    }
    // the recursive residual drifts from the true one by O(eps · iterations)
    EXPECT_LE(std::sqrt(rr / bb), 1e-4) << variant_name(v);
    // diagonally dominant: cond(A) < 1 + 2·(largest off-diagonal row sum)/margin; error <= cond·residual
    EXPECT_LE(std::sqrt(err / ref), 1e-3) << variant_name(v);
    solutions.push_back(xs);
  }
  for (uint32_t i = 0; i < n(); ++i)
    ASSERT_NEAR(solutions[0][i], solutions[1][i], 1e-3 * (1 + std::fabs(solutions[0][i])))
        << "variants differ at " << i;
}

// 'MGC SUR GPU' starts from x0 = b (line 4); a warm start from a given x. Both reach the same
// solution, the residual measured against ||b|| whatever the start; a start that already
// solves the system stops before the first iteration.
TEST_P(Linalg, ConjugateGradientStartsWhereAsked) {
  auto m = random_spd_band(n(), {1, 3, 17}, 15);
  auto bs = random(n(), 16);
  GpuBanded gm(ctx(), m, layout());
  Vec b = make(bs);
  auto want = cg_cpu(m, bs, 1e-10, 500, nullptr);
  for (Variant v : {Variant::Thesis, Variant::Modern})
    for (CgStart start : {CgStart::RightHandSide, CgStart::Given}) {
      std::vector<float> x0(n());
      for (uint32_t i = 0; i < n(); ++i) x0[i] = float(want[i] * (1.0 + 0.01 * std::sin(i)));
      Vec x = make(x0);
      Cg cg(ops(), gm);
      CgOptions o;
      o.variant = v;
      o.start = start;
      o.tolerance = 1e-5f;
      o.max_iterations = 300;
      o.check_every = 1;
      auto r = cg.solve(b, x, o);
      std::string what = std::string(variant_name(v)) + (start == CgStart::Given ? " given" : " from b");
      ASSERT_TRUE(r.converged) << what << ": " << r.problem;
      auto xs = x.download();
      auto ax = banded_cpu(m, xs);
      double rr = 0, bb = 0;
      for (uint32_t i = 0; i < n(); ++i) {
        rr += (bs[i] - ax[i]) * (bs[i] - ax[i]);
        bb += double(bs[i]) * bs[i];
        ASSERT_NEAR(xs[i], want[i], 1e-3 * (1 + std::fabs(want[i]))) << what << " at " << i;
      }
      EXPECT_LE(std::sqrt(rr / bb), 1e-4) << what;
      // the first residual is measured against b: r0 = b − A·x0, not 1 as from x = 0
      double r0 = 0;
      auto ax0 = banded_cpu(m, start == CgStart::Given ? x0 : bs);
      for (uint32_t i = 0; i < n(); ++i) r0 += (bs[i] - ax0[i]) * (bs[i] - ax0[i]);
      EXPECT_NEAR(r.history[0], std::sqrt(r0 / bb), 1e-3 * std::sqrt(r0 / bb) + 1e-6) << what;
      if (start == CgStart::Given) {  // now x solves it: a second solve from it does nothing
        auto again = cg.solve(b, x, o);
        EXPECT_TRUE(again.converged) << what;
        EXPECT_EQ(again.iterations, 0u) << what;
        auto same = x.download();
        for (uint32_t i = 0; i < n(); ++i) ASSERT_EQ(same[i], xs[i]) << what << " at " << i;
      }
    }
}

// The breakdown the watchdog reports (issue 13): A = 3e38·I and b = 2 overflow A·d to
// infinity, so alpha = rho / inf = 0 and r - alpha·q = NaN; the solve must stop with a
// problem naming the iteration, not return NaN as a result. (A zero d·Ad gives alpha = 0.)
TEST_P(Linalg, ConjugateGradientReportsABreakdown) {
  BandedMatrix huge{n(), {{0, std::vector<float>(n(), 3e38f)}}};
  GpuBanded gm(ctx(), huge, layout());
  Vec b = make(std::vector<float>(n(), 2.0f));
  for (Variant v : {Variant::Thesis, Variant::Modern}) {
    Vec x(ctx(), n(), layout());
    Cg cg(ops(), gm);
    CgOptions o;
    o.variant = v;
    o.max_iterations = 20;
    o.check_every = 4;
    auto r = cg.solve(b, x, o);
    EXPECT_FALSE(r.converged) << variant_name(v);
    EXPECT_NE(r.problem.find("broke down at iteration 1"), std::string::npos) << variant_name(v) << ": " << r.problem;
    EXPECT_EQ(r.iterations, 1u) << variant_name(v);
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, Linalg,
                         ::testing::Values(Case{Layout::Texture, 1}, Case{Layout::Texture, 1000},
                                           Case{Layout::Texture, 4099}, Case{Layout::Buffer, 3},
                                           Case{Layout::Buffer, 1000}, Case{Layout::Buffer, 4099}),
                         name);

class Stencil : public GpuTest, public ::testing::WithParamInterface<Layout> {};

// The matrix-free operator equals the banded product of the same matrix, fused dot included,
// and so does it with CG's direction update fused in front.
TEST_P(Stencil, MatchesItsBandedMatrix) {
  for (auto [w, h] : {std::pair{4u, 1u}, {12u, 7u}, {64u, 33u}}) {
    Stencil5 st{w, h, 2.7f, -0.6f};
    auto m = st.banded();
    auto vs = random_floats(st.n(), 0.5f, 2.0f, w + h);
    for (size_t i = 0; i < vs.size(); i += 2) vs[i] = -vs[i];
    Ops ops(ctx(), GetParam());
    Vec v(ctx(), st.n(), GetParam()), out(ctx(), st.n(), GetParam());
    v.upload(vs);
    ctx().submit_now([&](VkCommandBuffer cmd) { ops.stencil(cmd, st, v, out, 3); });
    auto want = banded_cpu(m, vs);
    auto scale = banded_abs_cpu(m, vs);
    auto got = out.download();
    double vav = 0, vav_scale = 0;
    for (uint32_t i = 0; i < st.n(); ++i) {
      ASSERT_NEAR(got[i], want[i], rounding(6) * scale[i]) << w << "x" << h << " cell " << i;
      vav += vs[i] * want[i], vav_scale += std::fabs(vs[i]) * scale[i];
    }
    EXPECT_NEAR(ops.scalars().get(3), vav, rounding(8 + 2 * std::log2(st.n() + 1.0)) * vav_scale);
  }
}

// One CG iteration in one dispatch (Chronopoulos-Gear, Ops::cg_stencil) against the same
// iteration in double on the CPU, every element of every vector it writes and the three
// scalars; iteration 0 (p = r, s = w) with NaN in p and s to show they are not read.
TEST_P(Stencil, OneDispatchCgIterationMatchesTheCpu) {
  for (auto [w, h] : {std::pair{4u, 1u}, {12u, 7u}, {64u, 33u}})
    for (bool first : {false, true}) {
      Stencil5 st{w, h, 2.7f, -0.6f};
      auto m = st.banded();
      uint32_t n = st.n(), seed = w + 7 * h + first;
      auto rand = [&](float lo, float hi) { return random_floats(n, lo, hi, seed++); };
      auto xs = rand(-1, 1), rs = rand(-1, 1), ws = rand(-2, 2), ps = rand(-1, 1), ss = rand(-2, 2);
      auto gs = rand(0.5f, 1), ds = rand(1.5f, 2), as = rand(0.1f, 0.3f);  // dots give the scalars
      if (first) ps.assign(n, NAN), ss.assign(n, NAN);
      Ops ops(ctx(), GetParam());
      auto vec = [&](const std::vector<float>& v) {
        auto out = std::make_unique<Vec>(ctx(), n, GetParam());
        out->upload(v);
        return out;
      };
      auto x = vec(xs), r = vec(rs), wv = vec(ws), p = vec(ps), s = vec(ss), g = vec(gs), d = vec(ds), a = vec(as);
      auto r2 = vec(rs), w2 = vec(rs), s2 = vec(rs);
      ctx().submit_now([&](VkCommandBuffer cmd) {
        ops.dot(cmd, Variant::Modern, *r, *r, 0);  // gamma
        ops.dot(cmd, Variant::Modern, *g, *g, 1);  // gamma_prev
        ops.dot(cmd, Variant::Modern, *d, *d, 2);  // delta
        ops.dot(cmd, Variant::Modern, *a, *a, 4);  // alpha_prev
        ops.cg_stencil(cmd, st,
                       {x.get(), r.get(), wv.get(), p.get(), s.get(), r2.get(), w2.get(), s2.get(), 0, 1, 6, 2, 3, 4, 7,
                        5, first});
      });
      double gamma = ops.scalars().get(0), delta = ops.scalars().get(2);
      double beta = first ? 0 : gamma / ops.scalars().get(1);
      double alpha = first ? gamma / delta : gamma / (delta - beta * gamma / ops.scalars().get(4));
      std::vector<double> pw(n), sw(n), xw(n);
      std::vector<float> rw(n), scale_r(n);
      for (uint32_t i = 0; i < n; ++i) {
        pw[i] = rs[i] + (first ? 0.0 : beta * ps[i]);
        sw[i] = ws[i] + (first ? 0.0 : beta * ss[i]);
        xw[i] = xs[i] + alpha * pw[i];
        rw[i] = float(rs[i] - alpha * sw[i]);
        scale_r[i] =
            float(std::fabs(rs[i]) + std::fabs(alpha) * (std::fabs(ws[i]) + (first ? 0.0 : std::fabs(beta * ss[i]))));
      }
      auto ww = banded_cpu(m, rw), wscale = banded_abs_cpu(m, scale_r);
      const std::string where = std::to_string(w) + "x" + std::to_string(h) + (first ? " first" : "");
      auto check = [&](const Vec& got_vec, auto&& want, auto&& bound, const char* what) {
        auto got = got_vec.download();
        for (uint32_t i = 0; i < n; ++i) ASSERT_NEAR(got[i], want(i), bound(i)) << where << " " << what << " " << i;
      };
      check(
          *p, [&](uint32_t i) { return pw[i]; },
          [&](uint32_t i) { return rounding(2) * (std::fabs(rs[i]) + std::fabs(pw[i])); }, "p");
      check(
          *s2, [&](uint32_t i) { return sw[i]; },
          [&](uint32_t i) { return rounding(2) * (std::fabs(ws[i]) + std::fabs(sw[i])); }, "s");
      check(
          *x, [&](uint32_t i) { return xw[i]; },
          [&](uint32_t i) {
            return rounding(4) *
                   (std::fabs(xs[i]) + std::fabs(alpha) * (std::fabs(rs[i]) + (first ? 0.0 : std::fabs(beta * ps[i]))));
          },
          "x");
      check(
          *r2, [&](uint32_t i) { return double(rw[i]); }, [&](uint32_t i) { return rounding(4) * scale_r[i]; }, "r");
      check(
          *w2, [&](uint32_t i) { return ww[i]; }, [&](uint32_t i) { return rounding(10) * wscale[i]; }, "w");
      double gg = 0, gscale = 0, dd = 0, dscale = 0;
      for (uint32_t i = 0; i < n; ++i)
        gg += double(rw[i]) * rw[i], gscale += double(scale_r[i]) * scale_r[i], dd += ww[i] * rw[i],
            dscale += wscale[i] * scale_r[i];
      double log_n = 2 * std::log2(n + 1.0);
      EXPECT_NEAR(ops.scalars().get(6), gg, rounding(12 + log_n) * gscale) << where << " gamma'";
      EXPECT_NEAR(ops.scalars().get(3), dd, rounding(24 + log_n) * dscale) << where << " delta'";
      EXPECT_NEAR(ops.scalars().get(7), alpha, rounding(8) * std::fabs(alpha) * 4) << where << " alpha";
      EXPECT_EQ(ops.scalars().history(6)[5], ops.scalars().get(6)) << where << " history";
    }
}

// A whole solve recorded in one command buffer stops on the GPU: the outcome says how
// many iterations ran, a warm start from the answer needs none, and the result matches
// the read-back solver's and solves the system.
TEST_P(Stencil, GpuStoppedSolveMatchesReadBackSolve) {
  Stencil5 st{16, 12, 1.0f + 4 * 0.8f, -0.8f};  // I - 0.8·Laplacian
  auto bs = random_floats(st.n(), 0.5f, 2.0f, 77);
  Ops ops(ctx(), GetParam());
  Vec b(ctx(), st.n(), GetParam()), x(ctx(), st.n(), GetParam()), y(ctx(), st.n(), GetParam());
  b.upload(bs);
  GpuBanded gm(ctx(), st.banded(), GetParam());
  for (std::string form : {"one-dispatch", "pipelined", "banded"}) {
    const bool banded = form == "banded";
    auto cg = banded
                  ? std::make_unique<Cg>(ops, gm)
                  : std::make_unique<Cg>(ops, st, form == "pipelined" ? StencilCg::Pipelined : StencilCg::OneDispatch);
    x.upload(std::vector<float>(st.n(), 0.0f));
    ctx().submit_now([&](VkCommandBuffer cmd) { cg->record_solve(cmd, b, x, 1e-6f, 200); });
    auto out = cg->outcome();
    EXPECT_TRUE(out.converged);
    EXPECT_LE(out.relative_residual, 1e-6f);
    EXPECT_GT(out.iterations, 3u);
    EXPECT_LT(out.iterations, 200u);
    CgOptions o;
    o.tolerance = 1e-6f;
    o.check_every = 1;
    auto r = cg->solve(b, y, o);
    EXPECT_EQ(out.iterations, r.iterations) << form;
    auto xs = x.download(), ys = y.download();
    for (uint32_t i = 0; i < st.n(); ++i) ASSERT_NEAR(xs[i], ys[i], 1e-6 * (1 + std::fabs(ys[i]))) << i;
    // and x solves the system: the true residual ||b - A·x||, in double on the CPU
    auto ax = banded_cpu(st.banded(), xs);
    double rr = 0, bb = 0;
    for (uint32_t i = 0; i < st.n(); ++i) rr += (bs[i] - ax[i]) * (bs[i] - ax[i]), bb += double(bs[i]) * bs[i];
    EXPECT_LT(std::sqrt(rr / bb), 1e-5) << form;
    // warm start from the solution: already converged, zero iterations
    ctx().submit_now([&](VkCommandBuffer cmd) { cg->record_solve(cmd, b, x, 1e-4f, 200); });
    EXPECT_EQ(cg->outcome().iterations, 0u);
    EXPECT_TRUE(cg->outcome().converged);
    // a cap below what convergence needs: stops there, says so
    x.upload(std::vector<float>(st.n(), 0.0f));
    ctx().submit_now([&](VkCommandBuffer cmd) { cg->record_solve(cmd, b, x, 1e-6f, 2); });
    EXPECT_EQ(cg->outcome().iterations, 2u);
    EXPECT_FALSE(cg->outcome().converged);
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, Stencil, ::testing::Values(Layout::Texture, Layout::Buffer),
                         [](auto& info) { return std::string(layout_name(info.param)); });

TEST(LinalgLayout, TextureSideIsTheThesisPowerOfTwo) {
  EXPECT_EQ(texture_side(1), 1u);
  EXPECT_EQ(texture_side(250), 16u);  // 1000 values = 250 quads -> 16x16 texels
  EXPECT_EQ(texture_side(256), 16u);
  EXPECT_EQ(texture_side(257), 32u);
  EXPECT_EQ(texture_side(1024 * 1024), 1024u);  // the thesis's 1024x1024x4
}

// The diffusion operator of §4.4.2 is the banded matrix I + k·L: one banded product with
// the 5-point Laplacian equals one diffusion step with fixed zero borders.
TEST_F(GpuTest, LaplacianAsBandedMatrixIsTheDiffusionStep) {
  for (Layout layout : {Layout::Texture, Layout::Buffer}) {
    uint32_t w = 37, h = 23;
    diffusion::Config c;
    c.width = w;
    c.height = h;
    c.cd = 0.9f;
    c.boundary = diffusion::Boundary::FixedZero;
    auto t0 = random_floats(w * h, 0.1f, 1.0f, 17);
    std::vector<float> want;
    diffusion::step_cpu(c, t0, want);
    Ops ops(ctx(), layout);
    GpuBanded lap(ctx(), laplacian_5pt(w, h), layout);
    Vec t(ctx(), w * h, layout), out(ctx(), w * h, layout);
    t.upload(t0);
    ctx().submit_now([&](VkCommandBuffer cmd) { ops.banded(cmd, Variant::Modern, lap, t, &t, out, c.cd / 4, 1.0f); });
    auto got = out.download();
    for (uint32_t i = 0; i < w * h; ++i)
      ASSERT_NEAR(got[i], want[i], 16 * FLT_EPSILON) << layout_name(layout) << " " << i;
  }
}

// Seed 002 put to use: a dot product whose terms cancel, accumulated in float and in
// float-float, against MPFR. Float-float keeps ~44 bits of the sum of |terms|; float ~24.
TEST_F(GpuTest, FloatFloatDotSurvivesCancellation) {
  for (Layout layout : {Layout::Texture, Layout::Buffer}) {
    const uint32_t n = 20001;
    auto x = random_floats(n, 0.5f, 2.0f, 31), y = random_floats(n, 0.5f, 2.0f, 32);
    std::mt19937 rng(33);
    for (uint32_t i = 0; i + 1 < n; i += 2) {  // pairs that nearly cancel, magnitudes 2^-20..2^20
      float scale = std::ldexp(1.0f, int(rng() % 41) - 20);
      x[i] *= scale;
      x[i + 1] = x[i];
      y[i + 1] = -y[i] * (1.0f + std::ldexp(1.0f, -20));
    }
    mpfr_t exact, term;
    mpfr_init2(exact, 256);
    mpfr_init2(term, 256);
    mpfr_set_zero(exact, 1);
    double scale = 0;
    for (uint32_t i = 0; i < n; ++i) {
      mpfr_set_flt(term, x[i], MPFR_RNDN);
      mpfr_mul_d(term, term, y[i], MPFR_RNDN);
      mpfr_add(exact, exact, term, MPFR_RNDN);
      scale += std::fabs(double(x[i]) * y[i]);
    }
    double want = mpfr_get_d(exact, MPFR_RNDN);
    mpfr_clear(exact);
    mpfr_clear(term);
    Ops ops(ctx(), layout);
    Vec vx(ctx(), n, layout), vy(ctx(), n, layout);
    vx.upload(x);
    vy.upload(y);
    ctx().submit_now([&](VkCommandBuffer cmd) {
      ops.dot(cmd, Variant::Modern, vx, vy, 4);
      ops.dot_ff(cmd, vx, vy, 6);
    });
    double f = ops.scalars().get(4);
    double ff = double(ops.scalars().get(6)) + double(ops.scalars().get(7));
    double err_f = std::fabs(f - want) / scale, err_ff = std::fabs(ff - want) / scale;
    // Add22 loses at most 2^-47 of |a| + |b| per addition; a few dozen levels of sums
    EXPECT_LT(err_ff, 64 * std::ldexp(1.0, -47)) << layout_name(layout);
    EXPECT_GT(err_f, 100 * err_ff) << layout_name(layout) << ": float " << err_f << " vs float-float " << err_ff;
  }
}

// CG in float-float reaches residuals float32 cannot (seed 002's operators put to use):
// the true residual ||b - A·x|| / ||b|| of its solution, computed in double, goes far below
// what the float solver stalls at, towards the double-precision solver's.
TEST_F(GpuTest, FloatFloatCgGoesBelowFloatResiduals) {
  for (Layout layout : {Layout::Buffer, Layout::Texture}) {
    uint32_t g = 40;
    auto m = implicit_laplacian(g, g, 50.0f);  // condition number ~ 400
    auto bs = random_floats(g * g, 0.1f, 1.0f, 41);
    Ops ops(ctx(), layout);
    GpuBanded a(ctx(), m, layout);
    Vec b(ctx(), g * g, layout), x(ctx(), g * g, layout), xh(ctx(), g * g, layout), xl(ctx(), g * g, layout);
    b.upload(bs);
    Cg cg(ops, a);
    CgOptions o;
    o.tolerance = 1e-13f;
    o.max_iterations = 600;
    o.check_every = 50;
    auto rf = cg.solve(b, x, o);
    auto rff = cg.solve_ff(b, xh, xl, o);
    auto true_residual = [&](const std::vector<double>& xs) {
      std::vector<float> lo(xs.size());  // A·x in double from the double x: split x into two floats
      std::vector<float> hi(xs.size());
      for (size_t i = 0; i < xs.size(); ++i) hi[i] = float(xs[i]), lo[i] = float(xs[i] - double(hi[i]));
      auto ah = banded_cpu(m, hi), al = banded_cpu(m, lo);
      double rr = 0, bb = 0;
      for (size_t i = 0; i < xs.size(); ++i) {
        double r = bs[i] - (ah[i] + al[i]);
        rr += r * r;
        bb += double(bs[i]) * bs[i];
      }
      return std::sqrt(rr / bb);
    };
    auto xf = x.download();
    auto h = xh.download(), l = xl.download();
    std::vector<double> x_float(xf.begin(), xf.end()), x_ff(h.size());
    for (size_t i = 0; i < h.size(); ++i) x_ff[i] = double(h[i]) + double(l[i]);
    double res_f = true_residual(x_float), res_ff = true_residual(x_ff);
    EXPECT_TRUE(rff.problem.empty()) << rff.problem;
    EXPECT_LT(res_ff, 1e-10) << layout_name(layout) << " float-float after " << rff.iterations;
    EXPECT_GT(res_f, 100 * res_ff) << layout_name(layout) << ": float " << res_f << ", float-float " << res_ff
                                   << " (float solver: " << rf.iterations << " iterations)";
  }
}

TEST_F(GpuTest, CgWorkloadComparesThreePrecisions) {
  WorkloadConfig c;
  c.op = Op::Cg;
  c.side = 16;  // a 32 x 32 grid
  c.cg_c = 50.0f;
  Workload w(ctx(), c);
  auto cmp = w.compare_precisions(1e-12f, 500);
  ASSERT_EQ(cmp.entries.size(), 3u);
  double f = cmp.entries[0].true_residual, ff = cmp.entries[1].true_residual, d = cmp.entries[2].true_residual;
  EXPECT_LT(ff, 1e-10);
  EXPECT_GT(f, 100 * ff);
  EXPECT_LT(d, 1e-11);
}

// The lab's picture data: operands as fields on the drawing grid, the band a box filter,
// and each operator still equal to its CPU reference; the panels name what is drawn.
TEST_F(GpuTest, FieldOperandsKeepEveryOperatorExact) {
  for (Op op : {Op::Axpby, Op::Product, Op::Banded, Op::Dense, Op::Cg}) {
    WorkloadConfig c;
    c.op = op;
    c.side = 16;
    c.dense_n = 100;
    c.fields = true;
    c.layout = Layout::Texture;
    Workload w(ctx(), c);
    auto panels = w.panels();
    ASSERT_GE(panels.size(), 2u);
    auto x = panels[0].vec->download();
    EXPECT_EQ(*std::max_element(x.begin(), x.end()), 1.0f) << "the hot spots reach 1";
    EXPECT_EQ(*std::min_element(x.begin(), x.end()), 0.0f);
    ctx().submit_now([&](VkCommandBuffer cmd) {  // CG: iterations enough to solve it (check: its true residual)
      for (int i = 0; i < (op == Op::Cg ? 60 : 1); ++i) w.record(cmd);
    });
    w.run_cpu();
    EXPECT_LT(w.check(), op == Op::Cg ? 1e-4 : 1e-5) << panels.back().name;
    EXPECT_EQ(panels.back().vec, &w.result());
    EXPECT_EQ(w.residual() != nullptr, op == Op::Cg);
  }
  // The box filter: A x averages the 12 neighbours along the vector's order.
  WorkloadConfig c;
  c.side = 8, c.fields = true;
  Workload w(ctx(), c);
  ctx().submit_now([&](VkCommandBuffer cmd) { w.record(cmd); });
  auto x = w.panels()[0].vec->download(), ax = w.result().download();
  for (size_t i = 6; i + 6 < x.size(); ++i) {
    double sum = 0;
    for (int k = -6; k < 6; ++k) sum += x[i + k];
    ASSERT_NEAR(ax[i], sum / 12, 1e-6) << i;
  }
}
