// How this GPU rounds: the Paranoia-style probes of seed 002 (Da Graça 2006, §3.2), each
// a compute dispatch of one operation over arrays of bit patterns, compared with what
// IEEE-754 round-to-nearest gives on the CPU, beside what the seed found on a 7800GTX and
// an RX1800XL (§3.3).
#pragma once
#include "compute/gpu/pipeline.h"

#include <string>
#include <vector>

namespace floatlab {

struct ProbeRow {
  std::string test;      // "TEST 3"
  std::string question;  // what the probe asks
  std::string found;     // what this device did
  std::string ieee;      // what IEEE-754 binary32, round to nearest even, gives
  bool as_ieee = false;  // found == ieee
  std::string seed_7800gtx, seed_rx1800xl;
  bool nv_as_ieee = false, ati_as_ieee = false;  // what the seed found on each agrees with IEEE
};

struct Report {
  std::string device;
  std::vector<ProbeRow> rows;
  // TEST 5 and 6, i = 1..64: the bit patterns the device returned (for the picture).
  std::vector<uint32_t> test5, test6;
  // Raw outcomes, for tests and the JSON.
  uint32_t test3_first_equal = 0, test5_first_equal = 0, test6_first_zero = 0;
  uint64_t test4_exact_contract = 0, test4_exact_precise = 0, test4_exact_fma = 0, test4_count = 0;
  uint64_t test7_mismatch = 0, test8_mismatch = 0, test8_count = 0, test9_violations = 0, test9_count = 0;
  double test8_mean_error_ulp = 0;
  bool test2_extended = false;
  std::vector<std::string> test1_changed;  // "path: value -> result" for every change
};

// The operations probe.comp knows (its push constant `op`).
enum class Op : uint32_t {
  Add,
  Sub,
  Mul,
  SubSub,
  MadContract,
  MadPrecise,
  Fma,
  MulOne,
  AddZero,
  NegNeg,
  NegMulNeg,
  NegA,
  NegB,
  DoubleMinus,
  Move,
  Div,
  Sqrt,
  InverseSqrt,
  Exp,
  Log,
  Exp2,
  Log2,
  Sin,
  Cos,
  Rcp,
  Pow
};

// Beyond the seed: how far division and the built-ins are from correct rounding.
struct RoundingRow {
  std::string op, domain;
  uint64_t count = 0;
  double max_ulp = 0;            // max |gpu - exact| in ulps of the correctly rounded result
  double correctly_rounded = 0;  // share of results equal to the correctly rounded value
  std::string vulkan_bound;      // what the Vulkan specification allows
  bool within_bound = false;
};

// The error of each operation over its input range: the largest error in ulps of the
// result over random inputs in each binade x in [2^e, 2^(e+1)), e = e_lo..e_hi (a * b and
// a / b: a in the binade, b in [1, 2)), against the same function in double.
struct UlpMap {
  std::vector<std::string> ops;  // "a * b", "a / b", "sqrt", ...
  int e_lo = -20, e_hi = 20;
  uint32_t per_binade = 0;
  std::vector<double> max_ulp;  // [op][e - e_lo]; NaN where the exact result is not a finite float
  uint32_t binades() const { return uint32_t(e_hi - e_lo + 1); }
};

// The device's float controls (VK_KHR_shader_float_controls, core in Vulkan 1.2).
struct FloatControls {
  bool denorm_preserve32 = false, denorm_flush32 = false, rte32 = false, rtz32 = false;
  bool denorm_preserve16 = false, denorm_preserve64 = false, signed_zero_inf_nan_preserve32 = false;
  std::string denorm_independence, rounding_independence;
};
FloatControls float_controls(const gpu::Context& ctx);

// How the probe kernel rounds: as the device does by default (to nearest, on every device of
// Vulkan 1.2), or towards zero (SPIR-V's RoundingModeRTZ, only where FloatControls::rtz32: the
// 32-bit pipeline alone; chopped.h).
enum class ProbeRounding { Default, TowardZero };

class Probes {
 public:
  explicit Probes(gpu::Context& ctx, ProbeRounding rounding = ProbeRounding::Default);
  // out[i] = op(a[i], b[i], c[i]) on the GPU, as bit patterns.
  std::vector<uint32_t> run(Op op, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
                            const std::vector<uint32_t>& c);
  // All probes; `random_count` values for the random tests (4 and 9).
  Report report(uint32_t random_count = 1u << 20, uint32_t seed = 1);
  // The probes that apply to binary64 (TEST 2, 3, 4, 5, 6, 9), where the device has
  // shaderFloat64; rows labelled "fp64". Empty without fp64.
  std::vector<ProbeRow> report64(uint32_t random_count = 1u << 18, uint32_t seed = 1);
  // The same in binary16 where the device has shaderFloat16 (TEST 2, 3, 5, 6, 9).
  std::vector<ProbeRow> report16(uint32_t random_count = 1u << 16, uint32_t seed = 1);
  std::vector<uint64_t> run64(Op op, const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
                              const std::vector<uint64_t>& c);
  // Division, sqrt and the transcendentals on random inputs against double precision.
  std::vector<RoundingRow> rounding(uint32_t count = 1u << 20, uint32_t seed = 1);
  UlpMap ulp_map(uint32_t per_binade = 1024, uint32_t seed = 1);

 private:
  std::vector<uint32_t> run_on(const gpu::Pipeline& pipeline, Op op, const std::vector<uint32_t>& a,
                               const std::vector<uint32_t>& b, const std::vector<uint32_t>& c);
  template <class T>
  std::vector<T> run_bits(const gpu::Pipeline& pipeline, Op op, const std::vector<T>& a, const std::vector<T>& b,
                          const std::vector<T>& c);
  gpu::Context& ctx_;
  gpu::Pipeline pipeline_, pipeline64_, pipeline16_;
  // The four buffers every run goes through, host-visible and kept, grown as needed: a run costs
  // one submission, not four buffers and four staging copies made and freed (on an H200 the
  // staging blocks' allocation made the report spend most of its time in the kernel).
  gpu::Buffer in_a_, in_b_, in_c_, out_;
};

// binary16 with round to nearest even (overflow to infinity), and back.
uint16_t to_half(double x);
double from_half(uint16_t h);

uint32_t bits(float f);
float from_bits(uint32_t u);
std::string hex(uint32_t u);

}  // namespace floatlab
