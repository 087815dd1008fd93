// compute/floatlab: on lavapipe (binary32 on the CPU's vector units) every probe must find
// what IEEE-754 round-to-nearest predicts for +, -, x; fma may be fused or not (Vulkan
// allows both) but never a mix; the SPIR-V keeps NoContraction where the source asks.
#include "floatlab/probes.h"
#include "helpers.h"

#include <nlohmann/json.hpp>

#include <fstream>

using namespace floatlab;
using FloatProbes = GpuTest;

TEST_F(FloatProbes, LavapipeRoundsAsIeeeBinary32) {
  Probes probes(ctx());
  auto r = probes.report(1u << 16, 3);
  EXPECT_FALSE(r.test2_extended);
  EXPECT_EQ(r.test3_first_equal, 24u);
  EXPECT_EQ(r.test5_first_equal, 24u);
  EXPECT_EQ(r.test6_first_zero, 24u);
  EXPECT_EQ(r.test7_mismatch, 0u);
  EXPECT_EQ(r.test8_mismatch, 0u);
  EXPECT_EQ(r.test8_count, (1u << 23) - 1);
  EXPECT_EQ(r.test9_violations, 0u);
  for (auto& c : r.test1_changed)  // memory never changes a value; only arithmetic may quiet a NaN
    EXPECT_TRUE(c.rfind("x*1: sNaN", 0) == 0 || c.rfind("x+0: sNaN", 0) == 0) << c;
  for (auto& row : r.rows) {
    if (row.test == "TEST 4" && row.question.rfind("fma", 0) == 0) {
      EXPECT_TRUE(row.found == "fused" || row.found == "product rounded") << row.found;
      continue;
    }
    if (row.question.find("signalling NaN") != std::string::npos) continue;  // payload rules are the driver's
    EXPECT_TRUE(row.as_ieee) << row.test << " " << row.question << ": found " << row.found << ", IEEE " << row.ieee;
  }
  EXPECT_EQ(r.test5.size(), 64u);
}

// Correctly rounded +, -, x on random operands of all magnitudes, every result checked.
TEST_F(FloatProbes, AddSubMulAreCorrectlyRounded) {
  Probes probes(ctx());
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> m(1.0f, 2.0f);
  const size_t n = 1 << 18;
  std::vector<uint32_t> a(n), b(n), z(n, 0);
  for (size_t i = 0; i < n; ++i) {
    a[i] = bits((rng() & 1 ? -1.0f : 1.0f) * m(rng) * std::ldexp(1.0f, int(rng() % 60) - 30));
    b[i] = bits((rng() & 1 ? -1.0f : 1.0f) * m(rng) * std::ldexp(1.0f, int(rng() % 60) - 30));
  }
  auto add = probes.run(Op::Add, a, b, z), sub = probes.run(Op::Sub, a, b, z), mul = probes.run(Op::Mul, a, b, z);
  for (size_t i = 0; i < n; ++i) {
    volatile float x = from_bits(a[i]), y = from_bits(b[i]);
    float s = x + y, d = x - y, p = x * y;
    ASSERT_EQ(add[i], bits(s)) << i;
    ASSERT_EQ(sub[i], bits(d)) << i;
    ASSERT_EQ(mul[i], bits(p)) << i;
  }
}

// The guard against compiler rewriting must be in the binary, not only in the source.
TEST(FloatProbeSpirv, CarriesNoContraction) {
  std::ifstream in(test_context().shader_dir / "floatlab/probe.comp.spv", std::ios::binary);
  ASSERT_TRUE(in);
  std::vector<uint32_t> words;
  uint32_t w;
  while (in.read(reinterpret_cast<char*>(&w), 4)) words.push_back(w);
  ASSERT_GT(words.size(), 5u);
  ASSERT_EQ(words[0], 0x07230203u);  // SPIR-V magic
  size_t no_contraction = 0;
  for (size_t i = 5; i < words.size();) {
    uint32_t opcode = words[i] & 0xffffu, count = words[i] >> 16;
    if (count == 0) break;
    if (opcode == 71 /* OpDecorate */ && count >= 3 && words[i + 2] == 42 /* NoContraction */) ++no_contraction;
    i += count;
  }
  EXPECT_GE(no_contraction, 12u);  // every `precise` operation of the probes
}

TEST(Cli, FloatReportWritesJson) {
  auto out = std::filesystem::temp_directory_path() / ("vklab-float-" + std::to_string(::getpid()) + ".json");
  auto r = run_process(vklab_exe() + " floatlab --report --validate --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("TEST 9"), std::string::npos) << r.out;
  auto j = nlohmann::json::parse(std::ifstream(out));
  EXPECT_GE(j["rows"].size(), 14u);
  EXPECT_EQ(j["rows"][0]["seed_7800gtx"], "denormals -> 0");
  EXPECT_EQ(run_process(vklab_exe() + " floatlab").code, 2);
}
