// The wave lab's exercise (Bleton 2005, §4.2): the right-hand side of one implicit step,
// matrix-free: b = P·h + Q·h⁻' with h⁻' = h⁻ + γ·(h − h⁻) and P, Q = x0·I + x1·S (S the sum of
// the 4 neighbours, zero outside). The twin follows shaders/wave/rhs.comp's operation order with
// the lab's wave::coefficients and wave::damping_at; shipped kernel: rhs.comp itself.
#include "compute/exercise/operator.h"
#include "compute/wave/wave.h"
#include "shaders/wave/wave_push.h"

#include <cmath>
#include <sstream>

namespace exercise {

namespace {

wave::Config wave_config(const Case& c) {
  wave::Config k;
  k.width = c.u("width"), k.height = c.u("height");
  k.c = c.f("c"), k.dt = c.f("dt");
  k.scheme = wave::scheme_from_name(c.s("scheme"));
  k.damping = c.f("damping");
  k.sponge = c.u("sponge");
  k.sponge_damping = c.f("sponge_damping");
  return k;
}

class Rhs : public Operator {
 public:
  std::string id() const override { return "wave.rhs"; }
  std::string shipped_kernel() const override { return "shaders/wave/rhs.comp"; }
  Problem problem(const gpu::Context&, const Case& c, gpu::Dim3) const override {
    auto k = wave_config(c);
    auto co = wave::coefficients(k);
    size_t n = k.n();
    Problem p;
    p.arrays = {Array{"H", Array::Role::In, Elem::F32, 1, k.width, words_of(random_inputs(n, -1, 1, c.seed))},
                Array{"PREV", Array::Role::In, Elem::F32, 1, k.width, words_of(random_inputs(n, -1, 1, c.seed + 1))},
                Array{"B", Array::Role::Out, Elem::F32, 1, k.width, words_of(std::vector<float>(n, NAN))}};
    p.set_push(push::WaveRhsPush{.width = k.width,
                                 .height = k.height,
                                 .p0 = co.p0,
                                 .p1 = co.p1,
                                 .q0 = co.q0,
                                 .q1 = co.q1,
                                 .damping = k.damping,
                                 .sponge_damping = k.sponge_damping,
                                 .sponge = k.sponge});
    p.invocations = {k.width, k.height, 1};
    return p;
  }
  std::vector<Want> twin(const Case& c, const Problem& p) const override {
    auto k = wave_config(c);
    auto co = wave::coefficients(k);
    auto H = floats_of(p.arrays[0].words), PREV = floats_of(p.arrays[1].words);
    int W = int(k.width), R = int(k.height);
    auto inside = [&](int x, int y) { return x >= 0 && y >= 0 && x < W && y < R; };
    auto h_at = [&](int x, int y) { return inside(x, y) ? H[size_t(y) * W + x] : 0.0f; };
    auto prev_at = [&](int x, int y) {
      if (!inside(x, y)) return 0.0f;
      size_t i = size_t(y) * W + x;
      return PREV[i] + wave::damping_at(k, uint32_t(x), uint32_t(y)) * (H[i] - PREV[i]);
    };
    Want w;
    for (int y = 0; y < R; ++y)
      for (int x = 0; x < W; ++x) {
        float sh = ((h_at(x - 1, y) + h_at(x + 1, y)) + h_at(x, y - 1)) + h_at(x, y + 1);
        float sq = ((prev_at(x - 1, y) + prev_at(x + 1, y)) + prev_at(x, y - 1)) + prev_at(x, y + 1);
        float b = (co.p0 * h_at(x, y) + co.p1 * sh) + (co.q0 * prev_at(x, y) + co.q1 * sq);
        w.value.push_back(b);
        double ah = 0, aq = 0;  // the magnitudes of the terms
        for (auto [dx, dy] : {std::pair{-1, 0}, {1, 0}, {0, -1}, {0, 1}})
          ah += std::fabs(h_at(x + dx, y + dy)), aq += std::fabs(prev_at(x + dx, y + dy));
        w.scale.push_back(std::fabs(co.p0 * h_at(x, y)) + std::fabs(co.p1) * ah + std::fabs(co.q0 * prev_at(x, y)) +
                          std::fabs(co.q1) * aq);
      }
    return {{}, {}, w};
  }
  ShippedRun shipped(gpu::Context& ctx, const Case&, const Problem& p) const override {
    return run_shipped_spirv(ctx, "wave/rhs.comp", p);
  }
  std::string inputs_at(const Case& c, const Problem& p, size_t, size_t i) const override {
    auto k = wave_config(c);
    auto co = wave::coefficients(k);
    uint32_t x = uint32_t(i % k.width), y = uint32_t(i / k.width);
    std::ostringstream s;
    s.precision(9);
    s << "cell (" << x << ", " << y << ") of " << k.width << " x " << k.height << ": " << element_text(p.arrays[0], i)
      << ", " << element_text(p.arrays[1], i) << ", damping γ = " << wave::damping_at(k, x, y) << "; p0 " << co.p0
      << ", p1 " << co.p1 << ", q0 " << co.q0 << ", q1 " << co.q1 << " (scheme " << wave::scheme_name(k.scheme) << ")";
    return s.str();
  }
};

}  // namespace

std::vector<std::unique_ptr<Operator>> wave_operators() {
  std::vector<std::unique_ptr<Operator>> v;
  v.push_back(std::make_unique<Rhs>());
  return v;
}

}  // namespace exercise
