#include "compute/floatlab/floatfloat.h"
#include "compute/floatlab/probes.h"

#include "shaders/floatlab/floatlab_push.h"

#include "compute/measure/timer.h"

#include <mpfr.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <stdexcept>
#include <thread>

namespace floatlab {

namespace {
using Push = push::FloatOpPush;  // the blocks: shaders/floatlab/floatlab_push.h
using LoopPush = push::FloatLoopPush;

// MPFR values with enough bits that every float-float operand and sum is exact.
struct Big {
  mpfr_t v;
  Big() { mpfr_init2(v, 320); }
  ~Big() { mpfr_clear(v); }
  Big(const Big&) = delete;
  void set(const Ff& x) {
    mpfr_set_flt(v, x[0], MPFR_RNDN);
    mpfr_t lo;
    mpfr_init2(lo, 320);
    mpfr_set_flt(lo, x[1], MPFR_RNDN);
    mpfr_add(v, v, lo, MPFR_RNDN);
    mpfr_clear(lo);
  }
};

// -log2(|x - y| / scale); 64 when equal.
double bits_between(const Big& x, const Big& y, const Big& scale) {
  Big d;
  mpfr_sub(d.v, x.v, y.v, MPFR_RNDN);
  if (mpfr_zero_p(d.v)) return 64.0;
  mpfr_div(d.v, d.v, scale.v, MPFR_RNDN);
  mpfr_abs(d.v, d.v, MPFR_RNDN);
  return -std::log2(mpfr_get_d(d.v, MPFR_RNDN));
}
}  // namespace

const char* ff_name(FfOp op) {
  static const char* names[] = {"add12", "mul12", "mul12_fma", "add22_improved",
                                "mul22", "div22", "sqrt22",    "add12_priest",
                                "add",   "mul",   "mad",       "add22_priest"};
  return names[uint32_t(op)];
}

const char* ff_variant(FfOp op) {
  switch (op) {
    case FfOp::Add12Priest:
      return "the report's Add12 (theorem 1, Priest's: swap, check, two branches)";
    case FfOp::Add12:
      return "ours: Knuth's TwoSum, no branch (the report's is add12_priest)";
    case FfOp::Add22Priest:
      return "the report's Add22 as printed (theorem 4): seven Priest Add12, no renormalisation";
    case FfOp::Add22:
      return "ours, improved: seven TwoSum, then a renormalising fast Add12 (the report's is add22_priest)";
    case FfOp::Mul12:
      return "the report's Mul12 (theorem 3, Dekker's, split with 2^12 + 1)";
    case FfOp::Mul22:
      return "the report's Mul22 (theorem 5), its final Add12 a fast TwoSum";
    case FfOp::Mul12Fma:
      return "beyond the report: Mul12 through fma";
    case FfOp::Div22:
    case FfOp::Sqrt22:
      return "beyond the report (its outlook asked for them)";
    default:
      return "single float: the report's baselines (annex B)";
  }
}

namespace {
// floatfloat.glsl's operators (compiled with -ffp-contract=off: no fusing)
Ff add12(float a, float b) {
  float s = a + b, bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
Ff fast_add12(float a, float b) {
  float s = a + b;
  return {s, b - (s - a)};
}
Ff add12_priest(float a, float b) {
  if (std::fabs(b) >= std::fabs(a)) std::swap(a, b);
  float s = a + b, d = s - a, g = s - d, h = g - a, f = b - h, e = f - d;
  if (e + d != f) return {a, b};
  return {s, e};
}
Ff split(float a) {
  float c = 4097.0f * a, big = c - a, hi = c - big;
  return {hi, a - hi};
}
Ff mul12(float a, float b) {
  float p = a * b;
  Ff x = split(a), y = split(b);
  return {p, (((x[0] * y[0] - p) + x[0] * y[1]) + x[1] * y[0]) + x[1] * y[1]};
}
// theorem 4 as the report prints it: seven Priest Add12, (s, e) left as they come
Ff add22_priest(Ff a, Ff b) {
  Ff t1 = add12_priest(a[0], b[0]), e23 = add12_priest(a[1], b[1]), t2 = add12_priest(t1[1], e23[0]);
  Ff t3 = add12_priest(e23[1], t2[1]), u = add12_priest(t2[0], t3[0]), s = add12_priest(t1[0], u[0]);
  Ff e = add12_priest(u[1], s[1]);
  return {s[0], e[0]};
}
// ours, improved: TwoSum for each Add12 and a final renormalisation
Ff add22(Ff a, Ff b) {
  Ff t1 = add12(a[0], b[0]), t2 = add12(a[1], b[1]), t3 = add12(t1[1], t2[0]), t4 = add12(t2[1], t3[1]);
  Ff t5 = add12(t3[0], t4[0]), t6 = add12(t1[0], t5[0]), t7 = add12(t5[1], t6[1]);
  return fast_add12(t6[0], t7[0]);
}
Ff mul22(Ff a, Ff b) {
  Ff t = mul12(a[0], b[0]);
  return fast_add12(t[0], ((a[0] * b[1]) + (a[1] * b[0])) + t[1]);
}
}  // namespace

Ff ff_cpu(FfOp op, Ff a, Ff b) {
  switch (op) {
    case FfOp::Add12:
      return add12(a[0], b[0]);
    case FfOp::Mul12:
      return mul12(a[0], b[0]);
    case FfOp::Mul12Fma: {
      float p = a[0] * b[0];
      return {p, std::fma(a[0], b[0], -p)};
    }
    case FfOp::Add22:
      return add22(a, b);
    case FfOp::Mul22:
      return mul22(a, b);
    case FfOp::Div22: {
      float q1 = a[0] / b[0];
      Ff p = mul22(b, {q1, 0.0f}), r = add22(a, {-p[0], -p[1]});
      return fast_add12(q1, r[0] / b[0]);
    }
    case FfOp::Sqrt22: {
      if (a[0] <= 0) return {a[0] == 0 ? 0.0f : std::nanf(""), 0.0f};
      float x = std::sqrt(a[0]);
      Ff p = mul12(x, x);
      return fast_add12(x, (((a[0] - p[0]) - p[1]) + a[1]) / (2.0f * x));
    }
    case FfOp::Add12Priest:
      return add12_priest(a[0], b[0]);
    case FfOp::Add22Priest:
      return add22_priest(a, b);
    case FfOp::Add:
      return {a[0] + b[0], 0.0f};
    case FfOp::Mul:
      return {a[0] * b[0], 0.0f};
    default: {
      float p = a[0] * b[0];
      return {p + b[1], 0.0f};
    }
  }
}

std::vector<Ff> random_ff(uint32_t count, uint32_t seed, bool positive) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> m(1.0f, 2.0f), r(-1.0f, 1.0f);
  std::vector<Ff> v(count);
  for (auto& x : v) {
    float hi = m(rng) * std::ldexp(1.0f, int(rng() % 41) - 20);
    if (!positive && (rng() & 1)) hi = -hi;
    float lo = hi * r(rng) * std::ldexp(1.0f, -25);
    volatile float s = hi + lo;  // renormalise: |lo| <= ulp(hi)/2
    volatile float e = lo - (s - hi);
    x = {s, e};
  }
  return v;
}

namespace {
gpu::Pipeline operators_kernel(gpu::Context& ctx, FfBuild build) {
  if (build == FfBuild::TowardZero && !float_controls(ctx).rtz32)
    throw std::runtime_error(ctx.info.name + " does not offer rounding towards zero for 32-bit floats in shaders");
  return gpu::make_compute(ctx,
                           build == FfBuild::Loose        ? "floatlab/floatfloat_loose.comp"
                           : build == FfBuild::TowardZero ? "floatlab/floatfloat.rtz.comp"
                                                          : "floatlab/floatfloat.comp",
                           sizeof(Push));
}
}  // namespace

FloatFloat::FloatFloat(gpu::Context& ctx, FfBuild build)
    : ctx_(ctx),
      pipeline_(operators_kernel(ctx, build)),
      throughput_(gpu::make_compute(ctx, "floatlab/ff_throughput.comp", sizeof(LoopPush))) {
  if (ctx.info.fp64) fp64_ = gpu::make_compute(ctx, "floatlab/fp64_throughput.comp", sizeof(LoopPush));
}

std::vector<Ff> FloatFloat::run(FfOp op, const std::vector<Ff>& a, const std::vector<Ff>& b) {
  size_t n = a.size();
  if (b.size() != n || n == 0) throw std::invalid_argument("float-float inputs must have one length");
  auto usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  gpu::Buffer ga(ctx_, n * 8, usage), gb(ctx_, n * 8, usage), out(ctx_, n * 8, usage);
  ga.upload(a.data(), n * 8);
  gb.upload(b.data(), n * 8);
  ctx_.submit_now([&](VkCommandBuffer cmd) {
    pipeline_.bind(cmd, {gpu::storage_buffer(ga), gpu::storage_buffer(gb), gpu::storage_buffer(out)},
                   Push{.n = uint32_t(n), .op = uint32_t(op)});
    vkCmdDispatch(cmd, std::min(pipeline_.groups(uint32_t(n)).x, 65535u), 1, 1);
  });
  std::vector<Ff> r(n);
  out.download(r.data(), n * 8);
  return r;
}

FloatFloat::RoundTrip FloatFloat::time_round_trip(FfOp op, const std::vector<Ff>& a, const std::vector<Ff>& b,
                                                  int repeats, double warmup_ms) {
  const size_t n = a.size(), bytes = n * 8;
  auto usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  gpu::Buffer ga(ctx_, bytes, usage), gb(ctx_, bytes, usage), out(ctx_, bytes, usage);
  // the host's side of the bus, kept: a transfer is a copy through these, not an allocation
  auto host = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  gpu::Buffer sa(ctx_, bytes, host, true), sb(ctx_, bytes, host, true), so(ctx_, bytes, host, true);
  std::vector<Ff> r(n);
  auto kernel = [&](VkCommandBuffer cmd) {
    pipeline_.bind(cmd, {gpu::storage_buffer(ga), gpu::storage_buffer(gb), gpu::storage_buffer(out)},
                   Push{.n = uint32_t(n), .op = uint32_t(op)});
    vkCmdDispatch(cmd, std::min(pipeline_.groups(uint32_t(n)).x, 65535u), 1, 1);
  };
  auto round_trip = [&](VkCommandBuffer cmd) {
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_2_HOST_BIT,
                 VK_ACCESS_2_MEMORY_WRITE_BIT | VK_ACCESS_2_HOST_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                 VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    VkBufferCopy whole{0, 0, bytes};
    vkCmdCopyBuffer(cmd, sa.handle(), ga.handle(), 1, &whole);
    vkCmdCopyBuffer(cmd, sb.handle(), gb.handle(), 1, &whole);
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    kernel(cmd);
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    vkCmdCopyBuffer(cmd, out.handle(), so.handle(), 1, &whole);
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                 VK_ACCESS_2_HOST_READ_BIT);
  };
  std::vector<double> ms;
  for (int k = 0; k < repeats + 1; ++k) {  // the first warms up
    auto t0 = std::chrono::steady_clock::now();
    sa.upload(a.data(), bytes);  // host memory to the mapped staging, then over the bus
    sb.upload(b.data(), bytes);
    ctx_.submit_now(round_trip);
    so.download(r.data(), bytes);
    if (k) ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return {gpu::median(ms), gpu::time_gpu(ctx_, kernel, repeats, warmup_ms).median_ms};
}

FfAccuracy ff_accuracy(FfOp op, const std::vector<Ff>& in, const std::vector<Ff>& b, const std::vector<Ff>& r) {
  const bool single = op == FfOp::Add12 || op == FfOp::Add12Priest || op == FfOp::Mul12 || op == FfOp::Mul12Fma;
  const uint32_t count = uint32_t(r.size());
  if (in.size() != r.size() || b.size() != r.size())
    throw std::invalid_argument("float-float results and inputs differ in length");
  const uint32_t threads = std::max(1u, std::min(std::thread::hardware_concurrency(), count / 256 + 1));
  FfAccuracy acc;
  acc.op = ff_name(op);
  acc.variant = ff_variant(op);
  acc.count = count;
  // The exact results in MPFR, the inputs split over every core (a minimum and an and: the
  // figures do not depend on the split).
  struct Part {
    bool exact = true;
    double bits = 64;
  };
  std::vector<Part> parts(threads);
  auto measure = [&](uint32_t from, uint32_t to, Part& part) {
    Big x, y, exact, got, scale, tmp;
    for (uint32_t i = from; i < to; ++i) {
      x.set(single ? Ff{in[i][0], 0.0f} : in[i]);
      y.set(single ? Ff{b[i][0], 0.0f} : b[i]);
      switch (op) {
        case FfOp::Add12:
        case FfOp::Add12Priest:
        case FfOp::Add22:
        case FfOp::Add22Priest:
          mpfr_add(exact.v, x.v, y.v, MPFR_RNDN);
          mpfr_abs(scale.v, x.v, MPFR_RNDN);  // theorem 4's bound, read as relative to |a| + |b|
          mpfr_abs(tmp.v, y.v, MPFR_RNDN);
          mpfr_add(scale.v, scale.v, tmp.v, MPFR_RNDN);
          break;
        case FfOp::Div22:
          mpfr_div(exact.v, x.v, y.v, MPFR_RNDN);
          mpfr_abs(scale.v, exact.v, MPFR_RNDN);
          break;
        case FfOp::Sqrt22:
          mpfr_sqrt(exact.v, x.v, MPFR_RNDN);
          mpfr_abs(scale.v, exact.v, MPFR_RNDN);
          break;
        default:
          mpfr_mul(exact.v, x.v, y.v, MPFR_RNDN);
          mpfr_abs(scale.v, exact.v, MPFR_RNDN);
          break;
      }
      got.set(r[i]);
      double bits = bits_between(got, exact, scale);
      part.exact &= bits >= 64.0;
      part.bits = std::min(part.bits, bits);
    }
  };
  std::vector<std::thread> pool;
  for (uint32_t t = 0; t < threads; ++t)
    pool.emplace_back(measure, uint32_t(uint64_t(count) * t / threads), uint32_t(uint64_t(count) * (t + 1) / threads),
                      std::ref(parts[t]));
  for (auto& th : pool) th.join();
  acc.exact = true;
  acc.bits = 64;
  for (auto& p : parts) acc.exact &= p.exact, acc.bits = std::min(acc.bits, p.bits);
  // Table 4.1's figures beside the report's own operators only (its Add12 and Add22 are Priest's
  // add12_priest and add22_priest): TwoSum and our improved Add22 are not what it measured.
  switch (op) {
    case FfOp::Add12Priest:
    case FfOp::Mul12:
      acc.seed_theory = acc.seed_measured = "exact";
      break;
    case FfOp::Add22Priest:
      acc.seed_theory = "47";
      acc.seed_measured = "47";
      break;
    case FfOp::Mul22:
      acc.seed_theory = "44";
      acc.seed_measured = "45";
      break;
    default:
      acc.seed_theory = acc.seed_measured = "-";
      break;
  }
  return acc;
}

std::vector<FfAccuracy> FloatFloat::accuracy(uint32_t count, uint32_t seed) {
  auto a = random_ff(count, seed), b = random_ff(count, seed + 1);
  auto pos = random_ff(count, seed + 2, true);
  std::vector<FfAccuracy> out;
  for (FfOp op : {FfOp::Add12Priest, FfOp::Add12, FfOp::Mul12, FfOp::Mul12Fma, FfOp::Add22Priest, FfOp::Add22,
                  FfOp::Mul22, FfOp::Div22, FfOp::Sqrt22}) {
    const auto& in = op == FfOp::Sqrt22 ? pos : a;
    out.push_back(ff_accuracy(op, in, b, run(op, in, b)));
  }
  return out;
}

std::vector<FfThroughput> FloatFloat::throughput(uint32_t elements, uint32_t reps, double warmup_ms) {
  // Inputs near 1 and b = 1 + 2^-20 (+ a low part) keep every repeated result finite.
  auto a = random_ff(elements, 11, true);
  for (auto& x : a) x = {1.0f + std::fabs(x[0]) * 1e-3f, 0.0f};
  std::vector<double> a64(elements * 2);
  for (uint32_t i = 0; i < elements; ++i) a64[2 * i] = a[i][0];
  auto usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  gpu::Buffer in(ctx_, elements * 16ull, usage), out(ctx_, elements * 16ull, usage);
  std::vector<FfThroughput> rows;
  double add_ms = 0;
  auto measure = [&](const gpu::Pipeline& p, uint32_t op, const std::string& name) {
    auto t = gpu::time_gpu(
        ctx_,
        [&](VkCommandBuffer cmd) {
          gpu::barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                       VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
          p.bind(cmd, {gpu::storage_buffer(in), gpu::storage_buffer(out)},
                 LoopPush{.n = elements,
                          .op = op,
                          .reps = reps,
                          .b_hi = 1.0f + std::ldexp(1.0f, -20),
                          .b_lo = std::ldexp(1.0f, -40)});
          p.dispatch(cmd, elements);
        },
        5, warmup_ms);
    FfThroughput row{name, elements, reps, t.median_ms};
    row.gops = t.median_ms > 0 ? double(elements) * reps / (t.median_ms * 1e6) : 0;
    if (rows.empty()) add_ms = t.median_ms;
    row.relative_to_add = add_ms > 0 ? t.median_ms / add_ms : 0;
    rows.push_back(row);
  };
  std::vector<float> packed(elements * 4, 0.0f);
  for (uint32_t i = 0; i < elements; ++i) packed[2 * i] = a[i][0];
  in.upload(packed.data(), elements * 8ull);
  const char* names[] = {"float_add",      "float_mul", "float_fma", "add12",  "mul12",       "mul12_fma",
                         "add22_improved", "mul22",     "div22",     "sqrt22", "add22_priest"};
  for (uint32_t op = 0; op < 11; ++op) measure(throughput_, op, names[op]);
  if (fp64_) {
    in.upload(a64.data(), elements * 16ull);
    const char* names64[] = {"fp64_add", "fp64_mul", "fp64_div", "fp64_sqrt"};
    for (uint32_t op = 6; op < 10; ++op) measure(fp64_, op, names64[op - 6]);
  }
  return rows;
}

}  // namespace floatlab
