// The linear algebra lab's exercises (Bleton 2005, §3.3 and §3.4): axpby, the dot product's
// tree reduction finished by the last workgroup, the banded matrix-vector product, and the
// conjugate gradient's fused update of x and r. Twins: compute/linalg/reference.h; shipped
// kernels: the lab's operators (compute/linalg/ops.h) on storage-buffer vectors.
#include "compute/exercise/exercise.h"
#include "compute/exercise/operator.h"
#include "compute/linalg/ops.h"
#include "compute/linalg/reference.h"

#include <cmath>
#include <sstream>

namespace exercise {

namespace {

Array floats_array(const std::string& name, Array::Role role, std::vector<float> v) {
  Array a;
  a.name = name, a.role = role, a.words = words_of(v);
  return a;
}
// An output before the run: NaN everywhere, so an element the kernel never writes is wrong.
Array output_array(const std::string& name, size_t n) {
  return floats_array(name, Array::Role::Out, std::vector<float>(n, NAN));
}

// out = a·x + b·y, element by element (gpuVecAdd, §3.3.1).
class Axpby : public Operator {
 public:
  struct Push {
    uint32_t n;
    float a, b;
  };
  std::string id() const override { return "linalg.axpby"; }
  std::string shipped_kernel() const override { return "shaders/linalg/axpby.vec.comp"; }
  Problem problem(const gpu::Context&, const Case& c, gpu::Dim3) const override {
    uint32_t n = c.u("n");
    Problem p;
    p.arrays = {floats_array("X", Array::Role::In, random_inputs(n, -2, 2, c.seed)),
                floats_array("Y", Array::Role::In, random_inputs(n, -2, 2, c.seed + 1000)), output_array("OUT", n)};
    p.set_push(Push{.n = n, .a = c.f("a"), .b = c.f("b")});
    p.invocations = {n, 1, 1};
    return p;
  }
  std::vector<Want> twin(const Case& c, const Problem& p) const override {
    auto x = floats_of(p.arrays[0].words), y = floats_of(p.arrays[1].words);
    float a = c.f("a"), b = c.f("b");
    auto out = linalg::axpby_cpu(a, x, b, y);
    Want w;
    for (size_t i = 0; i < out.size(); ++i) {
      w.value.push_back(out[i]);
      w.scale.push_back(std::fabs(double(a) * x[i]) + std::fabs(double(b) * y[i]));  // the terms, before they cancel
    }
    return {{}, {}, w};
  }
  ShippedRun shipped(gpu::Context& ctx, const Case& c, const Problem& p) const override {
    uint32_t n = c.u("n");
    linalg::Ops ops(ctx, linalg::Layout::Buffer, 1);
    linalg::Vec x(ctx, n, linalg::Layout::Buffer), y(ctx, n, linalg::Layout::Buffer),
        out(ctx, n, linalg::Layout::Buffer);
    x.upload(floats_of(p.arrays[0].words));
    y.upload(floats_of(p.arrays[1].words));
    ShippedRun r;
    r.ms = timed_submit(ctx, [&](VkCommandBuffer cmd) {
      ops.axpby(cmd, {c.f("a")}, x, {c.f("b")}, y, out);
      gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT);
    });
    r.words = {{}, {}, words_of(out.download())};
    return r;
  }
  std::string inputs_at(const Case& c, const Problem& p, size_t, size_t i) const override {
    return element_text(p.arrays[0], i) + ", " + element_text(p.arrays[1], i) + ", a = " + num(c.f("a")) +
           ", b = " + num(c.f("b"));
  }
};

// RESULT[0] = x·y: each workgroup sums its products by a tree in shared memory, writes its
// partial sum, and the last workgroup to finish adds the partials (gpuVecScal, §3.3.2, as one
// pass with the last workgroup's finish).
class Dot : public Operator {
 public:
  std::string id() const override { return "linalg.dot"; }
  std::string shipped_kernel() const override { return "shaders/linalg/dot_onepass.vec.comp"; }
  Problem problem(const gpu::Context&, const Case& c, gpu::Dim3 local) const override {
    uint32_t n = c.u("n"), groups = (n + local.x - 1) / local.x;
    Problem p;
    p.arrays = {floats_array("X", Array::Role::In, random_inputs(n, -1, 1, c.seed)),
                floats_array("Y", Array::Role::In, random_inputs(n, -1, 1, c.seed + 1000)),
                floats_array("PARTIAL", Array::Role::Scratch, std::vector<float>(groups, 0.0f)),
                Array{"DONE", Array::Role::Scratch, Elem::U32, 1, 0, {0u}},
                floats_array("RESULT", Array::Role::Out, {0.0f})};
    p.set_push(n);
    p.invocations = {n, 1, 1};
    return p;
  }
  std::vector<Want> twin(const Case&, const Problem& p) const override {
    auto x = floats_of(p.arrays[0].words), y = floats_of(p.arrays[1].words);
    double magnitude = 0;
    for (size_t i = 0; i < x.size(); ++i) magnitude += std::fabs(double(x[i]) * y[i]);
    return {{}, {}, {}, {}, {{linalg::dot_cpu(x, y)}, {magnitude}}};  // the sum's error grows with Σ|x·y|
  }
  ShippedRun shipped(gpu::Context& ctx, const Case& c, const Problem& p) const override {
    uint32_t n = c.u("n");
    linalg::Ops ops(ctx, linalg::Layout::Buffer, 1);
    linalg::Vec x(ctx, n, linalg::Layout::Buffer), y(ctx, n, linalg::Layout::Buffer);
    x.upload(floats_of(p.arrays[0].words));
    y.upload(floats_of(p.arrays[1].words));
    ShippedRun r;
    r.ms = timed_submit(ctx, [&](VkCommandBuffer cmd) {
      ops.dot(cmd, linalg::Variant::Modern, x, y, 0);
      gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT);
    });
    r.words = {{}, {}, {}, {}, words_of({ops.scalars().get(0)})};
    return r;
  }
  std::string inputs_at(const Case& c, const Problem& p, size_t, size_t) const override {
    return "the sum over n = " + std::to_string(c.u("n")) + " products, from " + element_text(p.arrays[0], 0) + ", " +
           element_text(p.arrays[1], 0) + " to X[" + std::to_string(c.u("n") - 1) + "], Y[" +
           std::to_string(c.u("n") - 1) + "]";
  }
};

