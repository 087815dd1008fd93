// Bleton 2005's wished-for operator[] (compute/linalg/vec.h, Vec::set): one element set in either
// layout, every other element as it was (the texture's texel keeps its three other channels), the
// bytes moved as said; and the bench's rows for it.
#include "compute/linalg/vec.h"
#include "compute/linalg/bench.h"
#include "tests/helpers.h"

#include <random>

class VecSet : public GpuTest {};

TEST_F(VecSet, OneElementSetTheOthersKeptInEitherLayout) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (auto layout : {linalg::Layout::Texture, linalg::Layout::Buffer})
    for (uint32_t n : {5u, 63u, 1000u}) {
      SCOPED_TRACE(std::string(linalg::layout_name(layout)) + ", n " + std::to_string(n));
      linalg::Vec v(ctx(), n, layout);
      std::vector<float> want(n);
      for (auto& x : want) x = u(rng);
      v.upload(want);
      for (uint32_t i : {0u, n / 2, n - 1, 1u % n}) {
        float value = u(rng) + 7.0f;
        size_t bytes = v.set(i, value);
        want[i] = value;
        EXPECT_EQ(bytes, layout == linalg::Layout::Texture ? 32u : 4u);
        EXPECT_EQ(v.download(), want) << "after element " << i;
      }
      auto padded = v.download_padded();  // the padding past n stays zero
      for (size_t k = n; k < padded.size(); ++k) EXPECT_EQ(padded[k], 0.0f) << k;
      EXPECT_THROW(v.set(n, 1.0f), std::out_of_range);
    }
}

TEST_F(VecSet, TheBenchTimesItBesideTheWholeVector) {
  gpu::BenchOptions o;
  o.quick = true;
  o.only = {"vec.set.texture", "vec.set.buffer"};
  auto rows = linalg::bench(ctx(), o);
  ASSERT_EQ(rows.size(), 2u);
  for (auto& r : rows) {
    SCOPED_TRACE(r.pass);
    EXPECT_EQ(r.reference["bytes_moved"], r.pass == "vec.set.texture" ? 32 : 4);
    EXPECT_GT(r.reference["whole_vector_bytes"].get<double>(), 1000.0);
    EXPECT_GE(r.median_ms, 0.0);
  }
}
