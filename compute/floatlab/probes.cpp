#include "compute/floatlab/probes.h"

#include "shaders/floatlab/floatlab_push.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

namespace floatlab {

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint16_t to_half(double x) {
  uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  x = std::fabs(x);
  if (std::isnan(x)) return 0x7e00;
  if (x == 0) return sign;
  int e;
  std::frexp(x, &e);                                            // x in [2^(e-1), 2^e)
  double quantum = std::ldexp(1.0, std::max(e - 1, -14) - 10);  // subnormals below 2^-14
  double r = std::nearbyint(x / quantum) * quantum;             // ties to even (default mode)
  if (r >= 65520.0) return sign | 0x7c00;
  if (r < std::ldexp(1.0, -14)) return sign | uint16_t(r / std::ldexp(1.0, -24));
  std::frexp(r, &e);
  uint16_t exp = uint16_t(e - 1 + 15), mant = uint16_t(r / std::ldexp(1.0, e - 1 - 10) - 1024);
  return sign | uint16_t(exp << 10) | mant;
}

double from_half(uint16_t h) {
  double s = h & 0x8000 ? -1.0 : 1.0;
  int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  if (exp == 0) return s * std::ldexp(double(mant), -24);
  if (exp == 31) return mant ? NAN : s * INFINITY;
  return s * std::ldexp(double(mant + 1024), exp - 25);
}

std::string hex(uint32_t u) {
  char s[16];
  std::snprintf(s, sizeof s, "0x%08x", u);
  return s;
}

namespace {
using ProbePush = push::FloatProbePush;  // shaders/floatlab/floatlab_push.h
std::vector<uint32_t> fill(size_t n, float v) { return std::vector<uint32_t>(n, bits(v)); }
std::string yes_no(bool b) { return b ? "yes" : "no"; }
}  // namespace

// out[i] = op(a[i], b[i], c[i]) as bit patterns of T (uint32_t: float or half, uint64_t: double).
template <class T>
std::vector<T> Probes::run_bits(const gpu::Pipeline& pipeline, Op op, const std::vector<T>& a, const std::vector<T>& b,
                                const std::vector<T>& c) {
  size_t n = a.size();
  if (b.size() != n || c.size() != n || n == 0) throw std::invalid_argument("probe inputs must have one length");
  const VkDeviceSize bytes = n * sizeof(T);
  if (!out_.mapped() || out_.size() < bytes)
    for (gpu::Buffer* buf : {&in_a_, &in_b_, &in_c_, &out_})  // the results read back from cached memory
      *buf = gpu::Buffer(ctx_, std::max<VkDeviceSize>(bytes, 1 << 16), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true,
                         buf == &out_);
  std::memcpy(in_a_.mapped(), a.data(), bytes);
  std::memcpy(in_b_.mapped(), b.data(), bytes);
  std::memcpy(in_c_.mapped(), c.data(), bytes);
  ctx_.submit_now([&](VkCommandBuffer cmd) {
    pipeline.bind(
        cmd,
        {gpu::storage_buffer(in_a_), gpu::storage_buffer(in_b_), gpu::storage_buffer(in_c_), gpu::storage_buffer(out_)},
        ProbePush{.n = uint32_t(n), .op = uint32_t(op), .one = 1.0f, .zero = 0.0f});
    vkCmdDispatch(cmd, std::min(pipeline.groups(uint32_t(n)).x, 65535u), 1, 1);
    gpu::barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
  });
  std::vector<T> out(n);
  std::memcpy(out.data(), out_.mapped(), bytes);
  return out;
}

Probes::Probes(gpu::Context& ctx, ProbeRounding rounding) : ctx_(ctx) {
  if (rounding == ProbeRounding::TowardZero) {
    if (!float_controls(ctx).rtz32)
      throw std::runtime_error(ctx.info.name + " does not offer rounding towards zero for 32-bit floats in shaders");
    pipeline_ = gpu::make_compute(ctx, "floatlab/probe.rtz.comp", sizeof(ProbePush));
    return;
  }
  pipeline_ = gpu::make_compute(ctx, "floatlab/probe.comp", sizeof(ProbePush));
  if (ctx.fp16) pipeline16_ = gpu::make_compute(ctx, "floatlab/probe16.comp", sizeof(ProbePush));
  if (ctx.info.fp64) pipeline64_ = gpu::make_compute(ctx, "floatlab/probe64.comp", sizeof(ProbePush));
}

std::vector<uint64_t> Probes::run64(Op op, const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
                                    const std::vector<uint64_t>& c) {
  if (!pipeline64_) throw std::runtime_error("this device has no fp64 in shaders");
  return run_bits(pipeline64_, op, a, b, c);
}

std::vector<ProbeRow> Probes::report16(uint32_t random_count, uint32_t seed) {
  std::vector<ProbeRow> rows;
  if (!pipeline16_) return rows;
  // run() with the half pipeline: values as the low 16 bits of each uint
  auto run16 = [&](Op op, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
                   const std::vector<uint32_t>& c) {
    auto out = run_on(pipeline16_, op, a, b, c);
    for (auto& v : out) v &= 0xffffu;
    return out;
  };
  auto row = [&](std::string test, std::string question, std::string found, std::string ieee) {
    bool same = found == ieee;
    rows.push_back({"fp16 " + test, question, found, ieee, same, "-", "-"});
  };
  uint32_t mx = to_half(65504.0);
  auto t2 = run16(Op::DoubleMinus, {mx}, {0}, {0})[0];
  row("TEST 2", "(MAX+MAX)-MAX: extended exponent range?", t2 == 0x7c00u ? "+inf" : "other", "+inf");
  std::vector<uint32_t> one5(32, to_half(1.5)), pw(32);
  for (int i = 1; i <= 32; ++i) pw[i - 1] = to_half(std::ldexp(1.0, -i));
  auto t3 = run16(Op::Add, one5, pw, one5), t5 = run16(Op::Sub, one5, pw, one5), t6 = run16(Op::SubSub, one5, pw, one5);
  int first3 = 0;
  bool ieee5 = true, ieee6 = true;
  for (int i = 1; i <= 32; ++i) {
    double p = from_half(uint16_t(pw[i - 1]));
    uint16_t s5 = to_half(1.5 - p), s6 = to_half(from_half(s5) - 1.5);
    if (!first3 && t3[i - 1] == to_half(1.5)) first3 = i;
    ieee5 &= t5[i - 1] == s5;
    ieee6 &= t6[i - 1] == s6;
  }
  row("TEST 3", "first i with 1.5 + 2^-i == 1.5 (mantissa bits)", std::to_string(first3), "11");
  row("TEST 5", "every 1.5 - 2^-i, i = 1..32, as IEEE", ieee5 ? "yes" : "no", "yes");
  row("TEST 6", "every (1.5 - 2^-i) - 1.5 as IEEE", ieee6 ? "yes" : "no", "yes");
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> w(-4.0, 4.0);
  std::vector<uint32_t> sa(random_count), sb(random_count), z(random_count, 0);
  for (uint32_t i = 0; i < random_count; ++i) sa[i] = to_half(w(rng)), sb[i] = to_half(w(rng));
  auto ab = run16(Op::Mul, sa, sb, z), nn = run16(Op::NegNeg, sa, sb, z), nmn = run16(Op::NegMulNeg, sa, sb, z),
       na = run16(Op::NegA, sa, sb, z), nb = run16(Op::NegB, sa, sb, z);
  uint64_t bad = 0, wrong = 0;
  for (uint32_t i = 0; i < random_count; ++i) {
    bad += ab[i] != nn[i] || ab[i] != nmn[i] || na[i] != nb[i];
    wrong += ab[i] != to_half(from_half(uint16_t(sa[i])) * from_half(uint16_t(sb[i])));  // exact product, rounded
  }
  row("TEST 7/8", "products correctly rounded (random pairs)", std::to_string(wrong) + " differ", "0 differ");
  row("TEST 9", "sign symmetry", std::to_string(bad) + " violations", "0 violations");
  return rows;
}

std::vector<ProbeRow> Probes::report64(uint32_t random_count, uint32_t seed) {
  std::vector<ProbeRow> rows;
  if (!pipeline64_) return rows;
  auto b64 = [](double d) {
    uint64_t u;
    std::memcpy(&u, &d, 8);
    return u;
  };
  auto row = [&](std::string test, std::string question, std::string found, std::string ieee) {
    bool same = found == ieee;
    rows.push_back({"fp64 " + test, question, found, ieee, same, "-", "-"});
  };
  double mx = std::numeric_limits<double>::max();
  uint64_t t2 = run64(Op::DoubleMinus, {b64(mx)}, {0}, {0})[0];
  row("TEST 2", "(MAX+MAX)-MAX: extended exponent range?", t2 == b64(INFINITY) ? "+inf" : "other", "+inf");
  std::vector<uint64_t> one5(128, b64(1.5)), pw(128);
  for (int i = 1; i <= 128; ++i) pw[i - 1] = b64(std::ldexp(1.0, -i));
  auto t3 = run64(Op::Add, one5, pw, one5), t5 = run64(Op::Sub, one5, pw, one5), t6 = run64(Op::SubSub, one5, pw, one5);
  int first3 = 0;
  bool ieee5 = true, ieee6 = true;
  for (int i = 1; i <= 128; ++i) {
    volatile double p = std::ldexp(1.0, -i), o = 1.5;
    double s5 = o - p, s6 = (o - p) - o;
    if (!first3 && t3[i - 1] == b64(1.5)) first3 = i;
    ieee5 &= t5[i - 1] == b64(s5);
    ieee6 &= t6[i - 1] == b64(s6);
  }
  row("TEST 3", "first i with 1.5 + 2^-i == 1.5 (mantissa bits)", std::to_string(first3), "53");
  row("TEST 5", "every 1.5 - 2^-i, i = 1..128, as IEEE", ieee5 ? "yes" : "no", "yes");
  row("TEST 6", "every (1.5 - 2^-i) - 1.5 as IEEE", ieee6 ? "yes" : "no", "yes");
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(1.0, 2.0), w(-4.0, 4.0);
  std::vector<uint64_t> x(random_count), y(random_count), c(random_count), sa(random_count), sb(random_count),
      z(random_count, 0);
  std::vector<uint64_t> exact(random_count);
  for (uint32_t i = 0; i < random_count; ++i) {
    double xd = u(rng), yd = u(rng);
    volatile double p = xd * yd;
    x[i] = b64(xd), y[i] = b64(yd), c[i] = b64(-p);
    exact[i] = b64(std::fma(xd, yd, -p));  // the C library's fma is exact (correctly rounded)
    sa[i] = b64(w(rng)), sb[i] = b64(w(rng));
  }
  auto f = run64(Op::Fma, x, y, c);
  uint64_t fused = 0;
  for (uint32_t i = 0; i < random_count; ++i) fused += f[i] == exact[i];
  row("TEST 4", "fma(x, y, -x*y) keeps the exact product?", fused == random_count ? "fused" : "product rounded",
      "fused");
  auto ab = run64(Op::Mul, sa, sb, z), nn = run64(Op::NegNeg, sa, sb, z), nmn = run64(Op::NegMulNeg, sa, sb, z),
       na = run64(Op::NegA, sa, sb, z), nb = run64(Op::NegB, sa, sb, z);
  uint64_t bad = 0;
  for (uint32_t i = 0; i < random_count; ++i) bad += ab[i] != nn[i] || ab[i] != nmn[i] || na[i] != nb[i];
  row("TEST 9", "sign symmetry", std::to_string(bad) + " violations", "0 violations");
  return rows;
}

std::vector<uint32_t> Probes::run(Op op, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
                                  const std::vector<uint32_t>& c) {
  return run_on(pipeline_, op, a, b, c);
}

std::vector<uint32_t> Probes::run_on(const gpu::Pipeline& pipeline, Op op, const std::vector<uint32_t>& a,
                                     const std::vector<uint32_t>& b, const std::vector<uint32_t>& c) {
  return run_bits(pipeline, op, a, b, c);
}

namespace {

// One row of the report: the question, what this device does, what IEEE-754 asks, and
// what the seed found on the 2006 NVIDIA and ATI GPUs.
void add_row(Report& r, std::string test, std::string question, std::string found, std::string ieee, std::string nv,
             std::string ati) {
  // The seed's findings in its words: "no" extended range and a sign-symmetric product are
  // IEEE behaviour; where either outcome is allowed, both agree.
  auto agrees = [&](const std::string& s) {
    return s == ieee || (ieee == "either" && (s == "fused" || s == "product rounded")) ||
           (test == "TEST 2" && s == "no") || s.rfind("symmetric", 0) == 0;
  };
  bool same = found == ieee, nv_same = agrees(nv), ati_same = agrees(ati);
  r.rows.push_back({std::move(test), std::move(question), std::move(found), std::move(ieee), same, std::move(nv),
                    std::move(ati), nv_same, ati_same});
}

// TEST 1: special values through memory (buffer, image), a register move, x·1 and x+0.
void test1_specials(Probes& p, gpu::Context& ctx, Report& r) {
  const std::vector<std::pair<std::string, uint32_t>> specials = {{"denormal 2^-149", 0x00000001u},
                                                                  {"denormal 0x007fffff", 0x007fffffu},
                                                                  {"+inf", 0x7f800000u},
                                                                  {"-inf", 0xff800000u},
                                                                  {"qNaN", 0x7fc00000u},
                                                                  {"sNaN", 0x7f800001u},
                                                                  {"-0", 0x80000000u}};
  std::vector<uint32_t> in;
  for (auto& s : specials) in.push_back(s.second);
  gpu::Buffer buf(ctx, in.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  buf.upload(in);
  auto through_buffer = buf.download<uint32_t>();
  gpu::Image img(ctx, uint32_t(in.size()), 1, VK_FORMAT_R32_SFLOAT, VK_IMAGE_USAGE_STORAGE_BIT);
  img.upload(in);
  auto through_image = img.download<uint32_t>();
  auto zeros = fill(in.size(), 0.0f);
  std::vector<std::pair<std::string, std::vector<uint32_t>>> paths = {{"buffer", through_buffer},
                                                                      {"image", through_image},
                                                                      {"move", p.run(Op::Move, in, zeros, zeros)},
                                                                      {"x*1", p.run(Op::MulOne, in, zeros, zeros)},
                                                                      {"x+0", p.run(Op::AddZero, in, zeros, zeros)}};
  bool memory_exact = true, denormals_flushed = false;
  std::string snan = "kept";  // what x*1 made of the signalling NaN
  for (auto& [path, out] : paths)
    for (size_t i = 0; i < in.size(); ++i) {
      if (out[i] == in[i]) continue;
      // x + 0 turns -0 into +0 by IEEE rule; not a change of representation.
      if (path == "x+0" && in[i] == 0x80000000u && out[i] == 0u) continue;
      r.test1_changed.push_back(path + ": " + specials[i].first + " " + hex(in[i]) + " -> " + hex(out[i]));
      if (path == "buffer" || path == "image") memory_exact = false;
      if (i < 2 && out[i] == 0) denormals_flushed = true;
      if (i == 5 && path == "x*1") snan = out[i] == 0x7fc00001u ? "quieted" : "became " + hex(out[i]);
    }
  add_row(r, "TEST 1", "denormals, infinities and NaNs through memory", memory_exact ? "unchanged" : "changed",
          "unchanged", "denormals -> 0", "denormals -> 0");
  add_row(r, "TEST 1", "denormals through arithmetic (x*1, x+0)", denormals_flushed ? "flushed to 0" : "kept", "kept",
          "flushed to 0", "flushed to 0");
  add_row(r, "TEST 1", "signalling NaN through arithmetic (x*1)", snan, "quieted", "kept", "quieted");
}

// TEST 2: (MAX + MAX) - MAX: inf without an extended exponent in registers.
void test2_extended_range(Probes& p, Report& r) {
  float mx = std::numeric_limits<float>::max();
  uint32_t t2 = p.run(Op::DoubleMinus, {bits(mx)}, {0}, {0})[0];
  r.test2_extended = t2 == bits(mx);
  add_row(r, "TEST 2", "(MAX+MAX)-MAX: extended exponent range?", r.test2_extended ? "MAX (extended)" : hex(t2),
          hex(0x7f800000u), "no", "no");
}

// TEST 3, 5, 6: 1.5 + 2^-i, 1.5 - 2^-i, (1.5 - 2^-i) - 1.5 for i = 1..64.
void tests356_adders(Probes& p, Report& r) {
  std::vector<uint32_t> a15 = fill(64, 1.5f), pw(64);
  for (int i = 1; i <= 64; ++i) pw[i - 1] = bits(std::ldexp(1.0f, -i));
  auto t3 = p.run(Op::Add, a15, pw, a15);
  r.test5 = p.run(Op::Sub, a15, pw, a15);
  r.test6 = p.run(Op::SubSub, a15, pw, a15);
  bool t5_ieee = true, t6_ieee = true;
  for (int i = 1; i <= 64; ++i) {
    volatile float p = std::ldexp(1.0f, -i), one5 = 1.5f;  // volatile: computed at run time, in binary32
    float s5 = one5 - p, s6 = (one5 - p) - one5;
    if (!r.test3_first_equal && t3[i - 1] == bits(1.5f)) r.test3_first_equal = i;
    if (!r.test5_first_equal && r.test5[i - 1] == bits(1.5f)) r.test5_first_equal = i;
    if (!r.test6_first_zero && from_bits(r.test6[i - 1]) == 0.0f) r.test6_first_zero = i;
    t5_ieee &= r.test5[i - 1] == bits(s5);
    t6_ieee &= r.test6[i - 1] == bits(s6);
  }
  add_row(r, "TEST 3", "first i with 1.5 + 2^-i == 1.5 (mantissa bits)", std::to_string(r.test3_first_equal), "24",
          "24", "24");
  add_row(r, "TEST 5", "first i with 1.5 - 2^-i == 1.5 (first adder)", std::to_string(r.test5_first_equal), "24", "26",
          "26");
  add_row(r, "TEST 5", "every 1.5 - 2^-i, i = 1..64, as IEEE", yes_no(t5_ieee), "yes", "no (26-bit adder)",
          "no (26-bit adder)");
  add_row(r, "TEST 6", "first i with (1.5 - 2^-i) - 1.5 == 0 (two adders)", std::to_string(r.test6_first_zero), "24",
          "26", "25");
  add_row(r, "TEST 6", "every (1.5 - 2^-i) - 1.5 as IEEE", yes_no(t6_ieee), "yes", "no", "no");
}

// TEST 4: MAD(x, y, -x*y) on random x, y: the exact remainder if the product is kept.
void test4_fused_product(Probes& p, Report& r, std::mt19937& rng, uint32_t random_count) {
  std::uniform_real_distribution<float> u(1.0f, 2.0f);
  std::vector<uint32_t> x(random_count), y(random_count), c(random_count);
  std::vector<float> exact(random_count);
  for (uint32_t i = 0; i < random_count; ++i) {
    float xf = u(rng) * std::ldexp(1.0f, int(rng() % 16) - 8), yf = u(rng) * std::ldexp(1.0f, int(rng() % 16) - 8);
    volatile float p = xf * yf;
    x[i] = bits(xf);
    y[i] = bits(yf);
    c[i] = bits(-p);
    exact[i] = float(double(xf) * double(yf) - double(p));  // exact: a product's error is a float
  }
  auto count_exact = [&](Op op) {
    auto out = p.run(op, x, y, c);
    uint64_t k = 0;
    for (uint32_t i = 0; i < random_count; ++i) k += out[i] == bits(exact[i]);
    return k;
  };
  r.test4_count = random_count;
  r.test4_exact_contract = count_exact(Op::MadContract);
  r.test4_exact_precise = count_exact(Op::MadPrecise);
  r.test4_exact_fma = count_exact(Op::Fma);
  // Fused: every remainder exact. Rounded product: exact only where the product was exact.
  uint64_t exact_when_rounded = uint64_t(std::count(exact.begin(), exact.end(), 0.0f));
  auto kind = [&](uint64_t k) {
    if (k == random_count) return std::string("fused");
    if (k == exact_when_rounded) return std::string("product rounded");
    std::ostringstream s;
    s.precision(4);
    s << "mixed (" << 100.0 * double(k) / double(random_count) << "% exact)";
    return s.str();
  };
  // IEEE's fusedMultiplyAdd rounds once; SPIR-V's Fma may round twice (Vulkan allows it).
  add_row(r, "TEST 4", "fma(x, y, -x*y) keeps the exact product?", kind(r.test4_exact_fma), "fused", "no FMA",
          "no FMA");
  std::string contract = kind(r.test4_exact_contract);
  add_row(r, "TEST 4", "x*y - x*y with the compiler free to fuse", contract, "either", "product rounded",
          "product rounded");
  r.rows.back().as_ieee = contract == "fused" || contract == "product rounded";  // both are allowed
  add_row(r, "TEST 4", "x*y - x*y with NoContraction (precise)", kind(r.test4_exact_precise), "product rounded",
          "product rounded", "product rounded");
}

// TEST 7: (2^23 + 3) * y for y = 1, 2, 5, 6, 21, 22, ... (alternating carry-free and carry chains).
void test7_carries(Probes& p, Report& r) {
  std::vector<uint32_t> a7, y7, zero7;
  for (uint32_t ones = 1, v = 1; ones <= 12; ++ones, v = (v << 2) | 1u)
    for (uint32_t w : {v, v + 1}) {
      a7.push_back(bits(8388611.0f));
      y7.push_back(bits(float(w)));
      zero7.push_back(0);
    }
  auto p7 = p.run(Op::Mul, a7, y7, zero7);
  for (size_t i = 0; i < p7.size(); ++i) {
    volatile float q = from_bits(a7[i]) * from_bits(y7[i]);
    r.test7_mismatch += p7[i] != bits(q);
  }
  add_row(r, "TEST 7", "(2^23+3) * y on 24 carry patterns, as IEEE", std::to_string(r.test7_mismatch) + " of 24 differ",
          "0 of 24 differ", "partial products truncated (6 columns)", "truncated (9 columns)");
}

// TEST 8: (2^23 + 1) * (2i + 1), 0 < i < 2^23: the multiplier's bias constant.
void test8_multiplier_bias(Probes& p, Report& r) {
  const uint32_t n8 = (1u << 23) - 1;
  std::vector<uint32_t> a8(n8, bits(8388609.0f)), b8(n8), z8(n8, 0);
  for (uint32_t i = 1; i <= n8; ++i) b8[i - 1] = bits(float(2 * i + 1));
  auto p8 = p.run(Op::Mul, a8, b8, z8);
  double err = 0;
  for (uint32_t i = 0; i < n8; ++i) {
    volatile float q = from_bits(a8[i]) * from_bits(b8[i]);
    if (p8[i] != bits(q)) {
      r.test8_mismatch++;
      err += (double(from_bits(p8[i])) - double(q)) / double(std::nextafter(std::fabs(q), INFINITY) - std::fabs(q));
    }
  }
  r.test8_count = n8;
  r.test8_mean_error_ulp = err / n8;
  add_row(r, "TEST 8", "(2^23+1)(2i+1), 0 < i < 2^23, as IEEE", std::to_string(r.test8_mismatch) + " differ",
          "0 differ", "biased truncation", "biased truncation");
}

// TEST 9: sign symmetry on random pairs.
void test9_sign_symmetry(Probes& p, Report& r, std::mt19937& rng, uint32_t random_count) {
  std::vector<uint32_t> sa(random_count), sb(random_count), z9(random_count, 0);
  std::uniform_real_distribution<float> w(-4.0f, 4.0f);
  for (uint32_t i = 0; i < random_count; ++i) sa[i] = bits(w(rng)), sb[i] = bits(w(rng));
  auto ab = p.run(Op::Mul, sa, sb, z9), nn = p.run(Op::NegNeg, sa, sb, z9), nmn = p.run(Op::NegMulNeg, sa, sb, z9),
       na = p.run(Op::NegA, sa, sb, z9), nb = p.run(Op::NegB, sa, sb, z9);
  for (uint32_t i = 0; i < random_count; ++i) r.test9_violations += ab[i] != nn[i] || ab[i] != nmn[i] || na[i] != nb[i];
  r.test9_count = random_count;
  add_row(r, "TEST 9", "A*B = (-A)*(-B) = -(A*(-B)), (-A)*B = A*(-B)",
          std::to_string(r.test9_violations) + " violations", "0 violations", "symmetric (sign-magnitude)",
          "symmetric (sign-magnitude)");
}

}  // namespace

Report Probes::report(uint32_t random_count, uint32_t seed) {
  Report r;
  r.device = ctx_.info.name;
  std::mt19937 rng(seed);  // TEST 4 then TEST 9 draw from it, in this order
  test1_specials(*this, ctx_, r);
  test2_extended_range(*this, r);
  tests356_adders(*this, r);
  test4_fused_product(*this, r, rng, random_count);
  test7_carries(*this, r);
  test8_multiplier_bias(*this, r);
  test9_sign_symmetry(*this, r, rng, random_count);
  // The same questions in binary64 and binary16, where the device has them.
  for (auto& row64 : report64(std::min(random_count, 1u << 18), seed)) r.rows.push_back(row64);
  for (auto& row16 : report16(std::min(random_count, 1u << 16), seed)) r.rows.push_back(row16);
  return r;
}

}  // namespace floatlab
