// The exercises on the labs' own kernels (the banded product, CG's update, the float probes,
// the machining intersection): their cases tell the usual mistakes apart. Each mistake is
// planted in the shipped solution (or is the starting kernel's) and the case that catches it,
// and the one that cannot, are named.
#include "compute/exercise/check.h"
#include "tests/exercise/shipped.h"
#include "tests/helpers.h"

#include <map>

namespace {

// `text` with its first `from` replaced by `to` (which must be there).
std::string lab_kernel_with(const std::string& text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "'" << from << "' is not in the kernel";
  if (at == std::string::npos) return text;
  return text.substr(0, at) + to + text.substr(at + from.size());
}

// Which of the exercise's cases `kernel` passes, by name, after it compiles.
std::map<std::string, bool> lab_kernel_cases(gpu::Context& ctx, const exercise::Exercise& e,
                                             const std::string& kernel) {
  auto r = exercise::check_source(ctx, e, kernel, "kernel.comp");
  EXPECT_TRUE(r.compile.ok) << r.compile.messages;
  std::map<std::string, bool> pass;
  for (auto& c : r.cases) {
    pass[c.name] = c.pass;
    EXPECT_TRUE(c.validation.empty()) << c.name;
  }
  EXPECT_EQ(pass.size(), e.cases.size());
  return pass;
}

// Whether `kernel` passes the exercise's case named `name` (that case alone is run).
bool lab_kernel_passes(gpu::Context& ctx, const exercise::Exercise& e, const std::string& kernel,
                       const std::string& name) {
  for (size_t i = 0; i < e.cases.size(); ++i)
    if (e.cases[i].name == name) {
      auto r = exercise::check_source(ctx, e, kernel, "kernel.comp", int(i));
      EXPECT_TRUE(r.compile.ok) << r.compile.messages;
      EXPECT_EQ(r.cases.size(), 1u);
      EXPECT_TRUE(r.cases.empty() || r.cases[0].validation.empty()) << name;
      return r.pass;
    }
  ADD_FAILURE() << e.name << " has no case '" << name << "'";
  return false;
}

}  // namespace

using ExerciseLabKernels = GpuTest;

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

// The intersection: the textbook's one-winding test (the start) sees only the tool's lower
// half when it is wound the other way, and a test of the other winding alone only the upper half
// of the tool as shipped: each fails one of the first two cases. Strict inequalities (edges left
// out) fail where brins lie on shared edges; the tip's height left out fails everywhere the tool
// cuts; and without the bounds test, the invocations past the grid's right border lower the
// brins at the start of the next row.
TEST_F(ExerciseLabKernels, TheIntersectionCasesCatchAWindingAnEdgeAndTheTipsHeight) {
  const auto& e = shipped("machining/intersection");
  const std::string plain = "37 x 29 brins", flipped = "the tool wound the other way";
  EXPECT_FALSE(lab_kernel_passes(ctx(), e, e.start(), plain));
  EXPECT_TRUE(lab_kernel_passes(ctx(), e, e.start(), flipped));
  auto other = lab_kernel_with(e.start(), "w0 >= 0.0 && w1 >= 0.0 && w2 >= 0.0", "w0 <= 0.0 && w1 <= 0.0 && w2 <= 0.0");
  EXPECT_TRUE(lab_kernel_passes(ctx(), e, other, plain));
  EXPECT_FALSE(lab_kernel_passes(ctx(), e, other, flipped));

  auto strict =
      lab_kernel_with(e.solution(), "(w0 >= 0.0 && w1 >= 0.0 && w2 >= 0.0) : (w0 <= 0.0 && w1 <= 0.0 && w2 <= 0.0)",
                      "(w0 > 0.0 && w1 > 0.0 && w2 > 0.0) : (w0 < 0.0 && w1 < 0.0 && w2 < 0.0)");
  EXPECT_FALSE(lab_kernel_passes(ctx(), e, strict, "the tip on a brin"));
  EXPECT_TRUE(lab_kernel_passes(ctx(), e, strict, plain)) << "no brin lies on an edge there";

  auto no_tip = lab_kernel_with(e.solution(), "best = min(best, tip_z + z);", "best = min(best, z);");
  for (auto& c : e.cases) EXPECT_FALSE(lab_kernel_passes(ctx(), e, no_tip, c.name)) << c.name;

  auto unbounded = lab_kernel_with(e.solution(), "if (b.x >= nx || b.y >= ny) return;", "");
  auto r = exercise::check_source(ctx(), e, unbounded, "unbounded.comp", 3);  // over the stock's far corner
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_FALSE(r.pass) << exercise::format_report(e, r);
  ASSERT_EQ(r.cases[0].arrays.size(), 1u);
  EXPECT_EQ(r.cases[0].arrays[0].first_wrong % 33, 0) << "the first brin of a row";
}
