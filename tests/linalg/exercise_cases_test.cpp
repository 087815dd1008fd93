// The linear algebra exercises on the lab's own kernels: their cases tell the usual mistakes apart. Each
// mistake is planted in the shipped solution (or is the starting kernel's) and the case that
// catches it, and the one that cannot, are named.
#include "tests/exercise/shipped.h"
#include "tests/helpers.h"

// The starting kernel's column uint(i + offset) % n is right where n is a power of two and
// where the band has zeros at the wrap (the Laplacian), wrong in the first rows of a wrapping
// band otherwise; the report says which row, diagonal and column.
TEST_F(ExerciseLabKernels, TheBandedCasesCatchTheWrapAtTheBandsEdge) {
  const auto& e = shipped("linalg/banded");
  EXPECT_TRUE(lab_kernel_passes(ctx(), e, e.start(), "n = 4096, 12 diagonals"));
  EXPECT_TRUE(lab_kernel_passes(ctx(), e, e.start(), "Laplacian of a 61 x 67 grid"));
  EXPECT_FALSE(lab_kernel_passes(ctx(), e, e.start(), "n = 37, 12 diagonals"));

  auto r = exercise::check_source(ctx(), e, e.start(), "start.comp", 0);
  ASSERT_EQ(r.cases.size(), 1u);
  ASSERT_EQ(r.cases[0].arrays.size(), 1u);
  const auto& out = r.cases[0].arrays[0];
  EXPECT_GE(out.first_wrong, 0);
  EXPECT_LT(out.first_wrong, 6) << "only rows that wrap with a negative offset are wrong";
  EXPECT_NE(out.inputs.find("offset -"), std::string::npos) << out.inputs;
  EXPECT_EQ(out.wrong, 6u) << "rows 0 to 5 read a wrong column for their negative offsets";

  // A row past n written: the guard words see it.
  auto unbounded = lab_kernel_with(e.solution(), "if (i >= n) return;", "");
  EXPECT_FALSE(lab_kernel_passes(ctx(), e, unbounded, "n = 1000, 12 diagonals"));
}

// CG's update: the starting kernel's sign (r + alpha·q) fails every case; the right sign
// without the zero-denominator rule fails only the converged solve; an update of r alone (x
// left behind) fails on X.
TEST_F(ExerciseLabKernels, TheCgUpdateCasesCatchASignAMissingTermAndAZeroDenominator) {
  const auto& e = shipped("linalg/cg-update");
  for (auto& [name, ok] : lab_kernel_cases(ctx(), e, e.start())) EXPECT_FALSE(ok) << name;

  auto unguarded = lab_kernel_with(e.solution(), "S[1] == 0.0 ? 0.0 : S[0] / S[1]", "S[0] / S[1]");
  for (auto& [name, ok] : lab_kernel_cases(ctx(), e, unguarded)) EXPECT_EQ(ok, name != "converged, n = 1000") << name;

  auto no_x = lab_kernel_with(e.solution(), "X[i] = X[i] + alpha * D[i];", "");
  auto r = exercise::check_source(ctx(), e, no_x, "no_x.comp", 0);
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_FALSE(r.pass);
  ASSERT_EQ(r.cases[0].arrays.size(), 2u);
  EXPECT_EQ(r.cases[0].arrays[0].name, "X");
  EXPECT_GT(r.cases[0].arrays[0].wrong, 990u) << "every x should have moved";
  EXPECT_EQ(r.cases[0].arrays[1].wrong, 0u) << "r is right";
}
