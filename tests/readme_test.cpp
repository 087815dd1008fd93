// The README's examples stay true: every command line of its "Using it" section runs as written,
// in order, from a folder whose assets/ is the repository's. Window lines run for 3 frames under
// Xvfb (skipped without it), and a recording to .mp4 is skipped without FFmpeg's libraries. A line
// whose comment says it is "sized for a GPU" is skipped: the README follows it with a twin sized
// for lavapipe, which runs. The lines run in tests by kind (window and listings, headless runs in
// two, bench and report), each well under 30 s on lavapipe. The README's links point at files
// that exist. tests/windows/vklab_under_wine.sh runs the headless and bench lines with vklab.exe.
#include "app/core/lab.h"
#include "render/ffmpeg.h"
#include "tests/helpers.h"

#include <fstream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace {

fs::path source_root() { return fs::path(VKLAB_SOURCE_ASSET_DIR).parent_path(); }

std::vector<std::string> readme_examples() {
  std::ifstream in(source_root() / "README.md");
  std::vector<std::string> lines;
  bool in_section = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) in_section = line == "## Using it";
    if (in_section && line.rfind("    vklab", 0) == 0) lines.push_back(line.substr(4));
  }
  return lines;
}

bool sized_for_gpu(const std::string& line) {
  auto hash = line.find("  #");
  return hash != std::string::npos && line.find("sized for a GPU", hash) != std::string::npos;
}

// The arguments after "vklab", without the comment.
std::string example_args(std::string line) {
  if (auto hash = line.find("  #"); hash != std::string::npos) line.erase(hash);
  line.erase(line.find_last_not_of(' ') + 1);
  return line.substr(5);
}

enum class Kind { Window, Headless, Bench };

Kind kind_of(const std::string& args) {
  if (args.rfind(" bench", 0) == 0 || args.rfind(" floatlab --report", 0) == 0) return Kind::Bench;
  if (args.find("--headless") != std::string::npos) return Kind::Headless;
  return Kind::Window;  // the window, and --list-... / --help, which need no window
}

// Runs the README's examples of one kind in order, in one folder, as written: all of them, or
// the `part`-th of `parts` runs of consecutive lines (a line that replays an earlier one's
// capture follows it in the same run).
void run_examples(Kind kind, const std::string& name, size_t part = 0, size_t parts = 1) {
  auto all = readme_examples();
  ASSERT_FALSE(all.empty()) << "no examples in README.md's \"Using it\" section";
  std::vector<std::string> lines;
  for (auto& line : all)
    if (!sized_for_gpu(line) && kind_of(example_args(line)) == kind) lines.push_back(line);
  lines = std::vector<std::string>(lines.begin() + long(lines.size() * part / parts),
                                   lines.begin() + long(lines.size() * (part + 1) / parts));
  bool xvfb = run_process("command -v xvfb-run").code == 0, video = true;
  try {
    render::ffmpeg();
  } catch (const std::exception&) {  // scripts/install-deps.sh installs them; a lent GPU machine may not have them
    video = false;
  }
  auto dir = scratch(name);
  fs::create_directory_symlink(fs::path(VKLAB_SOURCE_ASSET_DIR), dir / "assets");
  for (auto& line : lines) {
    SCOPED_TRACE(line);
    std::string args = example_args(line);
    if (sized_for_gpu(line) || kind_of(args) != kind) continue;
    bool window =
        kind == Kind::Window && args.find("--list-") == std::string::npos && args.find("--help") == std::string::npos;
    if (!video && args.find("--record ") != std::string::npos && args.find(".mp4") != std::string::npos) continue;
    // an exercise's kernel file goes into the scratch folder, not the user's home
    std::string command = "cd " + dir.string() + " && VKLAB_EXERCISE_DIR=" + (dir / "exercises").string() + " ";
    if (window) {
      if (!xvfb) continue;
      command += "xvfb-run -a -s '-screen 0 1400x900x24' " + vklab_exe() + args + " --frames 3";
    } else {
      command += vklab_exe() + args;
    }
    auto r = run_process(command);
    EXPECT_EQ(r.code, 0) << command << "\n" << r.out << r.err;
    std::smatch m;
    for (const char* flag : {"--capture", "--out", "--record", "--dump"})
      if (std::regex_search(args, m, std::regex(std::string(flag) + " ([^ ]+)"))) {
        EXPECT_TRUE(fs::exists(dir / m[1].str())) << flag << " " << m[1].str();
      }
  }
}

}  // namespace

TEST(Readme, UsingItHasItsExamples) {
  auto lines = readme_examples();
  ASSERT_GE(lines.size(), 15u);
  for (size_t i = 0; i < lines.size(); ++i) {
    SCOPED_TRACE(lines[i]);
    if (!sized_for_gpu(lines[i])) continue;
    ASSERT_LT(i + 1, lines.size()) << "a line sized for a GPU needs a lavapipe-sized twin after it";
    EXPECT_FALSE(sized_for_gpu(lines[i + 1])) << "the twin of a line sized for a GPU must run on lavapipe";
    EXPECT_EQ(kind_of(example_args(lines[i])), kind_of(example_args(lines[i + 1])));
  }
}

TEST(Readme, WindowExamplesRunAsWritten) { run_examples(Kind::Window, "readme-window"); }
// The headless lines in two runs, each well under 30 s on lavapipe.
TEST(Readme, HeadlessExamplesRunAsWritten) { run_examples(Kind::Headless, "readme-headless", 0, 2); }
TEST(Readme, MoreHeadlessExamplesRunAsWritten) { run_examples(Kind::Headless, "readme-headless-2", 1, 2); }
TEST(Readme, BenchExamplesRunAsWritten) { run_examples(Kind::Bench, "readme-bench"); }

// Every relative link of the README and of docs/*.md ([text](path) or ![alt](path)) names a file
// that exists; a #fragment is ignored, web links are not checked.
TEST(Readme, LinksPointAtFiles) {
  std::vector<fs::path> pages = {source_root() / "README.md"};
  for (auto& e : fs::directory_iterator(source_root() / "docs"))
    if (e.path().extension() == ".md") pages.push_back(e.path());
  const std::regex link(R"(\]\(([^)\s]+)\))");
  size_t checked = 0;
  for (auto& page : pages) {
    std::ifstream in(page);
    std::stringstream text;
    text << in.rdbuf();
    std::string s = text.str();
    for (std::sregex_iterator it(s.begin(), s.end(), link), end; it != end; ++it) {
      std::string target = (*it)[1].str();
      if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0) continue;
      target = target.substr(0, target.find('#'));
      if (target.empty()) continue;
      EXPECT_TRUE(fs::exists(page.parent_path() / target)) << page << " links to a missing " << target;
      ++checked;
    }
  }
  EXPECT_GE(checked, 20u);
}

// The README names each lab's help page.
TEST(Readme, LinksEveryHelpPage) {
  std::ifstream in(source_root() / "README.md");
  std::stringstream text;
  text << in.rdbuf();
  for (auto& lab : lab_names()) EXPECT_NE(text.str().find("(assets/" + lab + "/help.md)"), std::string::npos) << lab;
}
