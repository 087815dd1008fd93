// The Exercise tab in the real window (Xvfb): vklab --exercise makes the user's kernel file from
// the starting kernel and checks it; another program then saves the solution over the file, and
// the window reads it, recompiles and checks it again. The file is the user's: the window never
// writes over it.
#include "tests/helpers.h"

#include <filesystem>
#include <fstream>
#include <set>

namespace fs = std::filesystem;

TEST(Window, AnExerciseFileSavedElsewhereIsRecompiledAndChecked) {
  if (run_process("command -v xvfb-run").code != 0) GTEST_SKIP() << "xvfb-run is not installed";
  auto dir = scratch("exercise-window");
  auto kernel = dir / "mine.comp", out = dir / "out.txt", err = dir / "err.txt", png = dir / "shot.png";
  auto solution = kSourceRoot / "assets/diffusion/exercises/laplacian/solution.comp";
  // The window in the background; once it has said the starting kernel's verdict, the solution
  // is copied over the file, as an editor saving it would.
  std::string script = "(cd " + dir.string() + " && xvfb-run -a -s '-screen 0 1600x1000x24' " + vklab_exe() +
                       " --validate --exercise diffusion/laplacian --exercise-file " + kernel.string() +
                       " --set size=64 --frames 150 --size 1100x760 --with-interface --capture " + png.string() +
                       " > " + out.string() + " 2> " + err.string() +
                       " & pid=$!; "
                       "for i in $(seq 1 200); do grep -q 'laplacian: FAIL' " +
                       out.string() +
                       " && break; sleep 0.1; done; "
                       "sleep 0.3; cp " +
                       solution.string() + " " + kernel.string() + "; wait $pid; echo exit=$?)";
  auto r = run_process(script);
  std::string said = file_bytes(out), errors = file_bytes(err);
  ASSERT_NE(r.out.find("exit=0"), std::string::npos) << r.out << said << errors;
  auto first = said.find("exercise: diffusion/laplacian: " + kernel.string() + " compiled");
  auto fail = said.find("exercise: diffusion/laplacian: FAIL");
  ASSERT_NE(first, std::string::npos) << said;
  ASSERT_NE(fail, std::string::npos) << said;
  auto second = said.find("compiled", fail);
  ASSERT_NE(second, std::string::npos) << "the saved file was not recompiled:\n" << said;
  EXPECT_NE(said.find("exercise: diffusion/laplacian: PASS", second), std::string::npos) << said;
  EXPECT_NE(errors.find("validation: 0 messages"), std::string::npos) << errors;
  EXPECT_EQ(file_bytes(kernel), file_bytes(solution)) << "the window wrote over the user's file";

  auto pic = load_picture(png);
  ASSERT_FALSE(pic.empty()) << "no capture";
  std::set<uint32_t> panel;
  size_t green = 0;  // the verdict and the difference picture's cells within the tolerance
  pic.each(0, 0, pic.w / 3, pic.h, [&](const unsigned char* p) {
    panel.insert(rgb(p));
    green += p[1] > 120 && p[0] < 110 && p[2] < 120;
  });
  EXPECT_GT(panel.size(), 20u) << "the Exercise tab should be drawn";
  EXPECT_GT(green, 50u) << "the tab should show the passing check in green";
  fs::remove_all(dir);
}
