// The README's examples stay true: every command line of its "Using it" block runs as written
// from a folder whose assets/ is the repository's, with fewer steps (--steps 3), benches made
// --quick (one step a sweep point), the float report --quick, and window lines for 3 frames
// under Xvfb (skipped without it; a recording is skipped without FFmpeg's libraries).
#include "ffmpeg.h"
#include "helpers.h"

#include <fstream>
#include <regex>

namespace fs = std::filesystem;

namespace {

std::vector<std::string> readme_examples() {
  std::ifstream in(fs::path(VKLAB_SOURCE_ASSET_DIR).parent_path() / "README.md");
  std::vector<std::string> lines;
  bool in_section = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) in_section = line == "## Using it";
    if (in_section && line.rfind("    vklab", 0) == 0) lines.push_back(line.substr(4));
  }
  return lines;
}

}  // namespace

TEST(Readme, EveryExampleRunsAsWritten) {
  auto lines = readme_examples();
  ASSERT_GE(lines.size(), 15u);
  bool xvfb = run_process("command -v xvfb-run").code == 0, video = true;
  try {
    render::ffmpeg();
  } catch (const std::exception&) {  // scripts/install-deps.sh installs them; a lent GPU machine may not have them
    video = false;
  }
  auto dir = scratch("readme");
  fs::create_directory_symlink(fs::path(VKLAB_SOURCE_ASSET_DIR), dir / "assets");
  for (auto line : lines) {
    SCOPED_TRACE(line);
    if (auto hash = line.find("  #"); hash != std::string::npos) line.erase(hash);
    line.erase(line.find_last_not_of(' ') + 1);
    std::string args = line.substr(5);  // after "vklab"
    args = std::regex_replace(args, std::regex("--steps [0-9]+"), "--steps 3");
    bool bench = args.rfind(" bench", 0) == 0, report = args.rfind(" floatlab --report", 0) == 0;
    bool window = !bench && !report && args.find("--headless") == std::string::npos &&
                  args.find("--list-") == std::string::npos && args.find("--help") == std::string::npos;
    if (!video && args.find("--record ") != std::string::npos && args.find(".mp4") != std::string::npos) continue;
    if (bench && args.find("--quick") == std::string::npos) args += " --quick";
    if (args.find("--sweep ") != std::string::npos) args += " --sweep-steps 1";
    if (report) args += " --quick";
    std::string command = "cd " + dir.string() + " && ";
    if (window) {
      if (!xvfb) continue;
      command += "xvfb-run -a -s '-screen 0 1400x900x24' " + vklab_exe() + args + " --frames 3";
    } else {
      command += vklab_exe() + args;
    }
    auto r = run_process(command);
    EXPECT_EQ(r.code, 0) << command << "\n" << r.out << r.err;
    std::smatch m;
    if (std::regex_search(args, m, std::regex("--capture ([^ ]+)"))) EXPECT_TRUE(fs::exists(dir / m[1].str()));
    if (std::regex_search(args, m, std::regex("--out ([^ ]+)"))) EXPECT_TRUE(fs::exists(dir / m[1].str()));
  }
}
