// The linear algebra lab's exercises (Bleton 2005, §3.3): axpby, and the dot product's tree
// reduction finished by the last workgroup. Twins: compute/linalg/reference.h; shipped
// kernels: the lab's operators (compute/linalg/ops.h) on storage-buffer vectors.
#include "compute/exercise/exercise.h"
#include "compute/exercise/operators.h"
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
    p.set_push(Push{n, c.f("a"), c.f("b")});
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

}  // namespace

std::vector<std::unique_ptr<Operator>> linalg_operators() {
  std::vector<std::unique_ptr<Operator>> v;
  v.push_back(std::make_unique<Axpby>());
  v.push_back(std::make_unique<Dot>());
  return v;
}

}  // namespace exercise
