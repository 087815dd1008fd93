// Text kept true: every repository path that a comment or a page names exists. A path is a
// word that starts with one of the top folders (app/, compute/, shaders/, render/, assets/,
// tests/, scripts/, docs/, .ci/; or gpu/, io/, measure/, exercise/, short for compute/'s and
// shaders/' folders of those names); it may name a file, a folder (ending in /), a file's stem
// (`app/core/session` for session.h and .cpp), a group (`session.*`, `session.{h,cpp}`) or
// any lab's or file's (`compute/<lab>/bench.cpp`, `tests/fuzz/seeds/<target>/`). A shader named
// as the code loads it (`render/legend.vert`) is found under shaders/. In code, only comments
// are read; pages (.md) are read whole.
#include "tests/helpers.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace {

// `text` matches `pattern`, where * stands for any run of characters.
bool wildcard(const std::string& pattern, const std::string& text) {
  size_t p = 0, t = 0, star = std::string::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p, ++t;
    } else if (star != std::string::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

// Whether some path under `dir` matches the components parts[i..] (each may hold *).
bool exists_under(const fs::path& dir, const std::vector<std::string>& parts, size_t i) {
  if (i == parts.size()) return true;
  if (parts[i].find('*') == std::string::npos) {
    fs::path next = dir / parts[i];
    return fs::exists(next) && exists_under(next, parts, i + 1);
  }
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  for (auto& e : fs::directory_iterator(dir, ec))
    if (wildcard(parts[i], e.path().filename().string()) && exists_under(e.path(), parts, i + 1)) return true;
  return false;
}

// `path` with its brace groups expanded: a/{b,c}.{h,cpp} gives four paths.
std::vector<std::string> expand(const std::string& path) {
  size_t open = path.find('{'), close = path.find('}', open);
  if (open == std::string::npos || close == std::string::npos) return {path};
  std::vector<std::string> out;
  std::stringstream options(path.substr(open + 1, close - open - 1));
  for (std::string o; std::getline(options, o, ',');) {
    o.erase(0, o.find_first_not_of(' '));
    for (auto& rest : expand(path.substr(close + 1))) out.push_back(path.substr(0, open) + o + rest);
  }
  return out;
}

// One path without braces: found as it is written, as a file's stem, or as a shader's name.
bool found(const std::string& p) {
  {
    std::vector<std::string> parts;
    std::stringstream s(p);
    for (std::string part; std::getline(s, part, '/');)
      if (!part.empty()) parts.push_back(part);
    if (exists_under(kSourceRoot, parts, 0)) return true;
    auto stem = parts;
    stem.back() += ".*";
    if (p.back() != '/' && exists_under(kSourceRoot, stem, 0)) return true;  // a file's stem
    // A shader as the code loads it (render/legend.vert), or a runtime file by its folder
    // (gpu/memory.h): under shaders/ or compute/.
    for (const char* top : {"shaders", "compute"}) {
      auto under = parts;
      under.insert(under.begin(), top);
      if (exists_under(kSourceRoot, under, 0)) return true;
      under.back() += ".*";
      if (p.back() != '/' && exists_under(kSourceRoot, under, 0)) return true;
    }
    return false;
  }
}

// Every path a name stands for exists (a <placeholder> is any name there).
bool named_path_exists(std::string path) {
  path = std::regex_replace(path, std::regex("<[^>]*>"), "*");
  for (auto& p : expand(path))
    if (!found(p)) return false;
  return true;
}

// Where the comment starts on a line of code ("//" not in "://"; "#" for scripts), or npos.
size_t comment_start(const std::string& line, bool hash) {
  if (hash) return line.find('#');
  for (size_t at = line.find("//"); at != std::string::npos; at = line.find("//", at + 2))
    if (at == 0 || line[at - 1] != ':') return at;
  return std::string::npos;
}

}  // namespace

TEST(NamedPaths, EveryPathACommentOrPageNamesExists) {
  const std::regex named(
      R"re((^|[^\w./-])((app|compute|shaders|render|assets|tests|scripts|docs|\.ci|gpu|io|measure|exercise)/[\w./*<>{},-]*[\w*/>}]))re");
  size_t files = 0, paths = 0;
  std::vector<fs::path> roots;
  for (auto top : {"app", "compute", "shaders", "render", "assets", "tests", "scripts", "docs", ".ci"})
    roots.push_back(kSourceRoot / top);
  std::vector<fs::path> texts = {kSourceRoot / "README.md", kSourceRoot / "CMakeLists.txt"};
  for (auto& root : roots)
    for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
      std::string rel = fs::relative(it->path(), kSourceRoot).generic_string();
      // The hostile corpus and the fuzzers' seeds are inputs, not text about the tree.
      if (rel == "tests/hostile" || rel == "tests/fuzz/seeds") {
        it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file()) texts.push_back(it->path());
    }
  const std::regex code(R"(\.(h|cpp|c|comp|glsl|vert|frag)$)"), script(R"((\.(sh|py|cmake|txt)|/run)$)"),
      page(R"(\.md$)");
  for (auto& f : texts) {
    std::string rel = fs::relative(f, kSourceRoot).generic_string();
    bool is_code = std::regex_search(rel, code), is_script = std::regex_search(rel, script),
         is_page = std::regex_search(rel, page);
    if (!is_code && !is_script && !is_page) continue;
    ++files;
    std::ifstream in(f);
    size_t n = 0;
    for (std::string line; std::getline(in, line);) {
      ++n;
      size_t from = is_page ? 0 : comment_start(line, is_script);
      if (from == std::string::npos) continue;
      std::string text = line.substr(from);
      for (std::sregex_iterator m(text.begin(), text.end(), named), end; m != end; ++m) {
        std::string path = (*m)[2];
        while (!path.empty() && (path.back() == '.' || path.back() == ',')) path.pop_back();
        ++paths;
        EXPECT_TRUE(named_path_exists(path)) << rel << ":" << n << " names " << path << ", which is not in the tree";
      }
    }
  }
  EXPECT_GT(files, 300u);
  EXPECT_GT(paths, 500u);
}

// The matcher itself: what exists is found in each form, and what does not is not.
TEST(NamedPaths, TheMatcherFindsEachFormAndOnlyThose) {
  EXPECT_TRUE(named_path_exists("app/core/session.h"));
  EXPECT_TRUE(named_path_exists("app/core/session"));
  EXPECT_TRUE(named_path_exists("app/core/session.*"));
  EXPECT_TRUE(named_path_exists("app/core/session.{h,cpp}"));
  EXPECT_TRUE(named_path_exists("compute/<lab>/bench.cpp"));
  EXPECT_TRUE(named_path_exists("render/legend.vert"));
  EXPECT_TRUE(named_path_exists("tests/fuzz/"));
  EXPECT_FALSE(named_path_exists("app/session.h"));
  EXPECT_FALSE(named_path_exists("app/core/session.{h,inc}"));
  EXPECT_FALSE(named_path_exists("compute/<lab>/no_such_file.cpp"));
  EXPECT_FALSE(named_path_exists("render/no_such.vert"));
  EXPECT_TRUE(named_path_exists("gpu/memory.h"));
  EXPECT_TRUE(named_path_exists("gpu/saxpy.comp"));
  EXPECT_FALSE(named_path_exists("gpu/roofline.h"));
}