// The banded matrix a case asks for: "random" (the lab's random_band: `diagonals` diagonals
// around the main one, wrapping at both ends) or "laplacian" (the 5-point Laplacian of a
// w x h grid, zero where a row's neighbour is off the grid).
linalg::BandedMatrix banded_matrix_of(const Case& c) {
  if (c.s("matrix") == "laplacian") return linalg::laplacian_5pt(c.u("w"), c.u("h"));
  return linalg::random_band(c.u("n"), c.i("diagonals"), c.seed);
}

// OUT = M·V for a banded M given by its diagonals: OUT[i] = Σ_d DIAGS[d·n + i]·V[(i + o_d) mod n]
// (gpuMatOp's banded form, §3.3.4, with the thesis's wrap-around index formula 3.2). The twin
// is the lab's banded_cpu (row sums in double), the shipped kernel the lab's banded.vec.comp.
class Banded : public Operator {
 public:
  struct Push {
    uint32_t n, count;  // rows, diagonals
  };
  std::string id() const override { return "linalg.banded"; }
  std::string shipped_kernel() const override { return "shaders/linalg/banded.vec.comp"; }
  Problem problem(const gpu::Context&, const Case& c, gpu::Dim3) const override {
    linalg::BandedMatrix m = banded_matrix_of(c);
    std::vector<float> diags;
    std::vector<uint32_t> offsets;
    for (auto& [offset, d] : m.diagonals) {
      diags.insert(diags.end(), d.begin(), d.end());
      offsets.push_back(uint32_t(offset));
    }
    Problem p;
    p.arrays = {floats_array("DIAGS", Array::Role::In, diags),
                Array{"OFFSETS", Array::Role::In, Elem::I32, 1, 0, offsets},
                floats_array("V", Array::Role::In, random_inputs(m.n, -1, 1, c.seed + 1000)), output_array("OUT", m.n)};
    p.set_push(Push{.n = m.n, .count = uint32_t(m.diagonals.size())});
    p.invocations = {m.n, 1, 1};
    return p;
  }
  std::vector<Want> twin(const Case& c, const Problem& p) const override {
    linalg::BandedMatrix m = banded_matrix_of(c);
    auto v = floats_of(p.arrays[2].words);
    return {{}, {}, {}, {linalg::banded_cpu(m, v), linalg::banded_abs_cpu(m, v)}};  // the scale: Σ|m·v| of a row
  }
  ShippedRun shipped(gpu::Context& ctx, const Case& c, const Problem& p) const override {
    linalg::BandedMatrix m = banded_matrix_of(c);
    linalg::Ops ops(ctx, linalg::Layout::Buffer, 1);
    linalg::GpuBanded gm(ctx, m, linalg::Layout::Buffer);
    linalg::Vec v(ctx, m.n, linalg::Layout::Buffer), out(ctx, m.n, linalg::Layout::Buffer);
    v.upload(floats_of(p.arrays[2].words));
    ShippedRun r;
    r.ms = timed_submit(ctx, [&](VkCommandBuffer cmd) {
      ops.banded(cmd, linalg::Variant::Modern, gm, v, nullptr, out);
      gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT);
    });
    r.words = {{}, {}, {}, words_of(out.download())};
    return r;
  }
  std::string inputs_at(const Case&, const Problem& p, size_t, size_t i) const override {
    uint32_t n = uint32_t(p.arrays[2].words.size());
    std::ostringstream s;
    s.precision(9);
    s << "row " << i << ":";
    for (size_t d = 0; d < p.arrays[1].words.size(); ++d) {
      int o = int32_t(p.arrays[1].words[d]);
      long j = ((long(i) + o) % long(n) + long(n)) % long(n);
      s << (d ? " +" : "") << " DIAGS[" << d * n + i << "] = " << word_float(p.arrays[0].words[d * n + i])
        << " (offset " << o << ") times V[" << j << "] = " << word_float(p.arrays[2].words[size_t(j)]);
    }
    return s.str();
  }
};

