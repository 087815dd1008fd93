// compute/floatlab/division.h: the report's reading of its division, "dividend times the rounded
// reciprocal", asked bit for bit. The classification is checked on planted answers (every
// quotient a * (1/b), every one correctly rounded, a mix) and against a CPU reference of what
// the GPU returned: the counts recomputed from the GPU's own quotients, reciprocals and products.
#include "compute/floatlab/division.h"
#include "compute/floatlab/table31.h"
#include "tests/helpers.h"

#include <bit>
#include <cfloat>
#include <cmath>
#include <random>

using namespace floatlab;

namespace {
class Division : public GpuTest {};

// Random pairs with |b| in [2^-126, 2^126] and moderate quotients.
void division_pairs(size_t n, uint32_t seed, std::vector<uint32_t>& a, std::vector<uint32_t>& b) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> m(1.0f, 2.0f);
  a.resize(n), b.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const int e = int(rng() % 200) - 100;
    a[i] = bits((rng() % 2 ? -1 : 1) * std::ldexp(m(rng), e + int(rng() % 41) - 20));
    b[i] = bits((rng() % 2 ? -1 : 1) * std::ldexp(m(rng), e));
  }
}
}  // namespace

TEST(DivisionReading, ClassifiesPlantedAnswers) {
  std::vector<uint32_t> a, b;
  division_pairs(4096, 3, a, b);
  std::vector<uint32_t> rounded(a.size()), product(a.size());
  size_t differ = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    rounded[i] = bits(float(double(from_bits(a[i])) / double(from_bits(b[i]))));
    volatile float r = 1.0f / from_bits(b[i]);  // the reciprocal rounded, then the product rounded
    product[i] = bits(from_bits(a[i]) * r);
    differ += rounded[i] != product[i];
  }
  ASSERT_GT(differ, 100u) << "a * (1/b) must differ from a / b on some pairs for the test to mean anything";
  auto as_product = read_division(a, b, product, product);  // a divider that multiplies by the reciprocal
  EXPECT_EQ(as_product.count, a.size());
  EXPECT_EQ(as_product.as_rcp_product, a.size());
  EXPECT_EQ(as_product.correctly_rounded, a.size() - differ);
  EXPECT_EQ(as_product.reading, "a * (1/b), bit for bit: the report's reading holds");
  auto exact = read_division(a, b, rounded, product);  // a correctly rounded divider
  EXPECT_EQ(exact.correctly_rounded, a.size());
  EXPECT_EQ(exact.as_rcp_product, a.size() - differ);
  EXPECT_EQ(exact.product_correct, a.size() - differ);
  EXPECT_EQ(exact.reading, "correctly rounded: not a * (1/b), which differs on some pairs");
  auto mixed = rounded;
  for (size_t i = 0; i < mixed.size(); i += 2)
    mixed[i] = bits(std::nextafter(from_bits(rounded[i]), INFINITY));  // off by one
  auto neither = read_division(a, b, mixed, product);
  EXPECT_EQ(neither.reading.rfind("neither", 0), 0u) << neither.reading;
  // a quotient that is no normal float is left out
  auto skip = read_division({bits(1e30f), bits(1.0f)}, {bits(1e-30f), bits(3.0f)}, {bits(INFINITY), bits(1.0f / 3)},
                            {bits(INFINITY), bits(1.0f / 3)});
  EXPECT_EQ(skip.count, 1u);
  EXPECT_EQ(skip.skipped, 1u);
  EXPECT_THROW(read_division({1}, {1, 2}, {1}, {1}), std::invalid_argument);
}

// On this GPU: the reading of what it returned equals the counts recomputed here from its own
// quotients, reciprocals and products (whatever they are), and its product of a by the returned
// reciprocal is that product correctly rounded (Vulkan requires it of a * b).
TEST_F(Division, TheReadingIsWhatTheGpuReturned) {
  Probes probes(ctx());
  std::vector<uint32_t> a, b;
  division_pairs(1u << 15, 5, a, b);
  std::vector<uint32_t> zero(a.size(), 0);
  auto quotient = probes.run(Op::Div, a, b, zero), rcp = probes.run(Op::Rcp, b, zero, zero);
  auto product = probes.run(Op::Mul, a, rcp, zero);
  uint64_t same = 0, correct = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    volatile float p = from_bits(a[i]) * from_bits(rcp[i]);
    ASSERT_EQ(product[i], bits(p)) << i;
    same += quotient[i] == product[i];
    correct += quotient[i] == bits(float(double(from_bits(a[i])) / double(from_bits(b[i]))));
  }
  auto r = read_division(a, b, quotient, product);
  EXPECT_EQ(r.count, a.size());
  EXPECT_EQ(r.as_rcp_product, same);
  EXPECT_EQ(r.correctly_rounded, correct);
  const std::string want = same == a.size() && correct == a.size() ? "correctly rounded, and"
                           : same == a.size()                      ? "a * (1/b), bit for bit"
                           : correct == a.size()                   ? "correctly rounded: not"
                                                                   : "neither";
  EXPECT_EQ(r.reading.rfind(want, 0), 0u) << r.reading;
  std::printf("a / b on this device: %llu of %zu as a * (1/b), %llu correctly rounded: %s\n", (unsigned long long)same,
              a.size(), (unsigned long long)correct, r.reading.c_str());
  // the whole measure, as the report and the panel run it
  auto d = division_reading(probes, 4096, 2);
  EXPECT_EQ(d.count + d.skipped, 4096u);
  EXPECT_GT(d.count, 4000u);
}
