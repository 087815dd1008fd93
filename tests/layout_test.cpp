// The layout the architecture promises (docs/ARCHITECTURE.md): a lab is its folders and one
// line in VKLAB_LABS, the shell (app/ outside app/labs/) never names a lab, and the layout
// table names folders that exist.
#include "app/core/lab.h"
#include "tests/helpers.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
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
                      << "': the shell reaches labs through the registry (app/core/lab.h)";
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
  const std::map<std::string, std::vector<std::string>> shared = {
      {"compute", {"gpu", "io", "measure", "exercise"}},
      {"shaders", {"common", "gpu", "render"}},
      {"render", {}},
      {"app/labs", {}},
      {"assets", {"desktop"}},
      {"tests", {"fuzz", "exercise", "hostile", "windows"}}};
  for (auto& [layer, kit] : shared)
    for (auto& e : fs::directory_iterator(kSourceRoot / layer)) {
      if (!e.is_directory()) continue;
      std::string n = e.path().filename().string();
      if (std::find(kit.begin(), kit.end(), n) == kit.end()) {
        EXPECT_TRUE(registered(n)) << layer << "/" << n << "/ is not a lab in VKLAB_LABS (the top CMakeLists.txt)";
      }
    }
}

namespace {

// The floors of the house, lowest first (docs/ARCHITECTURE.md): a file includes only files of
// lower floors, or of its own folder. A lab's folders (compute/<lab>/, render/<lab>/,
// shaders/<lab>/, app/labs/<lab>/) are one room each; of them only compute/linalg/ (and its
// shaders) is a library the other labs' math may include. app/modes/ and app/window/ are two
// rooms of one floor that never include each other.
struct Room {
  std::string folder;  // "compute/gpu/", or "<lab>" for a lab's room
  int floor;
};

int floor_of(const std::string& path, const std::vector<std::string>& labs, std::string* room) {
  auto in = [&](const char* prefix) { return path.rfind(prefix, 0) == 0; };
  for (auto& lab : labs)
    for (std::string layer : {"compute/", "render/", "shaders/", "app/labs/"})
      if (path.rfind(layer + lab + "/", 0) == 0) {
        *room = "lab " + lab;
        return layer == "app/labs/" ? 9 : (layer == "render/" ? 6 : 4);
      }
  static const std::vector<std::pair<std::string, int>> floors = {
      {"shaders/", 0},          {"compute/io/", 0},  {"compute/gpu/", 1}, {"compute/measure/", 2},
      {"compute/exercise/", 3}, {"render/", 5},      {"app/widgets/", 7}, {"app/core/", 8},
      {"app/modes/", 10},       {"app/window/", 10}, {"app/main.cpp", 11}};
  for (auto& [prefix, floor] : floors)
    if (in(prefix.c_str())) {
      *room = prefix;
      return floor;
    }
  *room = path;
  return -1;
}

}  // namespace

// No include runs up the house or across it: the floors above, each lab a room of its own.
TEST(Layout, IncludesPointDownTheFloors) {
  const std::vector<std::string> labs = lab_names();
  std::regex include(R"re(#include\s+"([^"]+)")re");
  size_t checked = 0;
  for (std::string layer : {"compute", "render", "shaders", "app"})
    for (auto& e : fs::recursive_directory_iterator(kSourceRoot / layer)) {
      static const std::set<std::string> kinds = {".h", ".cpp", ".c", ".comp", ".glsl", ".vert", ".frag"};
      if (!e.is_regular_file() || !kinds.count(e.path().extension().string())) continue;
      std::string from = fs::relative(e.path(), kSourceRoot).generic_string(), from_room;
      int from_floor = floor_of(from, labs, &from_room);
      ASSERT_GE(from_floor, 0) << from << " is on no floor of docs/ARCHITECTURE.md";
      std::string text = read(e.path());
      for (std::sregex_iterator it(text.begin(), text.end(), include), end; it != end; ++it) {
        std::string to = (*it)[1], to_room;
        if (to.find('/') == std::string::npos || to.rfind("../", 0) == 0) continue;  // beside it
        int to_floor = floor_of(to, labs, &to_room);
        if (to_floor < 0) continue;  // generated (labs.inc) or a system header
        ++checked;
        bool library = to_room == "lab linalg" && from_floor >= 4;
        EXPECT_TRUE(to_room == from_room || to_floor < from_floor || library)
            << from << " includes " << to << ": " << from_room << " (floor " << from_floor << ") may not reach "
            << to_room << " (floor " << to_floor << ")";
      }
    }
  EXPECT_GT(checked, 500u);
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
