#include "compute/floatlab/controls.h"

#include "compute/floatlab/floatfloat.h"
#include "shaders/floatlab/floatlab_push.h"

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace floatlab {

namespace {

constexpr uint32_t kOut = 9;  // results an element (controls.modes.comp)
enum Slot { Sum, Product, TimesZero, PlusZero, MinusSelf, Half, DenormIn, Contracted, Precise };

struct Inputs {
  std::vector<uint32_t> a, b, c;
  uint32_t random = 0;  // [0, random): random normal operands; then the special ones below
  uint32_t inf = 0, neg_zero = 0, minus_one = 0, tiny = 0;  // indices of the special a's
};

Inputs make_inputs(uint32_t count, uint32_t seed) {
  Inputs in;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(1.0f, 2.0f);
  auto push = [&](float a, float b) {
    in.a.push_back(std::bit_cast<uint32_t>(a)), in.b.push_back(std::bit_cast<uint32_t>(b));
    in.c.push_back(std::bit_cast<uint32_t>(a * b));  // the product rounded to nearest
  };
  for (uint32_t i = 0; i < count; ++i) push(u(rng) * std::ldexp(1.0f, int(rng() % 16) - 8), u(rng));
  in.random = count;
  const float denorm = std::ldexp(1.0f, -140);
  in.inf = uint32_t(in.a.size()), push(std::numeric_limits<float>::infinity(), denorm);
  in.neg_zero = uint32_t(in.a.size()), push(-0.0f, denorm);
  in.minus_one = uint32_t(in.a.size()), push(-1.0f, denorm);
  in.tiny = uint32_t(in.a.size()), push(std::numeric_limits<float>::min() * 1.5f, denorm);
  return in;
}

// The kernel built with `mode` on the inputs: kOut results an element.
std::vector<float> run_mode(gpu::Context& ctx, const std::string& mode, const Inputs& in) {
  auto pipe = gpu::make_compute(ctx, "floatlab/controls." + mode, sizeof(push::FloatProbePush));
  const uint32_t n = uint32_t(in.a.size());
  // Host-visible buffers, written and read in place: no staging blocks made and freed a run (as
  // the probes: compute/floatlab/probes.h).
  auto usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  gpu::Buffer a(ctx, n * 4, usage, true), b(ctx, n * 4, usage, true), c(ctx, n * 4, usage, true),
      out(ctx, size_t(n) * kOut * 4, usage, true, true);
  std::memcpy(a.mapped(), in.a.data(), n * 4);
  std::memcpy(b.mapped(), in.b.data(), n * 4);
  std::memcpy(c.mapped(), in.c.data(), n * 4);
  ctx.submit_now([&](VkCommandBuffer cmd) {
    pipe.bind(cmd, {gpu::storage_buffer(a), gpu::storage_buffer(b), gpu::storage_buffer(c), gpu::storage_buffer(out)},
              push::FloatProbePush{.n = n, .op = 0, .one = 1.0f, .zero = 0.0f});
    pipe.dispatch(cmd, n);
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
  });
  std::vector<float> r(size_t(n) * kOut);
  std::memcpy(r.data(), out.mapped(), r.size() * 4);
  return r;
}

bool same(float x, float y) { return std::bit_cast<uint32_t>(x) == std::bit_cast<uint32_t>(y); }

// How many random sums and products equal the CPU's in rounding mode `round`.
uint32_t rounded_as(const Inputs& in, const std::vector<float>& r, int round) {
  uint32_t n = 0;
  std::fesetround(round);
  for (uint32_t i = 0; i < in.random; ++i) {
    volatile float a = std::bit_cast<float>(in.a[i]), b = std::bit_cast<float>(in.b[i]);
    float s = a + b, p = a * b;
    n += same(r[kOut * i + Sum], s) && same(r[kOut * i + Product], p);
  }
  std::fesetround(FE_TONEAREST);
  return n;
}

std::string describe_rounding(const Inputs& in, const std::vector<float>& r) {
  uint32_t rn = rounded_as(in, r, FE_TONEAREST), rz = rounded_as(in, r, FE_TOWARDZERO);
  return std::to_string(rn) + " of " + std::to_string(in.random) + " sums and products rounded to nearest, " +
         std::to_string(rz) + " towards zero";
}

std::string describe_denormals(const Inputs& in, const std::vector<float>& r) {
  float half = r[kOut * in.tiny + Half], kept = r[kOut * in.tiny + DenormIn];
  std::string out = "1.5 x 2^-126 / 2 -> ";
  out += half == 0 ? "0 (flushed)" : std::fpclassify(half) == FP_SUBNORMAL ? "a denormal (kept)" : "other";
  out += "; 2^-140 + 0 -> ";
  out += kept == 0 ? "0 (flushed)" : same(kept, std::ldexp(1.0f, -140)) ? "2^-140 (kept)" : "other";
  return out;
}

std::string describe_specials(const Inputs& in, const std::vector<float>& r) {
  auto at = [&](uint32_t i, Slot s) { return r[kOut * i + s]; };
  std::string out;
  out += std::string("inf * 0.0 -> ") + (std::isnan(at(in.inf, TimesZero)) ? "NaN" : "not NaN");
  out += std::string(", -1 * 0.0 -> ") + (same(at(in.minus_one, TimesZero), -0.0f) ? "-0" : "+0");
  out += std::string(", -0 + 0.0 -> ") + (same(at(in.neg_zero, PlusZero), 0.0f) ? "+0" : "-0");
  out += std::string(", inf - inf -> ") + (std::isnan(at(in.inf, MinusSelf)) ? "NaN" : "not NaN");
  return out;
}
bool specials_kept(const Inputs& in, const std::vector<float>& r) {
  auto at = [&](uint32_t i, Slot s) { return r[kOut * i + s]; };
  return std::isnan(at(in.inf, TimesZero)) && same(at(in.minus_one, TimesZero), -0.0f) &&
         same(at(in.neg_zero, PlusZero), 0.0f) && std::isnan(at(in.inf, MinusSelf));
}

}  // namespace

std::vector<Promise> test_float_controls(gpu::Context& ctx, uint32_t count, uint32_t seed) {
  const FloatControls fc = float_controls(ctx);
  const Inputs in = make_inputs(count, seed);
  const auto plain = run_mode(ctx, "none", in);
  std::vector<Promise> out;
  auto add = [&](const char* mode, const char* spv, const char* promise, bool offered, auto check, auto describe) {
    Promise p{mode, promise, offered, false, ""};
    if (offered) {
      auto r = run_mode(ctx, spv, in);
      p.kept = check(r);
      p.found = describe(r) + "; without the mode: " + describe(plain);
    } else {
      p.found = "not offered by this device; without the mode: " + describe(plain);
    }
    out.push_back(p);
  };
  auto rounding = [&](const std::vector<float>& r) { return describe_rounding(in, r); };
  add(
      "RoundingModeRTE 32", "rte", "round to nearest even", fc.rte32,
      [&](const std::vector<float>& r) { return rounded_as(in, r, FE_TONEAREST) == in.random; }, rounding);
  add(
      "RoundingModeRTZ 32", "rtz", "round towards zero", fc.rtz32,
      [&](const std::vector<float>& r) { return rounded_as(in, r, FE_TOWARDZERO) == in.random; }, rounding);
  auto denormals = [&](const std::vector<float>& r) { return describe_denormals(in, r); };
  add(
      "DenormPreserve 32", "dpreserve", "keep denormals", fc.denorm_preserve32,
      [&](const std::vector<float>& r) {
        return std::fpclassify(r[kOut * in.tiny + Half]) == FP_SUBNORMAL &&
               same(r[kOut * in.tiny + DenormIn], std::ldexp(1.0f, -140));
      },
      denormals);
  add(
      "DenormFlushToZero 32", "dflush", "flush denormals to zero", fc.denorm_flush32,
      [&](const std::vector<float>& r) { return r[kOut * in.tiny + Half] == 0 && r[kOut * in.tiny + DenormIn] == 0; },
      denormals);
  add(
      "SignedZeroInfNanPreserve 32", "szinfnan", "no folding that loses signed zeros, infinities or NaNs",
      fc.signed_zero_inf_nan_preserve32, [&](const std::vector<float>& r) { return specials_kept(in, r); },
      [&](const std::vector<float>& r) { return describe_specials(in, r); });
  return out;
}

ContractionTest test_contraction(gpu::Context& ctx, uint32_t count, uint32_t seed) {
  ContractionTest t;
  const Inputs in = make_inputs(count, seed);
  const auto r = run_mode(ctx, "none", in);
  t.count = in.random;
  for (uint32_t i = 0; i < in.random; ++i) {
    t.fused_without_precise += r[kOut * i + Contracted] != 0;
    t.fused_with_precise += r[kOut * i + Precise] != 0;
  }
  FloatFloat exact(ctx), loose(ctx, FfBuild::Loose);
  auto a = random_ff(count, seed), b = random_ff(count, seed + 1);
  auto x = exact.run(FfOp::Mul22, a, b), y = loose.run(FfOp::Mul22, a, b);
  t.mul22_count = count;
  for (uint32_t i = 0; i < count; ++i) t.mul22_differing += x[i] != y[i];
  auto bits = [&](FloatFloat& f) {
    for (auto& row : f.accuracy(count, seed))
      if (row.op == ff_name(FfOp::Mul22)) return row.bits;
    return 0.0;
  };
  t.mul22_bits_precise = bits(exact), t.mul22_bits_loose = bits(loose);
  return t;
}

}  // namespace floatlab
