// RenderDoc's in-application API: captures bracket exactly what was asked for (steps, one
// application of a bench row, window frames) when vklab runs under renderdoccmd, and without
// RenderDoc the run goes on with a message saying how to get one.
#include "tests/helpers.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace {

// Debian's renderdoccmd (scripts/install-deps.sh); a lent GPU machine may not have it.
bool have_renderdoccmd() {
  static const bool yes = run_process("command -v renderdoccmd").code == 0;
  return yes;
}

// The .rdc files written in `dir`, each converted to RenderDoc's XML; the number of
// vkCmdDispatch calls each holds.
std::vector<int> dispatches_per_capture(const fs::path& dir) {
  std::vector<fs::path> rdcs;
  for (auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".rdc") rdcs.push_back(e.path());
  std::sort(rdcs.begin(), rdcs.end());
  std::vector<int> counts;
  for (auto& rdc : rdcs) {
    auto xml = fs::path(rdc).replace_extension(".xml");
    auto r = run_process("renderdoccmd convert -f " + rdc.string() + " -o " + xml.string() + " -c xml");
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    std::stringstream text;
    text << std::ifstream(xml).rdbuf();
    std::string s = text.str();
    int n = 0;
    for (size_t at = s.find("\"vkCmdDispatch\""); at != std::string::npos; at = s.find("\"vkCmdDispatch\"", at + 1))
      ++n;
    counts.push_back(n);
  }
  return counts;
}

std::string under_renderdoc(const fs::path& dir, const std::string& args) {
  return "renderdoccmd capture -w -c " + (dir / "cap").string() + " " + vklab_args(args);
}

}  // namespace

TEST(RenderDoc, WithoutRenderDocTheRunGoesOnAndSaysHow) {
  auto r = run_process(vklab_args("--headless --lab diffusion --set size=64 --steps 5 --renderdoc-capture 2"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("not running under RenderDoc"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("renderdoccmd capture"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("5 steps"), std::string::npos) << r.out;
}

// Headless: one capture a submission of steps, as many as asked; each holds its steps'
// dispatches (diffusion: one a step) and nothing of the picture drawn after.
TEST(RenderDoc, HeadlessCapturesTheAskedSubmissionsOfSteps) {
  if (!have_renderdoccmd()) GTEST_SKIP() << "renderdoccmd is not installed";
  auto dir = scratch("renderdoc-headless");
  auto r = run_process(under_renderdoc(
      dir,
      "--headless --validate --lab diffusion --set size=64 --set steps_per_frame=3 --steps 12 --renderdoc-capture 2"));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("12 steps"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("under RenderDoc, one allocation per buffer"), std::string::npos) << r.err;
  auto counts = dispatches_per_capture(dir);
  ASSERT_EQ(counts.size(), 2u) << r.err;
  for (int n : counts) EXPECT_EQ(n, 3 + 2) << "three diffusion steps a submission and the statistics' two passes";
}

// Bench: one application of the row's pass, after its warm-up, and only for the first row.
TEST(RenderDoc, BenchCapturesOneApplicationOfTheFirstRow) {
  if (!have_renderdoccmd()) GTEST_SKIP() << "renderdoccmd is not installed";
  auto dir = scratch("renderdoc-bench");
  auto r =
      run_process(under_renderdoc(dir, "bench --lab linalg --quick --only axpby.modern.buffer --renderdoc-capture 1"));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("axpby.modern.buffer"), std::string::npos) << r.out;
  auto counts = dispatches_per_capture(dir);
  ASSERT_EQ(counts.size(), 1u) << r.err;
  EXPECT_EQ(counts[0], 1) << "axpby is one dispatch";
}

// The window: N frames from the first, each a capture (compute passes, picture and UI).
TEST(RenderDoc, WindowCapturesFrames) {
  if (!have_renderdoccmd()) GTEST_SKIP() << "renderdoccmd is not installed";
  if (run_process("command -v xvfb-run").code != 0) GTEST_SKIP() << "xvfb-run is not installed";
  auto dir = scratch("renderdoc-window");
  auto r = run_process("xvfb-run -a -s '-screen 0 1280x800x24' " +
                       under_renderdoc(dir,
                                       "--validate --lab diffusion --set size=64 --set steps_per_frame=2 "
                                       "--frames 6 --renderdoc-capture 2"));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("validation: 0 messages"), std::string::npos) << r.err;
  auto counts = dispatches_per_capture(dir);
  ASSERT_EQ(counts.size(), 2u) << r.err;
  for (int n : counts) EXPECT_GE(n, 2) << "two diffusion steps a frame, and the frame's other passes";
}