// CG's lines 9-13 fused (§3.4.2), the arithmetic of an iteration: alpha = S[0] / S[1] (rho =
// r·r over dad = d·q, GPU scalars: no read-back), X += alpha·D, R -= alpha·Q; a zero
// denominator gives alpha = 0 (a converged solve stays put instead of turning to NaN). The
// twin is the update in double; the shipped kernel the lab's cg_update.vec.comp (which also
// reduces the new r·r into a scalar slot: the dot exercise's subject, not checked here).
class CgUpdate : public Operator {
 public:
  std::string id() const override { return "linalg.cg-update"; }
  std::string shipped_kernel() const override { return "shaders/linalg/cg_update.vec.comp"; }
  Problem problem(const gpu::Context&, const Case& c, gpu::Dim3) const override {
    uint32_t n = c.u("n");
    auto x = random_inputs(n, -1, 1, c.seed), r = random_inputs(n, -1, 1, c.seed + 1000),
         d = random_inputs(n, -1, 1, c.seed + 2000), q = random_inputs(n, -2, 2, c.seed + 3000);
    float rho = float(linalg::dot_cpu(r, r)), dad = float(linalg::dot_cpu(d, q));
    if (c.values.value("converged", false)) rho = dad = 0.0f;  // S[0] = S[1] = 0: alpha must be 0
    Problem p;
    p.arrays = {floats_array("X", Array::Role::InOut, x), floats_array("R", Array::Role::InOut, r),
                floats_array("D", Array::Role::In, d), floats_array("Q", Array::Role::In, q),
                floats_array("S", Array::Role::In, {rho, dad})};
    p.set_push(n);
    p.invocations = {n, 1, 1};
    return p;
  }
  static double alpha_of(const Problem& p) {
    double rho = word_float(p.arrays[4].words[0]), dad = word_float(p.arrays[4].words[1]);
    return dad == 0 ? 0.0 : rho / dad;
  }
  std::vector<Want> twin(const Case&, const Problem& p) const override {
    auto x = floats_of(p.arrays[0].words), r = floats_of(p.arrays[1].words), d = floats_of(p.arrays[2].words),
         q = floats_of(p.arrays[3].words);
    double alpha = alpha_of(p);
    Want wx, wr;
    for (size_t i = 0; i < x.size(); ++i) {
      wx.value.push_back(x[i] + alpha * d[i]);
      wx.scale.push_back(std::fabs(x[i]) + std::fabs(alpha * d[i]));  // the terms, before they cancel
      wr.value.push_back(r[i] - alpha * q[i]);
      wr.scale.push_back(std::fabs(r[i]) + std::fabs(alpha * q[i]));
    }
    return {wx, wr, {}, {}, {}};
  }
  ShippedRun shipped(gpu::Context& ctx, const Case& c, const Problem& p) const override {
    uint32_t n = c.u("n");
    linalg::Ops ops(ctx, linalg::Layout::Buffer, 1);
    linalg::Vec x(ctx, n, linalg::Layout::Buffer), r(ctx, n, linalg::Layout::Buffer), d(ctx, n, linalg::Layout::Buffer),
        q(ctx, n, linalg::Layout::Buffer), one(ctx, 1, linalg::Layout::Buffer), rho(ctx, 1, linalg::Layout::Buffer),
        dad(ctx, 1, linalg::Layout::Buffer);
    x.upload(floats_of(p.arrays[0].words));
    r.upload(floats_of(p.arrays[1].words));
    d.upload(floats_of(p.arrays[2].words));
    q.upload(floats_of(p.arrays[3].words));
    one.upload({1.0f});
    rho.upload({word_float(p.arrays[4].words[0])});
    dad.upload({word_float(p.arrays[4].words[1])});
    // The scalar slots filled as the lab fills them, by dot products: 1·rho and 1·dad, exact.
    constexpr uint32_t kRho = 0, kDad = 1, kRhoNext = 2;
    ctx.submit_now([&](VkCommandBuffer cmd) {
      ops.dot(cmd, linalg::Variant::Modern, one, rho, kRho);
      ops.dot(cmd, linalg::Variant::Modern, one, dad, kDad);
    });
    ShippedRun out;
    out.ms = timed_submit(ctx, [&](VkCommandBuffer cmd) {
      ops.cg_update(cmd, x, r, d, q, kRho, kDad, kRhoNext, linalg::kNoSlot);
      gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT);
    });
    out.words = {words_of(x.download()), words_of(r.download()), {}, {}, {}};
    return out;
  }
  std::string inputs_at(const Case&, const Problem& p, size_t array, size_t i) const override {
    std::string s = array == 0 ? element_text(p.arrays[0], i) + ", " + element_text(p.arrays[2], i)
                               : element_text(p.arrays[1], i) + ", " + element_text(p.arrays[3], i);
    return s + ", S[0] (rho) = " + num(word_float(p.arrays[4].words[0])) +
           ", S[1] (dad) = " + num(word_float(p.arrays[4].words[1])) + ": alpha = " + num(alpha_of(p));
  }
};

}  // namespace

std::vector<std::unique_ptr<Operator>> linalg_operators() {
  std::vector<std::unique_ptr<Operator>> v;
  v.push_back(std::make_unique<Axpby>());
  v.push_back(std::make_unique<Dot>());
  v.push_back(std::make_unique<Banded>());
  v.push_back(std::make_unique<CgUpdate>());
  return v;
}

}  // namespace exercise
