// The machining exercises on the lab's own kernels: their cases tell the usual mistakes apart. Each
// mistake is planted in the shipped solution (or is the starting kernel's) and the case that
// catches it, and the one that cannot, are named.
#include "tests/exercise/shipped.h"
#include "tests/helpers.h"

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
