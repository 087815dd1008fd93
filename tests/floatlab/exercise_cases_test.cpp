// The float lab's exercises on the lab's own kernels: their cases tell the usual mistakes apart. Each
// mistake is planted in the shipped solution (or is the starting kernel's) and the case that
// catches it, and the one that cannot, are named.
#include "tests/exercise/shipped.h"
#include "tests/helpers.h"

// The probes: a - (b + c) for the two adders gives TEST 6's own bits (so that case passes) and
// wrong ones where a - b nearly cancels c; values converted (float(), uint()) instead of bits
// reinterpreted fail every case.
TEST_F(ExerciseLabKernels, TheProbeCasesCatchAReassociationAndAConversion) {
  const auto& e = shipped("floatlab/probes");
  auto reassociated = lab_kernel_with(
      e.solution(), "precise float first = a - b;  // the first adder's result, rounded\n    r = first - c;",
      "r = a - (b + c);");
  auto pass = lab_kernel_cases(ctx(), e, reassociated);
  EXPECT_TRUE(pass.at("TEST 6: (1.5 - 2^-i) - 1.5"));
  EXPECT_FALSE(pass.at("two adders, cancelling"));
  EXPECT_TRUE(pass.at("TEST 4: a·b + c, product rounded"));

  auto start = lab_kernel_cases(ctx(), e, e.start());
  EXPECT_TRUE(start.at("TEST 3: 1.5 + 2^-i"));
  EXPECT_FALSE(start.at("TEST 4: a·b + c, product rounded")) << "operation 5 is missing";

  auto converted = lab_kernel_with(
      e.solution(), "float a = uintBitsToFloat(A[i]), b = uintBitsToFloat(B[i]), c = uintBitsToFloat(C[i]);",
      "float a = float(A[i]), b = float(B[i]), c = float(C[i]);");
  for (auto& [name, ok] : lab_kernel_cases(ctx(), e, converted)) EXPECT_FALSE(ok) << name;
}
