// The cloth lab's exercise (Bleton 2005, §4.1.1, after Jakobsen): one colour of the coloured
// Gauss–Seidel relaxation. A colour is a set of springs (x, y)–(x + dx, y + dy), every
// stride-th along x (or y), no two sharing a particle, so one invocation a spring moves both
// its ends with no atomics: A by w_A/(w_A + w_B) and B by w_B/(w_A + w_B) of
// stiffness·(|AB| − l)/|AB|·AB. Without sphere or ground, as here, the contact step leaves
// the particles where they are. The twin follows shaders/cloth/project.comp's operation order
// (the lab's own CPU twin of it is internal to compute/cloth/reference.cpp); shipped kernel:
// project.comp itself.
#include "compute/cloth/cloth.h"
#include "compute/exercise/operator.h"
#include "shaders/cloth/cloth_push.h"

#include <cmath>
#include <random>
#include <sstream>

namespace exercise {

namespace {

struct Colour {
  uint32_t width, height, stride, phase;
  int dx, dy;
  bool along_y;
  float len, stiffness;
};

Colour colour_of(const Case& c) {
  return {c.u("width"),
          c.u("height"),
          c.u("stride"),
          c.u("phase"),
          c.i("dx"),
          c.i("dy"),
          c.values.value("along_y", false),
          c.f("len"),
          c.f("stiffness")};
}

// The invocations of a colour: one a spring (some past the grid, which do nothing).
gpu::Dim3 invocations(const Colour& k) {
  return k.along_y ? gpu::Dim3{k.width, (k.height - k.phase + k.stride - 1) / k.stride, 1}
                   : gpu::Dim3{(k.width - k.phase + k.stride - 1) / k.stride, k.height, 1};
}

float length3(float x, float y, float z) { return std::sqrt(x * x + y * y + z * z); }

class Colours : public Operator {
 public:
  std::string id() const override { return "cloth.colour"; }
  std::string shipped_kernel() const override { return "shaders/cloth/project.comp"; }
  Problem problem(const gpu::Context&, const Case& c, gpu::Dim3) const override {
    Colour k = colour_of(c);
    std::mt19937 rng(c.seed);
    std::uniform_real_distribution<float> jitter(-0.3f, 0.3f);
    const float masses[] = {1.0f, 1.0f, 1.0f, 0.5f, 0.0f};  // some particles pinned (w = 0), some heavier
    std::vector<float> x;
    float r = 0.1f;
    for (uint32_t j = 0; j < k.height; ++j)
      for (uint32_t i = 0; i < k.width; ++i) {
        x.push_back(float(i) * r + r * jitter(rng));
        x.push_back(1.0f - float(j) * r + r * jitter(rng));
        x.push_back(0.6f + r * jitter(rng));
        x.push_back(masses[rng() % 5]);
      }
    Problem p;
    p.arrays = {Array{"X", Array::Role::InOut, Elem::F32, 4, k.width, words_of(x)},
                Array{"START", Array::Role::In, Elem::F32, 4, k.width, words_of(x)}};
    push::ClothProjectPush push{};
    push.sphere = glm::vec4(0.0f);  // no sphere
    push.width = k.width, push.height = k.height;
    push.len = k.len, push.stiffness = k.stiffness;
    push.dx = k.dx, push.dy = k.dy;
    push.stride = k.stride, push.phase = k.phase, push.along_y = k.along_y ? 1u : 0u;
    push.ground = cloth::kNoGround, push.thickness = 0.0f, push.friction = 0.0f;
    p.set_push(push);
    p.invocations = invocations(k);
    return p;
  }
  std::vector<Want> twin(const Case& c, const Problem& p) const override {
    Colour k = colour_of(c);
    auto x = floats_of(p.arrays[0].words);
    Want w;
    w.value.assign(x.begin(), x.end());
    w.scale.resize(x.size());
    for (size_t i = 0; i < x.size(); ++i) w.scale[i] = std::fabs(x[i]);
    gpu::Dim3 g = invocations(k);
    for (uint32_t gy = 0; gy < g.y; ++gy)
      for (uint32_t gx = 0; gx < g.x; ++gx) {
        int ax = k.along_y ? int(gx) : int(k.phase + k.stride * gx),
            ay = k.along_y ? int(k.phase + k.stride * gy) : int(gy);
        int bx = ax + k.dx, by = ay + k.dy;
        if (ax >= int(k.width) || ay >= int(k.height) || bx < 0 || by < 0 || bx >= int(k.width) || by >= int(k.height))
          continue;
        size_t ia = 4 * (size_t(ay) * k.width + ax), ib = 4 * (size_t(by) * k.width + bx);
        float wa = x[ia + 3], wb = x[ib + 3], wsum = wa + wb;
        if (wsum == 0.0f) continue;
        float ab[3] = {x[ib] - x[ia], x[ib + 1] - x[ia + 1], x[ib + 2] - x[ia + 2]};
        float d = length3(ab[0], ab[1], ab[2]);
        if (d == 0.0f) continue;
        float f = k.stiffness * ((d - k.len) / d);
        for (int q = 0; q < 3; ++q) {
          float corr = f * ab[q];
          if (wa > 0.0f) w.value[ia + q] = x[ia + q] + (wa / wsum) * corr;
          if (wb > 0.0f) w.value[ib + q] = x[ib + q] - (wb / wsum) * corr;
          // The scale: the position and the whole correction (its rounding spreads over both).
          w.scale[ia + q] = std::fabs(x[ia + q]) + std::fabs(corr);
          w.scale[ib + q] = std::fabs(x[ib + q]) + std::fabs(corr);
        }
      }
    return {w, {}};
  }
  ShippedRun shipped(gpu::Context& ctx, const Case&, const Problem& p) const override {
    return run_shipped_spirv(ctx, "cloth/project.comp", p);
  }
  std::string inputs_at(const Case& c, const Problem& p, size_t, size_t i) const override {
    Colour k = colour_of(c);
    uint32_t x = uint32_t(i % k.width), y = uint32_t(i / k.width);
    std::ostringstream s;
    s << "particle (" << x << ", " << y << "): " << element_text(p.arrays[0], i) << " (w: its inverse mass, 0 pinned)";
    for (int sign : {1, -1}) {  // the spring of this colour it belongs to, if any
      int ox = int(x) + sign * k.dx, oy = int(y) + sign * k.dy;
      int ax = sign > 0 ? int(x) : ox, ay = sign > 0 ? int(y) : oy;
      int along = k.along_y ? ay : ax;
      if (ox < 0 || oy < 0 || ox >= int(k.width) || oy >= int(k.height) || along < int(k.phase) ||
          (along - int(k.phase)) % int(k.stride) != 0)
        continue;
      s << "; its spring's other end (" << ox << ", " << oy
        << "): " << element_text(p.arrays[0], size_t(oy) * k.width + size_t(ox));
    }
    s << "; rest length " << k.len << ", stiffness " << k.stiffness;
    return s.str();
  }
};

}  // namespace

std::vector<std::unique_ptr<Operator>> cloth_operators() {
  std::vector<std::unique_ptr<Operator>> v;
  v.push_back(std::make_unique<Colours>());
  return v;
}

}  // namespace exercise
