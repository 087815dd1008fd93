#include "compute/floatlab/chopped.h"

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>

namespace floatlab {

void with_rounding_toward_zero(const std::function<void()>& f) {
  struct Restore {
    int mode = std::fegetround();
    ~Restore() { std::fesetround(mode); }
  } restore;
  if (std::fesetround(FE_TOWARDZERO) != 0) throw std::runtime_error("this CPU cannot round towards zero");
  f();
}

float cpu_probe(Op op, float a, float b, float c) {
  switch (op) {
    case Op::Add:
      return a + b;
    case Op::Sub:
      return a - b;
    case Op::Mul:
      return a * b;
    case Op::SubSub:
      return (a - b) - c;
    case Op::Div:
      return a / b;
    default:
      throw std::invalid_argument("cpu_probe: + - * / and (a - b) - c only");
  }
}

namespace {

const char* kGone = "-";  // the device cannot round towards zero

std::string first_i(const std::vector<uint32_t>& out, uint32_t equal_to) {
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i] == equal_to) return std::to_string(i + 1);
  return "none to " + std::to_string(out.size());
}

std::vector<uint32_t> on_cpu(Op op, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
                             const std::vector<uint32_t>& c) {
  std::vector<uint32_t> out(a.size());
  with_rounding_toward_zero([&] {
    for (size_t i = 0; i < a.size(); ++i)
      out[i] = bits(cpu_probe(op, from_bits(a[i]), from_bits(b[i]), from_bits(c[i])));
  });
  return out;
}

uint64_t differing(const std::vector<uint32_t>& x, const std::vector<uint32_t>& y) {
  uint64_t n = 0;
  for (size_t i = 0; i < x.size(); ++i) n += x[i] != y[i];
  return n;
}

std::vector<float> floats(const std::vector<uint32_t>& u) {
  std::vector<float> f(u.size());
  for (size_t i = 0; i < u.size(); ++i) f[i] = from_bits(u[i]);
  return f;
}

// TEST 3, 5 and 6 (§3.2.3) and one difference read bit for bit: IEEE's rounding towards zero
// truncates the exact result, the 2006 adders truncated what their 26 bits kept.
void adders(Probes* rtz, Probes& nearest, Chopped& c) {
  std::vector<uint32_t> a15(64, bits(1.5f)), pw(64);
  for (int i = 1; i <= 64; ++i) pw[i - 1] = bits(std::ldexp(1.0f, -i));
  struct Probe {
    const char* test;
    const char* question;
    Op op;
    uint32_t equal_to;
    const char* gtx7800;
  };
  const Probe probes[] = {
      {"TEST 3", "first i with 1.5 + 2^-i == 1.5", Op::Add, bits(1.5f), "24"},
      {"TEST 5", "first i with 1.5 - 2^-i == 1.5", Op::Sub, bits(1.5f), "26"},
      {"TEST 6", "first i with (1.5 - 2^-i) - 1.5 == 0", Op::SubSub, 0u, "26"},
  };
  for (const Probe& p : probes)
    c.probes.push_back({p.test, p.question, rtz ? first_i(rtz->run(p.op, a15, pw, a15), p.equal_to) : kGone,
                        first_i(on_cpu(p.op, a15, pw, a15), p.equal_to),
                        first_i(nearest.run(p.op, a15, pw, a15), p.equal_to), p.gtx7800});
  // 1.5 - 2^-30: below 1.5 truncated exactly, 1.5 through a 26-bit adder (TEST 5's 26)
  std::vector<uint32_t> x{bits(1.5f)}, y{bits(std::ldexp(1.0f, -30))};
  c.probes.push_back({"TEST 5", "1.5 - 2^-30, bits", rtz ? hex(rtz->run(Op::Sub, x, y, x)[0]) : kGone,
                      hex(on_cpu(Op::Sub, x, y, x)[0]), hex(nearest.run(Op::Sub, x, y, x)[0]), hex(bits(1.5f))});
}

