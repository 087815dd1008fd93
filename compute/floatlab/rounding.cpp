// The float lab's rounding table: the shader ops whose accuracy Vulkan leaves to the
// driver (division, sqrt, exp, log, sin, ...), measured in ulps of the float result against
// the same functions in double, and the device's float-controls properties.
#include "compute/floatlab/probes.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace floatlab {

namespace {

// The spacing of floats at the correctly rounded value of x (ulp of a binary32 result).
double ulp_at(double x) {
  float f = float(x);
  if (f == 0.0f) return std::ldexp(1.0, -149);
  float up = std::nextafter(std::fabs(f), INFINITY);
  return double(up) - double(std::fabs(f));
}

}  // namespace

FloatControls float_controls(const gpu::Context& ctx) {
  VkPhysicalDeviceFloatControlsProperties fc{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
  VkPhysicalDeviceProperties2 p{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &fc};
  vkGetPhysicalDeviceProperties2(ctx.physical, &p);
  auto independence = [](VkShaderFloatControlsIndependence i) {
    return i == VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL           ? "all"
           : i == VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_32_BIT_ONLY ? "32-bit only"
                                                                    : "none";
  };
  FloatControls c;
  c.denorm_preserve32 = fc.shaderDenormPreserveFloat32;
  c.denorm_flush32 = fc.shaderDenormFlushToZeroFloat32;
  c.rte32 = fc.shaderRoundingModeRTEFloat32;
  c.rtz32 = fc.shaderRoundingModeRTZFloat32;
  c.denorm_preserve16 = fc.shaderDenormPreserveFloat16;
  c.denorm_preserve64 = fc.shaderDenormPreserveFloat64;
  c.signed_zero_inf_nan_preserve32 = fc.shaderSignedZeroInfNanPreserveFloat32;
  c.denorm_independence = independence(fc.denormBehaviorIndependence);
  c.rounding_independence = independence(fc.roundingModeIndependence);
  return c;
}

// Each operation's inputs and the error Vulkan allows it (ulps of the result, or an absolute
// error), then one probe a case against the exact result in double.
std::vector<RoundingRow> Probes::rounding(uint32_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  struct Case {
    Op op;
    const char* name;
    const char* domain;
    double lo, hi;  // uniform inputs in [lo, hi]
    double (*exact)(double, double);
    const char* bound;
    // allowed error: ulps of the result, or an absolute error (abs > 0)
    double ulps, abs;
    bool ulps_grow_with_x;  // exp: 3 + 2|x| ulps
  };
  const std::vector<Case> cases = {
      {Op::Div, "a / b", "a, b in [2^-10, 2^10]", 0, 0, [](double a, double b) { return a / b; }, "2.5 ulp", 2.5, 0,
       false},
      {Op::Sqrt, "sqrt", "[2^-10, 2^10]", 0, 0, [](double a, double) { return std::sqrt(a); }, "as 1/inversesqrt", 5.0,
       0, false},
      {Op::InverseSqrt, "inversesqrt", "[2^-10, 2^10]", 0, 0, [](double a, double) { return 1.0 / std::sqrt(a); },
       "2 ulp", 2.0, 0, false},
      {Op::Exp, "exp", "[-10, 10]", -10, 10, [](double a, double) { return std::exp(a); }, "3 + 2|x| ulp", 3.0, 0,
       true},
      {Op::Exp2, "exp2", "[-10, 10]", -10, 10, [](double a, double) { return std::exp2(a); }, "3 + 2|x| ulp", 3.0, 0,
       true},
      {Op::Log, "log", "[0.5, 2]", 0.5, 2, [](double a, double) { return std::log(a); }, "abs 2^-21 in [0.5, 2]", 0,
       std::ldexp(1.0, -21), false},
      {Op::Log2, "log2", "[0.5, 2]", 0.5, 2, [](double a, double) { return std::log2(a); }, "abs 2^-21 in [0.5, 2]", 0,
       std::ldexp(1.0, -21), false},
      {Op::Sin, "sin", "[-pi, pi]", -M_PI, M_PI, [](double a, double) { return std::sin(a); }, "abs 2^-11", 0,
       std::ldexp(1.0, -11), false},
      {Op::Cos, "cos", "[-pi, pi]", -M_PI, M_PI, [](double a, double) { return std::cos(a); }, "abs 2^-11", 0,
       std::ldexp(1.0, -11), false}};
  std::vector<RoundingRow> rows;
  for (auto& c : cases) {
    std::vector<uint32_t> a(count), b(count), z(count, 0);
    for (uint32_t i = 0; i < count; ++i) {
      if (c.lo == 0 && c.hi == 0) {  // log-uniform over [2^-10, 2^10]
        std::uniform_real_distribution<float> m(1.0f, 2.0f);
        a[i] = bits(m(rng) * std::ldexp(1.0f, int(rng() % 20) - 10));
        b[i] = bits(m(rng) * std::ldexp(1.0f, int(rng() % 20) - 10));
      } else {
        std::uniform_real_distribution<float> u(float(c.lo), float(c.hi));
        a[i] = bits(u(rng));
      }
    }
    auto out = run(c.op, a, b, z);
    RoundingRow row{c.name, c.domain, count};
    uint64_t correct = 0;
    bool ok = true;
    for (uint32_t i = 0; i < count; ++i) {
      double x = from_bits(a[i]), y = from_bits(b[i]);
      double exact = c.exact(x, y);
      double got = from_bits(out[i]);
      double err = std::fabs(got - exact);
      double ulps = err / ulp_at(exact);
      row.max_ulp = std::max(row.max_ulp, ulps);
      correct += out[i] == bits(float(exact));
      double allowed = c.abs > 0 ? c.abs : (c.ulps + (c.ulps_grow_with_x ? 2 * std::fabs(x) : 0)) * ulp_at(exact);
      ok &= std::isfinite(got) && err <= allowed;
    }
    row.correctly_rounded = double(correct) / count;
    row.vulkan_bound = c.bound;
    row.within_bound = ok;
    rows.push_back(row);
  }
  return rows;
}

// One dispatch an operation over the same inputs, per_binade of them in every binade; a
// binade whose exact result overflows a float is NaN in the map.
UlpMap Probes::ulp_map(uint32_t per_binade, uint32_t seed) {
  struct Case {
    Op op;
    const char* name;
    double (*exact)(double, double);
  };
  const std::vector<Case> cases = {{Op::Mul, "a * b", [](double a, double b) { return a * b; }},
                                   {Op::Div, "a / b", [](double a, double b) { return a / b; }},
                                   {Op::Sqrt, "sqrt", [](double a, double) { return std::sqrt(a); }},
                                   {Op::InverseSqrt, "inversesqrt", [](double a, double) { return 1 / std::sqrt(a); }},
                                   {Op::Exp2, "exp2", [](double a, double) { return std::exp2(a); }},
                                   {Op::Exp, "exp", [](double a, double) { return std::exp(a); }},
                                   {Op::Log2, "log2", [](double a, double) { return std::log2(a); }},
                                   {Op::Log, "log", [](double a, double) { return std::log(a); }},
                                   {Op::Sin, "sin", [](double a, double) { return std::sin(a); }},
                                   {Op::Cos, "cos", [](double a, double) { return std::cos(a); }}};
  UlpMap map;
  map.per_binade = per_binade;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  uint32_t bins = map.binades(), count = bins * per_binade;
  std::vector<uint32_t> a(count), b(count), z(count, 0);
  for (uint32_t i = 0; i < count; ++i) {
    a[i] = bits(std::ldexp(mantissa(rng), map.e_lo + int(i / per_binade)));
    b[i] = bits(mantissa(rng));
  }
  for (auto& c : cases) {
    map.ops.push_back(c.name);
    auto out = run(c.op, a, b, z);
    for (uint32_t bin = 0; bin < bins; ++bin) {
      double worst = 0;
      for (uint32_t i = bin * per_binade; i < (bin + 1) * per_binade; ++i) {
        double exact = c.exact(from_bits(a[i]), from_bits(b[i]));
        if (!std::isfinite(float(exact))) {
          worst = NAN;
          break;
        }
        worst = std::max(worst, std::fabs(double(from_bits(out[i])) - exact) / ulp_at(exact));
      }
      map.max_ulp.push_back(worst);
    }
  }
  return map;
}

}  // namespace floatlab
