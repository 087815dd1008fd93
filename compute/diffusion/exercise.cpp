// The diffusion lab's exercise (Bleton 2005, §4.4.2): one explicit step T' = T + (Cd/4)·∇²T
// with the 5-point Laplacian, insulated or held at zero at the border. Twin:
// diffusion::step_cpu; shipped kernel: the lab's own step (diffusion::Simulation).
#include "compute/diffusion/diffusion.h"
#include "compute/exercise/operator.h"
#include "shaders/diffusion/diffusion_push.h"

#include <cmath>
#include <sstream>
#include <tuple>

namespace exercise {

namespace {

diffusion::Config diffusion_config(const Case& c) {
  diffusion::Config k;
  k.width = c.u("width"), k.height = c.u("height"), k.cd = c.f("cd");
  k.boundary = c.s("border") == "insulated" ? diffusion::Boundary::Insulated : diffusion::Boundary::FixedZero;
  return k;
}

class Step : public Operator {
 public:
  std::string id() const override { return "diffusion.step"; }
  std::string shipped_kernel() const override { return "shaders/diffusion/step.comp"; }
  Problem problem(const gpu::Context&, const Case& c, gpu::Dim3) const override {
    auto k = diffusion_config(c);
    size_t n = size_t(k.width) * k.height;
    Problem p;
    Array src{"SRC", Array::Role::In, Elem::F32, 1, k.width, words_of(random_inputs(n, 0.1f, 2.0f, c.seed))};
    Array dst{"DST", Array::Role::Out, Elem::F32, 1, k.width, words_of(std::vector<float>(n, NAN))};
    p.arrays = {src, dst};
    p.set_push(push::DiffusionStepPush{.size = glm::ivec2(k.width, k.height),
                                       .k = k.cd / 4.0f,
                                       .insulated = k.boundary == diffusion::Boundary::Insulated ? 1 : 0});
    p.invocations = {k.width, k.height, 1};
    return p;
  }
  std::vector<Want> twin(const Case& c, const Problem& p) const override {
    auto k = diffusion_config(c);
    auto in = floats_of(p.arrays[0].words);
    std::vector<float> out;
    diffusion::step_cpu(k, in, out);
    Want w;
    w.value.assign(out.begin(), out.end());
    // The scale: the cell and the weighted magnitudes of the Laplacian's terms.
    int W = int(k.width), H = int(k.height);
    double kk = k.cd / 4.0;
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) {
        double t = std::fabs(in[size_t(y) * W + x]), s = 4 * t;
        for (auto [dx, dy] : {std::pair{-1, 0}, {1, 0}, {0, -1}, {0, 1}}) {
          int xx = x + dx, yy = y + dy;
          bool out_of = xx < 0 || yy < 0 || xx >= W || yy >= H;
          s += out_of ? (k.boundary == diffusion::Boundary::Insulated ? t : 0) : std::fabs(in[size_t(yy) * W + xx]);
        }
        w.scale.push_back(t + kk * s);
      }
    return {{}, w};
  }
  ShippedRun shipped(gpu::Context& ctx, const Case& c, const Problem& p) const override {
    diffusion::Simulation sim(ctx, diffusion_config(c));
    sim.upload(floats_of(p.arrays[0].words));
    ShippedRun r;
    r.ms = timed_submit(ctx, [&](VkCommandBuffer cmd) { sim.record_steps(cmd, nullptr, 1); });
    r.words = {{}, words_of(sim.download())};
    return r;
  }
  std::string inputs_at(const Case& c, const Problem& p, size_t, size_t i) const override {
    auto k = diffusion_config(c);
    int W = int(k.width), H = int(k.height), x = int(i % W), y = int(i / W);
    std::ostringstream s;
    s << "cell (" << x << ", " << y << ") of " << W << " x " << H << ": " << element_text(p.arrays[0], i);
    for (auto [dx, dy, side] : {std::tuple{-1, 0, "left"}, {1, 0, "right"}, {0, -1, "above"}, {0, 1, "below"}}) {
      int xx = x + dx, yy = y + dy;
      s << ", " << side << " ";
      if (xx < 0 || yy < 0 || xx >= W || yy >= H)
        s << "outside (" << (k.boundary == diffusion::Boundary::Insulated ? "insulated" : "held at 0") << ")";
      else
        s << word_float(p.arrays[0].words[size_t(yy) * W + xx]);
    }
    s << ", k = Cd/4 = " << k.cd / 4.0f;
    return s.str();
  }
};

}  // namespace

std::vector<std::unique_ptr<Operator>> diffusion_operators() {
  std::vector<std::unique_ptr<Operator>> v;
  v.push_back(std::make_unique<Step>());
  return v;
}

}  // namespace exercise