// Positive operands over 41 binades: each sign of result kept apart, as the report's table is.
void ranges(Probes* rtz, Probes& nearest, Chopped& c, std::mt19937& rng) {
  std::uniform_real_distribution<float> m(1.0f, 2.0f);
  auto draw = [&] {
    std::vector<uint32_t> v(c.count);
    for (auto& x : v) x = bits(m(rng) * std::ldexp(1.0f, int(rng() % 41) - 20));
    return v;
  };
  struct Row {
    Op op;
    const char* chopping;  // table 3.1's "Troncature" column
  };
  for (Row row : {Row{Op::Add, "(-1, 0]"}, Row{Op::Sub, "(-1, 1)"}, Row{Op::Mul, "(-1, 0]"}, Row{Op::Div, "(-1, 0]"}}) {
    auto a = draw(), b = draw(), zero = std::vector<uint32_t>(c.count, 0u);
    auto cpu = on_cpu(row.op, a, b, zero);
    ChoppedRange r;
    r.cpu = ulp_errors(row.op, floats(a), floats(b), floats(cpu));
    r.nearest = ulp_errors(row.op, floats(a), floats(b), floats(nearest.run(row.op, a, b, zero)));
    if (rtz) {
      auto gpu = rtz->run(row.op, a, b, zero);
      r.gpu = ulp_errors(row.op, floats(a), floats(b), floats(gpu));
      r.differing = differing(gpu, cpu);
    }
    r.op = r.cpu.op;
    r.chopping = row.chopping;
    r.r300 = r.cpu.r300;
    r.nv35 = r.cpu.nv35;
    c.ranges.push_back(std::move(r));
  }
}

// Table 4.1's operators, the report's and ours, under each rounding.
void operators(gpu::Context& ctx, bool offered, Chopped& c, uint32_t seed) {
  auto a = random_ff(c.count, seed), b = random_ff(c.count, seed + 1);
  FloatFloat nearest(ctx);
  std::unique_ptr<FloatFloat> rtz;
  if (offered) rtz = std::make_unique<FloatFloat>(ctx, FfBuild::TowardZero);
  for (FfOp op : {FfOp::Add12Priest, FfOp::Add12, FfOp::Mul12, FfOp::Add22Priest, FfOp::Add22, FfOp::Mul22}) {
    std::vector<Ff> cpu(c.count);
    with_rounding_toward_zero([&] {
      for (uint32_t i = 0; i < c.count; ++i) cpu[i] = ff_cpu(op, a[i], b[i]);
    });
    ChoppedOperator o;
    o.cpu = ff_accuracy(op, a, b, cpu);
    o.nearest = ff_accuracy(op, a, b, nearest.run(op, a, b));
    if (rtz) {
      auto gpu = rtz->run(op, a, b);
      o.gpu = ff_accuracy(op, a, b, gpu);
      for (uint32_t i = 0; i < c.count; ++i) o.differing += std::memcmp(&gpu[i], &cpu[i], sizeof(Ff)) != 0;
    } else {
      o.gpu.op = o.cpu.op;
      o.gpu.variant = o.cpu.variant;
    }
    c.operators.push_back(std::move(o));
  }
}

}  // namespace

Chopped chopped_arithmetic(gpu::Context& ctx, uint32_t count, uint32_t seed) {
  Chopped c;
  c.device = ctx.info.name;
  c.count = std::max(count, 64u);
  c.offered = float_controls(ctx).rtz32;
  if (!c.offered)
    c.why_not = ctx.info.name +
                " does not offer rounding towards zero in shaders (shaderRoundingModeRTZFloat32 is false): only this "
                "CPU's columns, IEEE-754's rounding towards zero, are measured";
  Probes nearest(ctx);
  std::unique_ptr<Probes> rtz;
  if (c.offered) rtz = std::make_unique<Probes>(ctx, ProbeRounding::TowardZero);
  std::mt19937 rng(seed);
  adders(rtz.get(), nearest, c);
  ranges(rtz.get(), nearest, c, rng);
  operators(ctx, c.offered, c, seed);
  return c;
}

}  // namespace floatlab
