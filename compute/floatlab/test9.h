// TEST 9 of seed 002 at the report's size (Da Graça 2006 §3.2: "two billion random values"):
// sign symmetry of the multiplier, A*B = (-A)*(-B) = -(A*(-B)) and (-A)*B = A*(-B), on random
// bit patterns drawn on the GPU (shaders/floatlab/test9.comp), in chunks so that progress
// can be shown and no dispatch runs long.
#pragma once
#include "compute/gpu/pipeline.h"

#include <array>
#include <cstdint>
#include <vector>

namespace floatlab {

constexpr uint64_t kTest9Pairs = 2'000'000'000;

class SignSymmetry {
 public:
  SignSymmetry(gpu::Context& ctx, uint32_t seed = 1);
  // The next `count` pairs (at most 2^26 a dispatch).
  void run(uint64_t count);
  uint64_t done() const { return done_; }
  uint64_t violations() const { return violations_; }
  const std::vector<std::array<uint32_t, 2>>& examples() const { return examples_; }  // bit patterns of A, B

 private:
  gpu::Context& ctx_;
  gpu::Pipeline pipe_;
  gpu::Buffer found_;
  uint32_t seed_;
  uint64_t done_ = 0, violations_ = 0;
  std::vector<std::array<uint32_t, 2>> examples_;
};

}  // namespace floatlab
