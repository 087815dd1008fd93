// The layout the architecture promises (docs/ARCHITECTURE.md): a lab is its folders and one
// line in VKLAB_LABS, the shell (app/ outside app/labs/) never names a lab, and the layout
// table names folders that exist.
#include "app/lab.h"
#include "tests/helpers.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
  std::stringstream s;
  s << std::ifstream(p).rdbuf();
  return s.str();
}

// The shell's sources: app/ and its folders, except app/labs/.
std::vector<fs::path> shell_files() {
  std::vector<fs::path> files;
  for (auto& e : fs::recursive_directory_iterator(kSourceRoot / "app")) {
    auto rel = fs::relative(e.path(), kSourceRoot).generic_string();
    if (rel.rfind("app/labs/", 0) == 0 || !e.is_regular_file()) continue;
    auto ext = e.path().extension();
    if (ext == ".cpp" || ext == ".h") files.push_back(e.path());
  }
  return files;
}

}  // namespace

TEST(Layout, TheShellNamesNoLab) {
  auto files = shell_files();
  ASSERT_GE(files.size(), 20u);
  for (auto& lab : lab_names()) {
    std::regex word("\\b" + lab + "\\b", std::regex::icase);
    for (auto& f : files) {
      std::string text = read(f);
      std::smatch m;
      if (std::regex_search(text, m, word)) {
        size_t line = size_t(std::count(text.begin(), text.begin() + m.position(0), '\n')) + 1;
        ADD_FAILURE() << fs::relative(f, kSourceRoot).generic_string() << ":" << line << " names the lab '" << lab
                      << "': the shell reaches labs through the registry (app/lab.h)";
      }
    }
  }
}

// Each registered lab has its UI, its math, its help page and its tests in its own folders.
TEST(Layout, EveryLabHasItsFolders) {
  for (auto& lab : lab_names()) {
    for (auto dir : {"app/labs/", "compute/", "tests/"})
      EXPECT_TRUE(fs::is_directory(kSourceRoot / (dir + lab))) << dir << lab;
    EXPECT_TRUE(fs::exists(kSourceRoot / "assets" / lab / "help.md")) << lab;
    EXPECT_TRUE(fs::is_directory(kSourceRoot / "assets" / lab / "presets")) << lab;
  }
}

// Folders of a lab name belong to a registered lab, in every layer.
TEST(Layout, EveryLabFolderIsARegisteredLab) {
  const std::vector<std::string> labs = lab_names();
  auto registered = [&](const std::string& n) { return std::find(labs.begin(), labs.end(), n) != labs.end(); };
  const std::map<std::string, std::vector<std::string>> shared = {{"compute", {"gpu", "io", "exercise"}},
                                                                  {"shaders", {"common", "gpu", "render"}},
                                                                  {"render", {}},
                                                                  {"app/labs", {}},
                                                                  {"assets", {"exercises", "desktop"}},
                                                                  {"tests", {"fuzz", "exercise", "hostile"}}};
  for (auto& [layer, kit] : shared)
    for (auto& e : fs::directory_iterator(kSourceRoot / layer)) {
      if (!e.is_directory()) continue;
      std::string n = e.path().filename().string();
      if (std::find(kit.begin(), kit.end(), n) == kit.end()) {
        EXPECT_TRUE(registered(n)) << layer << "/" << n << "/ is not a lab in VKLAB_LABS (the top CMakeLists.txt)";
      }
    }
}

// Every folder and file the layout table of docs/ARCHITECTURE.md names exists (`<lab>`: for
// every lab that has that layer's folder).
TEST(Layout, TheArchitecturePagesTableMatchesTheTree) {
  std::string page = read(kSourceRoot / "docs/ARCHITECTURE.md");
  auto start = page.find("## Layout");
  ASSERT_NE(start, std::string::npos);
  std::string table = page.substr(start, page.find("\n## ", start + 1) - start);
  std::regex first_cell(R"(\n\| `([^`]+)` \|)");
  size_t rows = 0;
  for (std::sregex_iterator it(table.begin(), table.end(), first_cell), end; it != end; ++it, ++rows) {
    std::string path = (*it)[1];
    auto at = path.find("<lab>");
    if (at == std::string::npos) {
      EXPECT_TRUE(fs::exists(kSourceRoot / path)) << "docs/ARCHITECTURE.md names `" << path << "`";
      continue;
    }
    size_t found = 0;
    for (auto& lab : lab_names()) found += fs::exists(kSourceRoot / (path.substr(0, at) + lab + path.substr(at + 5)));
    EXPECT_GE(found, 1u) << "docs/ARCHITECTURE.md names `" << path << "`, which no lab has";
  }
  EXPECT_GE(rows, 10u);
  for (auto dir : {"app", "compute", "render", "shaders", "assets", "tests", "scripts", "docs"})
    EXPECT_NE(table.find(std::string("`") + dir + "/"), std::string::npos) << dir << "/ is not in the table";
}
